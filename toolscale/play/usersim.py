"""The user simulator: an LLM plays the user of a conversational task from its scenario.

tau2-style: the scenario says what the user wants, what they know (and may tell when asked) and
what they do not know (and must not invent). The simulator sees the conversation from the user's
side (the agent's texts as the other party; tool traffic hidden) and answers with one message, or
with a stop marker when the goal is met or cannot be: then the conversation ends. Its turns are
marked `name="user_simulator"` in the trace. A task is conversational when it carries a
`user_scenario` (toolscale.core.contract.UserScenario); without a user endpoint the deterministic
scripted user (toolscale.dialogue.scripted_user) plays it instead.
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
    persona = f"Your manner: {scenario.persona}\n" if scenario.persona else ""
    return (
        "You are a user talking to a customer-service agent. Stay in character and write only "
        "what the user says, one short message at a time.\n\n"
        f"Why you call: {scenario.reason_for_call}\n"
        f"How to behave: {scenario.task_instructions or 'as a normal customer'}\n{persona}"
        f"What you know (tell it only when asked): {scenario.known_info or 'nothing more'}\n"
        f"What you do not know (never invent it): {scenario.unknown_info or 'nothing'}\n\n"
        f"When your goal is met, or the agent cannot help, answer only {STOP_MARKERS[0]}."
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
