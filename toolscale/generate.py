"""`toolscale generate`: sample tasks, let a teacher attempt them, verify, write the dataset.

Work is cut into chunks of consecutive task indexes per domain; each chunk is produced in full,
then written (three shards and a marker), so `--resume` skips finished chunks and redoes the
rest, giving exactly the rows of an uninterrupted run. Tasks within a chunk run concurrently;
tool calls execute in the sandbox worker processes.
"""

from __future__ import annotations

import asyncio
import platform
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import datasets
import pyarrow

import toolscale
from toolscale.contract import ToolKind
from toolscale.dataset.output import Output, write_json
from toolscale.errors import ConfigError
from toolscale.metrics import trace_metrics
from toolscale.records import Trace, trace_id
from toolscale.registry import get_domain, resolve
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.tasks import SampledTask
from toolscale.teachers.base import Draft, Teacher
from toolscale.teachers.reference import ReferenceTeacher
from toolscale.tools.experts import EXPERTS
from toolscale.verify import Verdict, verify

STAGES = ("sampled", "attempts", "executed", "grounded", "verified")
Progress = Callable[[dict[str, int]], None]


@dataclass(frozen=True)
class GenerateConfig:
    domains: list[str]
    num_tasks: int
    out: Path
    teacher: str = "reference"
    detours: bool = False
    seed: int = 0
    resume: bool = False
    workers: int = 2
    chunk_size: int = 50
    call_timeout_s: float = 15.0
    # Options that must not change between a run and its --resume.
    RESUME_KEYS = ("domains", "num_tasks", "teacher", "detours", "seed", "chunk_size")

    def resolved(self) -> dict[str, Any]:
        values = asdict(self)
        values["out"] = str(self.out)
        values.pop("resume")
        return values


@dataclass
class ChunkResult:
    tasks: list[dict[str, Any]] = field(default_factory=list)
    traces: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)


def check_config(config: GenerateConfig) -> None:
    if config.num_tasks < 1:
        raise ConfigError(f"--num-tasks must be at least 1 (got {config.num_tasks})")
    if config.chunk_size < 1:
        raise ConfigError(f"--chunk-size must be at least 1 (got {config.chunk_size})")
    if config.workers < 1:
        raise ConfigError(f"--workers must be at least 1 (got {config.workers})")
    if config.teacher != "reference":
        raise ConfigError(f"unknown --teacher {config.teacher!r}; available: reference")


def make_teacher(config: GenerateConfig) -> Teacher:
    return ReferenceTeacher(detours=config.detours)


def plan(config: GenerateConfig) -> list[tuple[str, str, range]]:
    """(chunk name, domain, task indexes): the N tasks split evenly over the domains."""
    chunks = []
    per, extra = divmod(config.num_tasks, len(config.domains))
    for position, domain in enumerate(config.domains):
        count = per + (position < extra)
        for start in range(0, count, config.chunk_size):
            stop = min(count, start + config.chunk_size)
            chunks.append((f"{domain}-{start:06d}", domain, range(start, stop)))
    return chunks


def stage_counts(verdict: Verdict) -> list[str]:
    """The stages an attempt passed, for the yield funnel."""
    order = ["format", "execution", "grounding", "outcome"]
    passed = order if verdict.verified else order[: order.index(verdict.failure_stage or "format")]
    reached = ["attempts"]
    if {"format", "execution"} <= set(passed):
        reached.append("executed")
    if "grounding" in passed:
        reached.append("grounded")
    if verdict.verified:
        reached.append("verified")
    return reached


async def judge(item: SampledTask, draft: Draft, teacher: str, pool: SandboxPool) -> Trace:
    task = item.task
    if draft.failure is not None:
        verdict = Verdict(False, draft.failure[0], [draft.failure[1]])
    else:
        verdict = await verify(task, draft, pool)
    return Trace(
        id=trace_id(task.id, teacher, draft.variant, draft.attempt, draft.messages),
        task_id=task.id,
        domain=task.domain,
        teacher=teacher,
        variant=draft.variant,
        attempt=draft.attempt,
        messages=draft.messages,
        tool_calls=draft.tool_calls,
        final_answer=draft.final_answer,
        final_state_hash=draft.final_state_hash,
        verified=verdict.verified,
        failure_stage=verdict.failure_stage,  # type: ignore[arg-type]
        failure_reasons=verdict.reasons,
        teacher_prompt_tokens=draft.teacher_prompt_tokens,
        teacher_completion_tokens=draft.teacher_completion_tokens,
        teacher_latency_ms=draft.teacher_latency_ms,
        **trace_metrics(task, draft.tool_calls, draft.messages),
    )


async def run_task(
    config: GenerateConfig, domain: str, index: int, teacher: Teacher, pool: SandboxPool
) -> ChunkResult:
    result = ChunkResult()
    try:
        item: SampledTask = await pool.sample(domain, config.seed, index)
    except SandboxError as exc:
        result.counts["sample_failed"] += 1
        result.counts[f"sample_error:{exc}"[:200]] += 1
        return result
    result.counts["sampled"] += 1
    result.tasks.append(item.task.to_row())
    for draft in await teacher.attempts(item, pool):
        trace = await judge(item, draft, teacher.name, pool)
        verdict = Verdict(trace.verified, trace.failure_stage, trace.failure_reasons)
        result.counts.update(stage_counts(verdict))
        if trace.verified:
            result.traces.append(trace.to_row())
        else:
            result.counts[f"rejected:{trace.failure_stage}"] += 1
            result.rejected.append(trace.to_row())
    return result


async def run_chunk(
    config: GenerateConfig, domain: str, indexes: range, teacher: Teacher, pool: SandboxPool
) -> ChunkResult:
    parts = await asyncio.gather(*(run_task(config, domain, i, teacher, pool) for i in indexes))
    merged = ChunkResult()
    for part in parts:
        merged.tasks += part.tasks
        merged.traces += part.traces
        merged.rejected += part.rejected
        merged.counts.update(part.counts)
    return merged


def versions() -> dict[str, str]:
    return {
        "toolscale": toolscale.__version__,
        "python": platform.python_version(),
        "datasets": datasets.__version__,
        "pyarrow": pyarrow.__version__,
    }


def expert_backends(domains: list[str]) -> dict[str, Any]:
    """What answers the MODEL tools: no endpoint can be configured yet, so simulated experts."""
    uses = any(
        spec.kind is ToolKind.MODEL
        for d in domains
        for spec in get_domain(d).toolkit.specs().values()
    )
    if not uses:
        return {}
    return {
        alias: {"backend": "simulated", "accuracy": e.accuracy, **e.price.as_dict()}
        for alias, e in EXPERTS.items()
    }


def check_resume(output: Output, config: GenerateConfig) -> None:
    import json

    path = output.root / "run.json"
    if not path.exists():
        return
    previous = json.loads(path.read_text())["config"]
    current = config.resolved()
    for key in GenerateConfig.RESUME_KEYS:
        if previous.get(key) != current[key]:
            raise ConfigError(
                f"{output.root} was generated with {key}={previous.get(key)!r}, not "
                f"{current[key]!r}; resume with the same options or choose another --out"
            )


async def _run(
    config: GenerateConfig, output: Output, on_progress: Progress | None
) -> Counter[str]:
    teacher = make_teacher(config)
    totals: Counter[str] = Counter()
    async with SandboxPool(config.workers, config.call_timeout_s) as pool:
        for chunk, domain, indexes in plan(config):
            done = output.chunk_done(chunk)
            if done is None:
                result = await run_chunk(config, domain, indexes, teacher, pool)
                for name in ("tasks", "traces", "rejected"):
                    output.write_shard(name, chunk, getattr(result, name))
                done = dict(result.counts)
                output.mark_done(chunk, done)
            totals.update(done)
            totals.update({f"{domain}:{k}": v for k, v in done.items() if k in STAGES})
            if on_progress:
                on_progress(dict(totals))
        totals["worker_restarts"] = pool.restarts
    return totals


def run_json(config: GenerateConfig, totals: Counter[str], status: str) -> dict[str, Any]:
    return {
        "status": status,
        "config": config.resolved(),
        "counts": {k: totals.get(k, 0) for k in STAGES},
        "rejected_by_stage": {
            k.split(":", 1)[1]: v for k, v in sorted(totals.items()) if k.startswith("rejected:")
        },
        "per_domain": {d: {k: totals.get(f"{d}:{k}", 0) for k in STAGES} for d in config.domains},
        "sample_failures": totals.get("sample_failed", 0),
        "worker_restarts": totals.get("worker_restarts", 0),
        "experts": expert_backends(config.domains),
        "isolation": "subprocess with rlimits (no namespace isolation yet)",
        "versions": versions(),
    }


def generate(config: GenerateConfig, on_progress: Progress | None = None) -> dict[str, Any]:
    """Run generation to completion; returns the run summary also written to OUT/run.json."""
    check_config(config)
    config = GenerateConfig(**{**asdict(config), "domains": resolve(",".join(config.domains))})
    output = Output(config.out)
    output.prepare(config.resume)
    check_resume(output, config)
    write_json(config.out / "run.json", run_json(config, Counter(), "running"))
    totals = asyncio.run(_run(config, output, on_progress))
    summary = run_json(config, totals, "complete")
    output.write_readme(f"toolscale dataset: {', '.join(config.domains)}")
    write_json(config.out / "run.json", summary)
    return summary
