"""Judge one attempt: run the judge's named checks in order (`toolscale.judge.checks`: format,
execution, grounding, then the outcome's pasting, state, required facts, evidence, figures,
refusal reason, consent and expected answer), stopping at the first failed stage.

Each check's module says what it catches and the gaming policy that made it necessary; this
module only runs them and names the stage that failed.

`preference_problems` checks the task's preference profile (forbidden tools, answer format and
confidence, and with the attempt's metrics its latency or cost budget). It is deliberately not a
stage: the verdict says whether an attempt is real and correct, the preference says how well it
suited this user. A correct attempt that ignores a preference is still a verified trace, labelled
`preference_compliant = False` and rewarded as a wrong one (`r_outcome = r_preference = 0`,
`reward_group = 0`); users who want only compliant SFT data filter on that column, and the
rejected funnel keeps meaning "wrong or unreal".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from toolscale.core.errors import ConfigError
from toolscale.core.records import Task, ToolCall
from toolscale.core.registry import get_domain
from toolscale.economics.preferences import violations
from toolscale.judge.checks import first_failure, stage_problems
from toolscale.judge.pasting import PASTE_MIN as PASTE_MIN
from toolscale.judge.readings import Readings
from toolscale.judge.seen import Attempt as Attempt
from toolscale.judge.seen import Seen
from toolscale.judge.validators import Validators as Validators
from toolscale.sandbox.pool import SandboxPool


@dataclass(frozen=True)
class Verdict:
    verified: bool
    failure_stage: str | None
    reasons: list[str]


class Answered(Protocol):
    """What the preference check reads from an attempt (an Attempt, or a Labelled one)."""

    tool_calls: list[ToolCall]
    final_answer: str


def outcome_problems(task: Task, attempt: Attempt, readings: Readings | None = None) -> list[str]:
    """Every problem the outcome stage's checks find with an attempt (its calls taken as run)."""
    seen = Seen(task, attempt, get_domain(task.domain), readings=readings)
    return stage_problems(seen, "outcome")


def preference_problems(
    task: Task, attempt: Answered, metrics: Mapping[str, Any] | None = None
) -> list[str]:
    """The constraints of the task's preference profile that the attempt breaks (a label); with
    the attempt's `metrics`, its budget too (total latency and cost)."""
    calls_per_tool = Counter(c.name for c in attempt.tool_calls)
    totals = (metrics["total_latency_ms"], metrics["total_cost"]) if metrics else (None, None)
    return violations(task.preference, calls_per_tool, attempt.final_answer, *totals)


async def verify(
    task: Task,
    attempt: Attempt,
    pool: SandboxPool,
    replay: bool = True,
    readings: Readings | None = None,
    validators: Validators | None = None,
) -> Verdict:
    """The verdict on one attempt; `failure_stage` names the first stage that failed. With
    `replay` off, grounding holds without a replay: for an attempt whose calls the pipeline
    itself just ran on a fresh state (`toolscale.judge.rubric`), whose outcomes are the replay.
    `readings` keeps what each input of the figures check shows, for the next attempt, and
    `validators` each task's tool validators."""
    domain = get_domain(task.domain)
    if task.domain_version != domain.version:
        raise ConfigError(
            f"task {task.id} was made by {task.domain} {task.domain_version}, but "
            f"{domain.version} is installed; install the matching version"
        )
    seen = Seen(task, attempt, domain, pool, replay, readings, validators)
    failed = await first_failure(seen)
    if failed is None:
        return Verdict(True, None, [])
    return Verdict(False, *failed)
