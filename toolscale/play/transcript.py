"""The Teacher protocol and the transcript an attempt is recorded in.

A teacher turns a sampled task into attempts ("drafts"): the conversation it held, every tool call
it made and what the sandbox returned, its final answer and the final state hash. Drafts are not
judged here; the verifier does that. The LLM teachers implement the same protocol.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from toolscale.core.contract import canonical_json
from toolscale.core.handed import handed_answer
from toolscale.core.records import DomainError, FunctionCall, Message, Task, ToolCall
from toolscale.core.registry import get_domain
from toolscale.judge.metrics import tool_call_record
from toolscale.sample.tasks import SampledTask
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool


@dataclass
class Transcript:
    """One unverified attempt. `failure` is set when the teacher itself failed (stage, reason)."""

    variant: str
    attempt: int
    messages: list[Message] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    final_answer: str = ""
    final_state_hash: str = ""
    failure: tuple[str, str] | None = None
    # What the teacher model itself used (0 for the reference teacher).
    teacher_prompt_tokens: int = 0
    teacher_completion_tokens: int = 0
    teacher_latency_ms: float = 0.0
    # Mistakes the model made that went back to it as tool errors, by kind.
    model_errors: Counter[str] = field(default_factory=Counter)
    # Calls that crashed, with their traceback: a bug in a tool, so the run holds the attempt
    # back from the data and fails (toolscale.pipeline.generate).
    crashes: list[DomainError] = field(default_factory=list)
    # Whether the pipeline itself ran this attempt's calls, in order, on a fresh copy of the
    # task's state (a route the reference teacher or the oracle plays): its outcomes are then
    # the grounding, and the verifier replays only what a model did (`toolscale.judge.rubric`).
    grounded: bool = False


class Teacher(Protocol):
    name: str

    async def attempts(self, item: SampledTask, pool: SandboxPool) -> list[Transcript]:
        """Play the task, executing every tool call in `pool`; return every attempt made."""
        ...


NO_ANSWER = "no final answer: the last message is empty"


def said_to_user(messages: Sequence[Message]) -> list[str]:
    """What the agent said to the user after the opening: its messages without tool calls."""
    return [m.content for m in messages[2:] if m.role == "assistant" and not m.tool_calls]


def open_draft(task: Task, variant: str, attempt: int) -> Transcript:
    """A draft holding the task's system prompt and user instruction."""
    return Transcript(
        variant=variant,
        attempt=attempt,
        messages=[
            Message(role="system", content=task.system_prompt),
            Message(role="user", content=task.instruction),
        ],
    )


def record_call(
    draft: Transcript, task: Task, name: str, arguments: Any, outcome: CallOutcome
) -> None:
    """Append one assistant tool call and its tool result to the draft. `arguments` is a value,
    or the exact JSON text the model wrote (kept as is, even when it does not parse)."""
    text = arguments if isinstance(arguments, str) else canonical_json(arguments)
    record_turn(draft, task, "", [(name, text, outcome)])


def record_turn(
    draft: Transcript, task: Task, content: str, calls: Sequence[tuple[str, str, CallOutcome]]
) -> None:
    """Append one assistant message holding `calls` (name, argument text, outcome) and the tool
    result of each. Call ids are `call_<n>`, numbered over the whole draft."""
    start = len(draft.tool_calls)
    ids = [f"call_{start + i}" for i in range(len(calls))]
    draft.messages.append(
        Message(
            role="assistant",
            content=content,
            tool_calls=[
                FunctionCall(id=i, name=name, arguments=text)
                for i, (name, text, _) in zip(ids, calls, strict=True)
            ],
        )
    )
    for call_id, (name, text, outcome) in zip(ids, calls, strict=True):
        draft.messages.append(
            Message(role="tool", content=outcome.output, tool_call_id=call_id, name=name)
        )
        draft.tool_calls.append(tool_call_record(task, call_id, name, text, outcome))
        if outcome.status == "crash":
            message = f"tool {name} crashed in the {draft.variant} attempt: {outcome.output}"
            draft.crashes.append(
                DomainError(
                    domain=task.domain,
                    index=task.index,
                    stage="tool",
                    message=message,
                    traceback=outcome.traceback,
                )
            )


def final_answer_of(task: Task, draft: Transcript, text: str) -> str:
    """The attempt's final answer when the policy ends with `text`: `text`, or a reply its last
    call handed over when `text` is empty (`toolscale.core.handed`)."""
    return handed_answer(text, draft.tool_calls, get_domain(task.domain).toolkit.answer_tools)


def close_draft(
    draft: Transcript, final_answer: str, final_state_hash: str, task: Task | None = None
) -> Transcript:
    """The draft ended with the policy's last message `final_answer`; with `task`, a reply
    handed over by its last call stands for an empty one (`final_answer_of`)."""
    draft.messages.append(Message(role="assistant", content=final_answer))
    draft.final_answer = (
        final_answer if task is None else final_answer_of(task, draft, final_answer)
    )
    draft.final_state_hash = final_state_hash
    return draft
