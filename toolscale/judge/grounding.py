"""Check `grounding`: replaying the calls on a fresh copy of the task's state reproduces every
recorded output, status and token count, and the recorded final state hash.

Catches: a tool result or a final state the attempt did not get from the sandbox. Gaming
policy: a teacher (or a tampered file) that writes plausible results and a gold state hash
without running anything. An attempt the pipeline itself just ran on a fresh state is its own
replay (`Seen.replay` off, `toolscale.judge.rubric`).
"""

from __future__ import annotations

from typing import Any

from toolscale.core.task_state import state_json
from toolscale.judge.seen import Check, Seen, parsed_arguments


def _outcome(call: Any) -> tuple[Any, ...]:
    return (call.output, call.status, call.model, call.prompt_tokens, call.completion_tokens)


async def grounding_problems(seen: Seen) -> list[str]:
    if not seen.replay or seen.pool is None:
        return []
    task, attempt = seen.task, seen.attempt
    calls = [(c.name, parsed_arguments(c)) for c in attempt.tool_calls]
    outcomes, final_hash = await seen.pool.replay(task.domain, state_json(task), calls)
    problems = []
    for call, redo in zip(attempt.tool_calls, outcomes, strict=True):
        if _outcome(call) != _outcome(redo):
            problems.append(f"{call.id}: replaying {call.name} gives a different result")
    if final_hash != attempt.final_state_hash:
        problems.append("replaying the calls gives a different final state")
    return problems


CHECK = Check("grounding", "grounding", grounding_problems)
