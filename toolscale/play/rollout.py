"""A policy's rollout as a Transcript, recorded exactly as an LLM teacher's attempt is recorded.

A GRPO rollout (TRL's tool loop) or an evaluation rollout (`trainer.checkpoint_rollouts`) leaves
two things: the chat messages the policy wrote and read (assistant turns with their parsed tool
calls, tool results), and the log of what its environment executed (`Executed`, one entry per
call that reached the sandbox or the user, in order). `transcript_of` puts them together into the
same Transcript a teacher leaves, so `toolscale.judge.rubric.Rubric` judges both alike:

- every call the policy emitted is recorded with its text, in the turn that emitted it (one
  assistant message per turn, its text content included, so the policy's words are charged and
  parallel calls are one turn); a call that never reached the sandbox (an unknown tool, arguments
  that are not an object: TRL's loop refuses them) is recorded with the error the policy was
  shown, so it is priced and fails at format, as a teacher's would;
- calls that ran but whose results were rolled back (TRL drops tool results that would overflow
  `max_completion_length`) are recorded with what the sandbox returned: they changed the state;
- calls still pending when the loop stopped (`max_tool_calling_iterations`) stay in the
  conversation as text the policy wrote (charged as its tokens), not as executed calls;
- `ask_user` (the user turn TRL's loop lacks) becomes what generation records: the agent's
  message and the user's reply as messages, never a tool call;
- a rollout whose last turn is not a non-empty answer has no final answer and fails at stage
  "teacher", as a teacher that gave none; so does a conversation the user ended for going in
  circles (`toolscale.dialogue.scripted_user.in_circles`).

Which rollouts a trainer should leave out of its update (a crashed tool, a time-out under load)
is the trainer's decision; this module only records them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolscale.core.contract import canonical_json
from toolscale.core.records import Message, Task
from toolscale.dialogue.scripted_user import CIRCLES
from toolscale.llm.toolcalls import ParsedCall, parse_message
from toolscale.play.transcript import (
    NO_ANSWER,
    Transcript,
    final_answer_of,
    open_draft,
    record_turn,
)
from toolscale.sandbox.execute import CallOutcome

ASK_USER = "ask_user"
PENDING = (
    "no final answer: the rollout stopped with tool calls pending "
    "(max_tool_calling_iterations or max_completion_length reached)"
)


@dataclass(frozen=True)
class Executed:
    """One call that reached the environment: a tool's sandbox outcome, or for `ask_user` the
    user's reply (None: the user said nothing more, the conversation is over)."""

    name: str
    arguments: dict[str, Any]
    outcome: CallOutcome | None = None
    reply: str | None = None
    circling: bool = False  # the user hung up: the agent went in circles

    def matches(self, call: ParsedCall) -> bool:
        return self.name == call.name and canonical_json(self.arguments) == call.arguments


def final_text(content: str) -> str:
    """An answer's text without a <think> block."""
    return content.split("</think>")[-1].strip()


def _results(completion: Sequence[dict[str, Any]], start: int) -> list[str]:
    results = []
    for message in completion[start:]:
        if message.get("role") != "tool":
            break
        results.append(str(message.get("content") or ""))
    return results


def transcript_of(
    task: Task,
    completion: Sequence[dict[str, Any]],
    executed: Sequence[Executed],
    completion_tokens: int = 0,
) -> Transcript:
    """The rollout as a Transcript, its final state hash left to the caller (the episode's)."""
    draft = open_draft(task, "policy", 0)
    draft.teacher_completion_tokens = completion_tokens
    log = list(executed)
    answer: str | None = None
    for position, message in enumerate(completion):
        if message.get("role") != "assistant":
            continue  # tool results are read with the turn that asked for them
        content, calls = parse_message(message)
        if not calls:
            answer = final_text(content)
            continue
        answer = None
        shown = _results(completion, position + 1)
        pending: list[str] = []
        turn: list[tuple[str, str, CallOutcome]] = []
        text = content

        def flush() -> None:
            nonlocal text, turn
            if turn or text:
                record_turn(draft, task, text, turn)
            text, turn = "", []

        for n, call in enumerate(calls):
            entry = log.pop(0) if log and log[0].matches(call) else None
            if call.name == ASK_USER and entry is not None:
                flush()
                said = str(entry.arguments.get("message", ""))
                draft.messages.append(Message(role="assistant", content=said))
                if entry.reply is not None:
                    draft.messages.append(
                        Message(role="user", content=entry.reply, name="scripted_user")
                    )
                if entry.circling and draft.failure is None:
                    draft.failure = ("teacher", CIRCLES)
            elif entry is not None and entry.outcome is not None:
                turn.append((call.name, call.arguments, entry.outcome))
            elif n < len(shown):  # refused by the tool loop: the error the policy saw
                known = call.name in task.tool_names()
                draft.model_errors["unparsable_arguments" if known else "unknown_tool"] += 1
                turn.append((call.name, call.arguments, CallOutcome(shown[n], "error")))
            else:
                pending.append(call.name + call.arguments)
        flush()
        if pending:  # written, never run: charged as the policy's text, not as calls
            draft.messages.append(Message(role="assistant", content=" ".join(pending)))
    if answer is not None:
        draft.messages.append(Message(role="assistant", content=answer))
        answer = final_answer_of(task, draft, answer)
    if not answer and draft.failure is None:
        draft.failure = ("teacher", PENDING if answer is None else NO_ANSWER)
    draft.final_answer = answer or ""
    return draft
