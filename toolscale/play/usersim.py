"""The user simulator: an LLM plays the user of a conversational task from its scenario.

tau2-style: the system prompt says how to play a caller (one short message at a time, details
only when asked, nothing invented), when to end with which marker (###STOP### when the goal is
met or cannot be, ###TRANSFER### when handed over, ###OUT-OF-SCOPE### when the scenario does not
say how to go on), then the scenario: why they call, what they know (and may tell when asked)
and what they do not (and must not invent). The simulator sees the conversation from the user's
side (the agent's texts as the other party; tool traffic hidden) and answers with one message, or
with a marker: then the conversation ends. Its turns are marked `name="user_simulator"` in the
trace. A task is conversational when it carries a `user_scenario`
(toolscale.core.contract.UserScenario). It is the default user of `--teacher openai`, on the
teacher's endpoint unless `--user-base-url` / `--user-model` name another; `--user scripted`, the
reference and the local teacher use the deterministic scripted user
(toolscale.dialogue.scripted_user) instead (docs/teachers.md).
"""

from __future__ import annotations

from typing import Any

from toolscale.core.contract import UserScenario
from toolscale.core.records import Message, Task
from toolscale.llm.client import Chat

STOP_MARKERS = ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###")


def scenario_for(task: Task) -> UserScenario | None:
    """The task's user scenario (None for a single-instruction task)."""
    return task.user_scenario


def system_prompt(scenario: UserScenario) -> str:
    """The simulator's instructions, laid out as tau2-bench's user simulator lays them out (its
    words are ours): how to play a caller, when to end with which marker, then the scenario."""
    persona = f"\nYour manner: {scenario.persona}" if scenario.persona else ""
    offers = (
        "Agree to the change you called for when the agent proposes it; turn down any other."
        if scenario.accepts_changes
        else "Agree to no change but the one you called for, if you called for one; when the "
        "agent says it cannot make it, accept that."
    )
    stop, transfer, out_of_scope = STOP_MARKERS
    return (
        "You are the customer in a conversation with a customer-service agent. Write only what "
        "the customer says, one short message at a time, and stay in character.\n\n"
        "# How to play the customer\n"
        "- Follow the scenario below. Answer what the agent asks, however it is phrased, with "
        "or without a question mark; if it asks several things, answer each you can.\n"
        "- Tell a detail only when the agent asks for it, in your own words; never recite the "
        "scenario.\n"
        "- Never invent a detail the scenario does not give you. If you are asked for one you "
        "do not have, say so, and offer a detail you do have that could identify the same "
        "thing.\n"
        "- When the agent lists options, pick the one your details point to.\n"
        f"- {offers}\n"
        "- If the agent says it cannot do what you asked, accept it; do not repeat details you "
        "already gave.\n"
        "- Your first message may also say how you want to be served (a format, a cost, no "
        "hand-off): that wish is yours too; keep to it.\n\n"
        "# Ending the conversation\n"
        f"- When your goal is met, or the agent has explained why it cannot be met, answer "
        f"only {stop} (that is how you say goodbye or end the call).\n"
        f"- When the agent hands you over to a human or another department, answer only "
        f"{transfer}.\n"
        f"- When the scenario does not tell you how to go on, answer only {out_of_scope}.\n\n"
        "# Scenario\n"
        f"Why you call: {scenario.reason_for_call}\n"
        f"What you said first: {scenario.opening}\n"
        f"How to behave: {scenario.task_instructions or 'as a normal customer'}{persona}\n"
        f"What you know (tell it only when asked): {scenario.known_info or 'nothing more'}\n"
        f"What you do not know (never invent it): {scenario.unknown_info or 'anything else'}"
    )


def user_view(messages: list[Message]) -> list[dict[str, Any]]:
    """The conversation from the user's side: roles swapped, tool traffic left out."""
    view = []
    for m in messages:
        if m.role == "user":
            view.append({"role": "assistant", "content": m.content})
        elif m.role == "assistant" and m.content:
            view.append({"role": "user", "content": m.content})
    return view


class UserSimulator:
    def __init__(self, client: Chat, temperature: float = 0.0) -> None:
        self.client = client
        self.temperature = temperature

    async def reply(
        self, scenario: UserScenario, messages: list[Message], attempt: int
    ) -> str | None:
        """The user's next message, or None when the user ends the conversation."""
        request = [{"role": "system", "content": system_prompt(scenario)}, *user_view(messages)]
        sampling = {"temperature": self.temperature, "_attempt": attempt}
        completion = await self.client.complete(request, [], sampling)
        text = str(completion.message.get("content") or "").strip()
        if not text or any(marker in text for marker in STOP_MARKERS):
            return None
        return text
