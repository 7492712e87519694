"""Run statistics: one typed, summable record, kept per chunk and summed into run.json.

Each chunk's `RunStats` is written into its completion marker and read back on `--resume`; the
run's statistics are the sum (`+`) of its chunks', so a resumed run, or several outputs added up
by a merge, report exactly what one uninterrupted run would. run.json keeps the summed record
under `stats` (what a merge adds up) and shows it as the report keys that the card and users read
(`counts`, `per_domain`, `rejected_by_stage`, `sample_failures`, `tool_crashes`, `errors`,
`attempts`; see `report`). `counts.user_faults` (and each domain's) counts the attempts the
simulated user broke (stage "user", `toolscale.judge.user_fault`): written to their own config,
never in `rejected_by_stage`, so the rejected funnel keeps meaning the agent's failures.

Domain errors (a sampler that raises, gold actions that fail, a READ tool that changes the state,
a tool that crashes) are kept with their traceback: the first ERRORS_KEPT of each domain and
stage, in task order, whatever order the chunks finished in (the counts count them all). This
module does not decide what fails a run; `toolscale.pipeline.generate` does, from these numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from toolscale.core.records import DomainError, ErrorStage
from toolscale.stats.numbers import add_counts

STAGES = ("sampled", "attempts", "executed", "grounded", "verified")
COUNTED = (*STAGES, "user_faults")  # run.json's counts: the funnel, then the user's faults
ERRORS_KEPT = 5  # per domain and stage
MARKER_KEY = "stats"
# What a failed sample was, by the exception the sandbox worker met (toolscale.sample.tasks raises
# GoldError for gold actions that fail or READ tools that write; toolscale.core.schema SchemaError).
_SAMPLE_STAGES: dict[str, ErrorStage] = {"GoldError": "gold", "SchemaError": "schema"}


def sample_stage(error_type: str) -> ErrorStage:
    """The stage a sample failed at, from the name of the exception the worker met."""
    return _SAMPLE_STAGES.get(error_type, "sample")


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Funnel(_Record):
    """One domain's counts: tasks sampled or failed, attempts and how far they got, crashed
    attempts (held back from the data: a crash is a bug in a tool), and attempts the simulated
    user broke (`user_faults`, stage "user": in `attempts`, in neither `verified` nor rejected)."""

    sampled: int = 0
    sample_failed: int = 0
    attempts: int = 0
    executed: int = 0
    grounded: int = 0
    verified: int = 0
    tool_crashes: int = 0
    user_faults: int = 0

    def __add__(self, other: Funnel) -> Funnel:
        return Funnel(**{k: getattr(self, k) + getattr(other, k) for k in Funnel.model_fields})

    @classmethod
    def of_attempt(cls, verified: bool, failure_stage: str | None) -> Funnel:
        """The funnel stages one judged attempt reached. A teacher that failed before producing
        an attempt passed no stage; `format` and `execution` both precede `executed`; the
        NL-assertion judge (`judge`) comes after every other stage; an attempt the user broke
        (`user`) passed grounding and was never judged on its outcome."""
        order = ["format", "execution", "grounding", "outcome", "judge"]
        if failure_stage == "user":
            return cls(attempts=1, executed=1, grounded=1, user_faults=1)
        stage = failure_stage or "format"
        passed = order if verified else order[: order.index(stage) if stage in order else 0]
        return cls(
            attempts=1,
            executed=int({"format", "execution"} <= set(passed)),
            grounded=int("grounding" in passed),
            verified=int(verified),
        )


class PassCount(_Record):
    """`tasks` tasks had `verified` verified attempts out of `attempts` (for pass@k)."""

    verified: int
    attempts: int
    tasks: int


class RunStats(_Record):
    """What a chunk, a run or several runs produced. `a + b` is the statistics of both."""

    domains: dict[str, Funnel] = {}
    rejected_by_stage: dict[str, int] = {}
    passes: tuple[PassCount, ...] = ()
    model_errors: dict[str, int] = {}
    worker_restarts: int = 0
    errors: tuple[DomainError, ...] = ()

    def __add__(self, other: RunStats) -> RunStats:
        tally: dict[tuple[int, int], int] = {}
        for p in (*self.passes, *other.passes):
            tally[p.verified, p.attempts] = tally.get((p.verified, p.attempts), 0) + p.tasks
        names = sorted({*self.domains, *other.domains})
        kept: dict[tuple[str, str], list[DomainError]] = {}
        for error in sorted(
            (*self.errors, *other.errors), key=lambda e: (e.domain, e.index, e.stage, e.message)
        ):
            kept.setdefault((error.domain, error.stage), []).append(error)
        errors = [e for group in kept.values() for e in group[:ERRORS_KEPT]]
        errors.sort(key=lambda e: (e.domain, e.index, e.stage, e.message))
        return RunStats(
            domains={d: self.funnel(d) + other.funnel(d) for d in names},
            rejected_by_stage=add_counts(self.rejected_by_stage, other.rejected_by_stage),
            passes=tuple(
                PassCount(verified=c, attempts=n, tasks=t) for (c, n), t in sorted(tally.items())
            ),
            model_errors=add_counts(self.model_errors, other.model_errors),
            worker_restarts=self.worker_restarts + other.worker_restarts,
            errors=tuple(errors),
        )

    @classmethod
    def total(cls, parts: Iterable[RunStats]) -> RunStats:
        result = cls()
        for part in parts:
            result = result + part
        return result

    def funnel(self, domain: str | None = None) -> Funnel:
        """One domain's funnel, or (without a name) the sum over every domain."""
        if domain is not None:
            return self.domains.get(domain, Funnel())
        total = Funnel()
        for funnel in self.domains.values():
            total = total + funnel
        return total

    @classmethod
    def sample_failure(cls, error: DomainError) -> RunStats:
        return cls(domains={error.domain: Funnel(sample_failed=1)}, errors=(error,))

    def marker(self) -> dict[str, Any]:
        """What a chunk's completion marker holds."""
        return {MARKER_KEY: self.model_dump(mode="json")}

    @classmethod
    def from_marker(cls, marker: Mapping[str, Any] | None) -> RunStats | None:
        """The statistics of a finished chunk; None when there is no marker, or one this version
        cannot read (an older toolscale's string-keyed counts): such a chunk is produced again,
        which gives the same rows."""
        if marker is None or MARKER_KEY not in marker:
            return None
        try:
            return cls.model_validate(marker[MARKER_KEY])
        except ValidationError:
            return None

    def report(self, domains: Iterable[str]) -> dict[str, Any]:
        """run.json's count keys (the attempt report is added by `toolscale.stats.attempts`)."""
        total = self.funnel()
        return {
            "counts": {k: getattr(total, k) for k in COUNTED},
            "rejected_by_stage": dict(self.rejected_by_stage),
            "per_domain": {d: {k: getattr(self.funnel(d), k) for k in COUNTED} for d in domains},
            "sample_failures": total.sample_failed,
            "tool_crashes": total.tool_crashes,
            "worker_restarts": self.worker_restarts,
            "errors": [e.model_dump() for e in self.errors],
            "stats": self.model_dump(mode="json"),
        }
