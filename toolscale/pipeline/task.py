"""Play one task: sample (or read) it, let the teacher attempt it, judge every attempt, label the
group, and return its rows and statistics. Writes nothing.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from toolscale.config.generate import GenerateConfig
from toolscale.core.records import DomainError
from toolscale.core.registry import get_domain
from toolscale.economics.prices import Economics
from toolscale.judge.rubric import Rubric
from toolscale.judge.user_fault import STAGE as USER_STAGE
from toolscale.oracle.played import with_oracle
from toolscale.play.transcript import Teacher
from toolscale.sample import worlds
from toolscale.sample.in_worker import sample_in
from toolscale.sample.stored_source import source_item
from toolscale.sample.tasks import prepare
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.stats.run_stats import Funnel, PassCount, RunStats, sample_stage
from toolscale.tau2.nl_assertions import AssertionJudge


@dataclass
class ChunkResult:
    tasks: list[dict[str, Any]] = field(default_factory=list)
    traces: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    user_faults: list[dict[str, Any]] = field(default_factory=list)
    worlds: list[dict[str, Any]] = field(default_factory=list)
    stats: RunStats = field(default_factory=RunStats)


def rubric_of(config: GenerateConfig, assertions: AssertionJudge | None = None) -> Rubric:
    """How the run judges its attempts (`toolscale.judge.rubric`)."""
    return Rubric(
        config.reward,
        (config.teacher_price_in, config.teacher_price_out),
        assertions,
        config.double_check,
    )


async def run_task(
    config: GenerateConfig,
    domain: str,
    index: int,
    teacher: Teacher,
    pool: SandboxPool,
    economics: Economics,
    store: worlds.WorldStore,
    rubric: Rubric,
) -> ChunkResult:
    result = ChunkResult()
    try:
        if config.tasks_from is not None:
            stored = await source_item(config.tasks_from, domain, index, pool)
            prepared = prepare(stored, economics, config.profiles)
        else:
            settings = (economics, config.profiles)
            prepared = await sample_in(pool, domain, config.seed, index, settings=settings)
        item = await with_oracle(prepared, pool, rubric, config.detours)
    except SandboxError as exc:
        failure = exc.failure
        message = failure.message.removeprefix(f"{domain} task {index}: ")
        error = DomainError(
            domain=domain,
            index=index,
            stage=sample_stage(failure.error),
            message=f"{failure.error}: {message}",
            traceback=failure.traceback,
        )
        result.stats = RunStats.sample_failure(error)
        return result
    result.tasks.append(item.task.to_row(store, item.state_patch))
    drafts = await teacher.attempts(item, pool)
    # An attempt with a crashed call shows a tool's bug, not the model's: it is no data.
    crashes = [c for d in drafts for c in d.crashes]
    drafts = [d for d in drafts if not d.crashes]
    judged = await asyncio.gather(  # concurrently: the judge may wait seconds per attempt
        *(rubric.trace(item.task, d, teacher.name, pool) for d in drafts)
    )
    funnel = Funnel(sampled=1, tool_crashes=len(crashes))
    # An attempt the simulated user broke is neither a positive nor a negative: kept apart, and
    # out of the group whose rewards are normalised together.
    broken = [t for t in judged if t.failure_stage == USER_STAGE]
    for trace in broken:
        funnel = funnel + Funnel.of_attempt(trace.verified, trace.failure_stage)
        result.user_faults.append(trace.to_row())
    rejected: dict[str, int] = {}
    for trace in rubric.group(item.task, [t for t in judged if t.failure_stage != USER_STAGE]):
        funnel = funnel + Funnel.of_attempt(trace.verified, trace.failure_stage)
        if trace.verified:
            result.traces.append(trace.to_row())
        else:
            stage = str(trace.failure_stage)
            rejected[stage] = rejected.get(stage, 0) + 1
            result.rejected.append(trace.to_row())
    model_errors: dict[str, int] = {}
    for draft in drafts:
        for kind, count in draft.model_errors.items():
            model_errors[kind] = model_errors.get(kind, 0) + count
    played = len(judged) - len(broken)  # pass@k counts the attempts the agent could be judged on
    passes = (PassCount(verified=funnel.verified, attempts=played, tasks=1),)
    result.stats = RunStats(
        domains={domain: funnel},
        rejected_by_stage=rejected,
        passes=passes if played else (),
        model_errors=model_errors,
        errors=tuple(crashes),
    )
    return result


def domain_worlds(domain: str, seed: int) -> tuple[worlds.WorldStore, dict[str, Any] | None]:
    """A store holding the domain's world of the run (to_row diffs its tasks against it), and
    that world (None for a domain without one)."""
    store = worlds.WorldStore()
    world = get_domain(domain).world(seed)
    if world is not None:
        store.add(world)
    return store, world
