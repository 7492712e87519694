"""The yields of a synthesize run: one typed, summable funnel per domain.

proposed (candidates asked for: one per intent received, one per evolved task) -> grounded
(the proposer wrote a task rather than declining the intent) -> well_formed (parsed, real tools,
schema-valid arguments) -> executes (gold actions succeed, a write changes the state, each
required fact is a value of its named source, the caller can give every identifier the gold
route needs) -> not_trivial (doing nothing fails) -> unique (no near-duplicate of an earlier
candidate, nor of a decontamination task) -> solvable (solved at least once in K solver
attempts: accepted). `band` counts accepted tasks solved 1..K-1 times (neither always nor
never). `passes` is the histogram of solver passes ("c/K": candidates) over every candidate the
solver played.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from toolscale.stats.numbers import add_counts

STAGES = ("proposed", "grounded", "well_formed", "executes", "not_trivial", "unique", "solvable")
# The stage that rejects a candidate, in pipeline order, and the funnel step it stops before.
REJECT_STAGES = {
    "declined": "grounded",
    "request": "well_formed",
    "parse": "well_formed",
    "format": "well_formed",
    "execution": "executes",
    "facts": "executes",
    "caller": "executes",
    "trivial": "not_trivial",
    "contaminated": "unique",
    "duplicate": "unique",
    "solver": "solvable",
}


class Yields(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    intents_requested: int = 0
    intents_received: int = 0
    proposed: int = 0
    grounded: int = 0
    well_formed: int = 0
    executes: int = 0
    not_trivial: int = 0
    unique: int = 0
    solvable: int = 0
    band: int = 0
    rejected_by_stage: dict[str, int] = {}
    passes: dict[str, int] = {}

    def __add__(self, other: Yields) -> Yields:
        counts = {
            k: getattr(self, k) + getattr(other, k)
            for k, field in Yields.model_fields.items()
            if field.annotation is int
        }
        return Yields(
            **counts,
            rejected_by_stage=add_counts(self.rejected_by_stage, other.rejected_by_stage),
            passes=add_counts(self.passes, other.passes),
        )

    @classmethod
    def of_candidate(cls, stage: str | None, passes: str = "", band: bool = False) -> Yields:
        """One proposed candidate, rejected at `stage` (None: accepted)."""
        stop = REJECT_STAGES[stage] if stage else None
        reached = STAGES[1 : STAGES.index(stop)] if stop else STAGES[1:]
        return cls(
            proposed=1,
            **{k: 1 for k in reached},
            band=int(band and stop is None),
            rejected_by_stage={stage: 1} if stage else {},
            passes={passes: 1} if passes else {},
        )

    def funnel(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in STAGES}

    def report(self) -> dict[str, Any]:
        return self.model_dump()
