"""The filters a candidate task passes before the solver sees it: well-formed, its gold actions
execute (and change the state when the task is a write), and doing nothing does not solve it.

Each filter returns the reasons it rejects a candidate (an empty list: it passes), so the
pipeline records the first failing stage with its reasons. Gold actions run in the sandbox on a
fresh copy of the candidate's state, exactly as a teacher's calls would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from toolscale.core.contract import Domain, ToolKind, canonical_state, state_hash
from toolscale.core.records import Message, Task, ToolCall
from toolscale.judge.verify import outcome_problems
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool
from toolscale.synthesize.candidates import Candidate


def candidate_problems(domain: Domain, candidate: Candidate) -> list[str]:
    """Every gold action names one of the domain's tools and has arguments valid against its
    JSON schema; there is at least one action."""
    if not candidate.actions:
        return ["the task has no gold actions"]
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in domain.toolkit.schemas()}
    problems = []
    for n, action in enumerate(candidate.actions):
        if action.name not in schemas:
            problems.append(f"action {n}: unknown tool {action.name!r}")
            continue
        validator = Draft202012Validator(schemas[action.name])
        problems += [
            f"action {n} ({action.name}): {e.message}"
            for e in validator.iter_errors(action.arguments)
        ]
    return problems


def is_write(domain: Domain, candidate: Candidate, kind: str) -> bool:
    """Whether the task implies a change to the data: a write intent, or a WRITE gold action."""
    specs = domain.toolkit.specs()
    return kind == "write" or any(
        specs[a.name].kind is ToolKind.WRITE for a in candidate.actions if a.name in specs
    )


async def run_gold(
    pool: SandboxPool, domain: Domain, state: dict[str, Any], candidate: Candidate
) -> tuple[list[CallOutcome], str]:
    """Execute the gold actions in order on a fresh copy of `state`: outcomes, final hash."""
    calls = [(a.name, a.arguments) for a in candidate.actions]
    return await pool.replay(domain.name, canonical_state(state), calls)


def execution_problems(
    outcomes: list[CallOutcome], initial_hash: str, final_hash: str, write: bool
) -> list[str]:
    """Every gold call succeeded; a write task's gold actions changed the state."""
    problems = [
        f"gold action {n} {o.status}: {o.output[:200]}"
        for n, o in enumerate(outcomes)
        if o.status != "ok"
    ]
    if not problems and write and final_hash == initial_hash:
        problems.append("the gold actions change nothing although the task asks for a change")
    return problems


@dataclass
class _NoAction:
    """A trajectory without any tool call: the agent repeats what the user said and stops."""

    final_answer: str
    final_state_hash: str
    messages: list[Message] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)


def do_nothing_passes(task: Task) -> bool:
    """Whether an agent that calls no tool and only repeats the user's words (opening and
    everything the user knows) passes the task's checks: such a task is trivial."""
    said = [task.instruction]
    if task.user_scenario is not None:
        said += [task.user_scenario.reason_for_call, task.user_scenario.known_info]
    attempt = _NoAction(" ".join(said), state_hash(task.initial_state))
    return not outcome_problems(task, attempt)
