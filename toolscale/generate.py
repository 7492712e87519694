"""`toolscale generate`: sample tasks, let a teacher attempt them, verify, write the dataset.

Work is cut into chunks of consecutive task indexes per domain; each chunk is produced in full,
then written (three shards and a marker), so `--resume` skips finished chunks and redoes the
rest, giving exactly the rows of an uninterrupted run. Tasks within a chunk run concurrently;
tool calls execute in the sandbox worker processes.
"""

from __future__ import annotations

import asyncio
import json
import platform
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import datasets
import pyarrow

import toolscale
from toolscale.contract import ToolKind, ToolPrice
from toolscale.dataset.output import Output, write_json
from toolscale.errors import ConfigError
from toolscale.labels import group_labels, trace_labels
from toolscale.llm.cache import RequestCache
from toolscale.llm.ledger import BudgetExhausted, StopRun
from toolscale.metrics import trace_metrics
from toolscale.preferences import DEFAULT_SPREAD, check_spread
from toolscale.prices import DEFAULT_SCHEDULES, check_dropout, parse_schedules, schedule_dump
from toolscale.provenance import source_commit
from toolscale.records import Trace, trace_id
from toolscale.registry import get_domain, resolve
from toolscale.reward_stats import reward_report
from toolscale.rewards import RewardConfig
from toolscale.sandbox.isolation import isolation_level
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.tasks import Economics, SampledTask, prepare
from toolscale.teachers.base import Draft, Teacher
from toolscale.teachers.factory import check_teacher, open_teacher
from toolscale.teachers.options import TeacherOptions
from toolscale.teachers.report import attempt_counts, attempt_report
from toolscale.tools.expert_endpoints import expert_environment, load_endpoints
from toolscale.tools.experts import EXPERTS
from toolscale.verify import Verdict, verify

CACHE_DIR = Path(".toolscale", "cache")  # under OUT, unless --cache-dir
STAGES = ("sampled", "attempts", "executed", "grounded", "verified")
Progress = Callable[[dict[str, int]], None]


@dataclass(frozen=True)
class GenerateConfig(TeacherOptions):
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
    # Preference profiles drawn per task, with relative weights (toolscale.preferences).
    profiles: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_SPREAD))
    reward: RewardConfig = field(default_factory=RewardConfig)
    # Price schedules (names or YAML paths) each task draws one of, and the tool dropout.
    price_schedules: list[str] = field(default_factory=lambda: list(DEFAULT_SCHEDULES))
    tool_dropout: float = 0.0
    # Options that must not change between a run and its --resume.
    RESUME_KEYS = (
        "domains",
        "num_tasks",
        "teacher",
        "detours",
        "seed",
        "chunk_size",
        "profiles",
        "reward",
        "schedules",
        "tool_dropout",
        *TeacherOptions.TEACHER_RESUME_KEYS,
    )

    def resolved(self) -> dict[str, Any]:
        values = asdict(self)
        values["out"] = str(self.out)
        for key in ("cache_dir", "experts"):
            values[key] = None if values[key] is None else str(values[key])
        values["temperature"] = self.effective_temperature()
        values["concurrency"] = self.effective_concurrency(self.teacher == "local")
        values["request_timeout_s"] = self.effective_timeout_s(self.teacher == "local")
        # The schedules in full, so that `validate` rebuilds every price table from run.json.
        values["schedules"] = schedule_dump(parse_schedules(",".join(self.price_schedules)))
        values["model_prices"] = {a: p.as_dict() for a, p in self.economics().models.items()}
        values.pop("resume")
        return values

    def economics(self) -> Economics:
        models: dict[str, ToolPrice] = {}
        for alias, endpoint in (load_endpoints(self.experts) if self.experts else {}).items():
            models[alias] = ToolPrice(
                input_per_m=endpoint.input_per_m, output_per_m=endpoint.output_per_m
            )
        return Economics(
            tuple(parse_schedules(",".join(self.price_schedules))), self.tool_dropout, models
        )


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
    check_teacher(config.teacher, config)
    check_spread(config.profiles)
    parse_schedules(",".join(config.price_schedules))
    check_dropout(config.tool_dropout)
    if config.teacher != "reference":  # an unusable request cache stops us before OUT is written
        cache = RequestCache(config.cache_dir or config.out / CACHE_DIR)
        cache.check()
        cache.close()


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
    stage = verdict.failure_stage or "format"
    # A teacher that failed before producing an attempt passed no stage.
    passed = order if verdict.verified else order[: order.index(stage) if stage in order else 0]
    reached = ["attempts"]
    if {"format", "execution"} <= set(passed):
        reached.append("executed")
    if "grounding" in passed:
        reached.append("grounded")
    if verdict.verified:
        reached.append("verified")
    return reached


async def judge(
    item: SampledTask, draft: Draft, teacher: str, pool: SandboxPool, config: GenerateConfig
) -> Trace:
    task = item.task
    if draft.failure is not None:
        verdict = Verdict(False, draft.failure[0], [draft.failure[1]])
    else:
        verdict = await verify(task, draft, pool)
    metrics = trace_metrics(task, draft)
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
        **metrics,
        **trace_labels(
            task,
            draft,
            metrics,
            verdict.verified,
            config.reward,
            (config.teacher_price_in, config.teacher_price_out),
        ),
    )


async def run_task(
    config: GenerateConfig,
    domain: str,
    index: int,
    teacher: Teacher,
    pool: SandboxPool,
    economics: Economics,
) -> ChunkResult:
    result = ChunkResult()
    try:
        item = prepare(await pool.sample(domain, config.seed, index), economics, config.profiles)
    except SandboxError as exc:
        result.counts["sample_failed"] += 1
        result.counts[f"sample_error:{exc}"[:200]] += 1
        return result
    result.counts["sampled"] += 1
    result.tasks.append(item.task.to_row())
    drafts = await teacher.attempts(item, pool)
    judged = [await judge(item, d, teacher.name, pool, config) for d in drafts]
    result.counts.update(attempt_counts(drafts, judged))
    for trace in group_labels(item.task, judged):
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
    economics = config.economics()
    parts = await asyncio.gather(
        *(run_task(config, domain, i, teacher, pool, economics) for i in indexes)
    )
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
        "toolscale_commit": source_commit(),
    }


def expert_backends(domains: list[str], experts: Path | None = None) -> dict[str, Any]:
    """What answers the MODEL tools: a configured endpoint, else a simulated expert."""
    uses = any(
        spec.kind is ToolKind.MODEL
        for d in domains
        for spec in get_domain(d).toolkit.specs().values()
    )
    if not uses:
        return {}
    backends: dict[str, Any] = {
        alias: {
            "backend": "simulated",
            "accuracy": e.accuracy,
            "completion_tokens": list(e.tokens),
            "prices": "from each task's price schedule",
        }
        for alias, e in EXPERTS.items()
    }
    for alias, endpoint in (load_endpoints(experts) if experts else {}).items():
        backends[alias] = {"backend": "endpoint", **endpoint.model_dump()}
    return backends


def check_resume(output: Output, config: GenerateConfig) -> None:
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


@dataclass
class RunState:
    totals: Counter[str] = field(default_factory=Counter)
    status: str = "complete"
    stop_reason: str = ""
    endpoints: dict[str, Any] = field(default_factory=dict)


async def _run(
    config: GenerateConfig,
    output: Output,
    on_progress: Progress | None,
    local: tuple[str, str] | None = None,
) -> RunState:
    """Run the chunks, several at once so that `concurrency` episodes can be in flight; each
    chunk is written when it is complete. A StopRun (budget, endpoint refusal) cancels the
    unfinished chunks, which a --resume redoes (their requests come from the cache)."""
    state = RunState()
    totals = state.totals
    cache_dir = output.root / CACHE_DIR
    run = open_teacher(
        config.teacher, config, detours=config.detours, cache_dir=cache_dir, local=local
    )
    in_flight = config.effective_concurrency(local is not None)
    # Enough chunks to keep `in_flight` episodes busy, plus one: the next chunk starts while the
    # last episodes of the others finish, so the teacher's slots never drain between chunks.
    window = asyncio.Semaphore(-(-in_flight // config.chunk_size) + 1)

    async def one(chunk: str, domain: str, indexes: range, pool: SandboxPool) -> None:
        async with window:
            done = output.chunk_done(chunk)
            if done is None:
                result = await run_chunk(config, domain, indexes, run.teacher, pool)
                for name in ("tasks", "traces", "rejected"):
                    output.write_shard(name, chunk, getattr(result, name))
                done = dict(result.counts)
                output.mark_done(chunk, done)
            totals.update(done)
            totals.update({f"{domain}:{k}": v for k, v in done.items() if k in STAGES})
            if on_progress:
                on_progress(dict(totals))

    try:
        with expert_environment(config.experts, cache_dir / "experts"):
            async with SandboxPool(config.workers, config.call_timeout_s) as pool:
                try:
                    async with asyncio.TaskGroup() as group:
                        for chunk, domain, indexes in plan(config):
                            group.create_task(one(chunk, domain, indexes, pool))
                except* StopRun as stopped:
                    stop = stopped.exceptions[0]
                    state.status = (
                        "budget_exhausted" if isinstance(stop, BudgetExhausted) else "stopped"
                    )
                    state.stop_reason = str(stop)
                totals["worker_restarts"] = pool.restarts
    finally:
        await run.aclose()
        state.endpoints = run.summary()
    return state


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
        "experts": expert_backends(config.domains, config.experts),
        "attempts": attempt_report(totals),
        "isolation": isolation_level(),
        "versions": versions(),
    }


def generate(config: GenerateConfig, on_progress: Progress | None = None) -> dict[str, Any]:
    """Run generation to completion; returns the run summary also written to OUT/run.json."""
    check_config(config)
    config = replace(config, domains=resolve(",".join(config.domains)))
    output = Output(config.out)
    output.prepare(config.resume)
    check_resume(output, config)
    write_json(config.out / "run.json", run_json(config, Counter(), "running"))
    try:
        with local_endpoint(config) as local:
            state = asyncio.run(_run(config, output, on_progress, local))
    except KeyboardInterrupt:
        write_json(config.out / "run.json", run_json(config, Counter(), "interrupted"))
        raise
    summary = {
        **run_json(config, state.totals, state.status),
        **reward_report(output),
        "endpoints": state.endpoints,
    }
    if state.stop_reason:
        summary["stop_reason"] = state.stop_reason
    output.write_readme(f"toolscale dataset: {', '.join(config.domains)}")
    write_json(config.out / "run.json", summary)
    if output.row_count("tasks"):
        from toolscale.card import card  # matplotlib and jinja2: only once there is a card

        card(config.out)  # the full data card replaces the minimal README above
    if state.status == "stopped":
        raise ConfigError(f"{state.stop_reason}; finished chunks are kept, fix it and --resume")
    return summary


@contextmanager
def local_endpoint(config: GenerateConfig) -> Iterator[tuple[str, str] | None]:
    """For `--teacher local`: a started local server's (base_url, model), stopped on leaving."""
    if config.teacher != "local":
        yield None
        return
    from toolscale.local.server import serve_local_model

    with serve_local_model(config.model) as server:
        yield server.base_url, server.model
