"""The solver band: a solver teacher plays a candidate task K times; the verifier judges each.

ToolScale keeps a task that some model solves within 8 tries (pass@8 > 0). The number of
verified attempts out of K is recorded on the task: 1..K-1 is the band RL learns from most
(neither always nor never solved). An attempt the teacher could not finish (a request that
failed for good, no answer within the turn limit) counts as not solved, with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolscale.judge.verify import verify
from toolscale.play.transcript import Teacher
from toolscale.sample.tasks import SampledTask
from toolscale.sandbox.pool import SandboxPool


@dataclass(frozen=True)
class SolverResult:
    passes: int
    attempts: int
    reasons: tuple[str, ...]  # why each failed attempt failed: "<stage>: <first reason>"

    def as_dict(self) -> dict[str, int]:
        return {"passes": self.passes, "attempts": self.attempts}


async def solve(teacher: Teacher, item: SampledTask, pool: SandboxPool) -> SolverResult:
    """Play `item` with every attempt of `teacher` and count the verified ones."""
    drafts = await teacher.attempts(item, pool)
    passes, reasons = 0, []
    for draft in drafts:
        if draft.failure is not None:
            reasons.append(f"{draft.failure[0]}: {draft.failure[1]}")
            continue
        if draft.crashes:
            reasons.append(f"execution: {draft.crashes[0].message}")
            continue
        verdict = await verify(item.task, draft, pool)
        if verdict.verified:
            passes += 1
        else:
            reasons.append(f"{verdict.failure_stage}: {(verdict.reasons or [''])[0]}")
    return SolverResult(passes, len(drafts), tuple(reasons))
