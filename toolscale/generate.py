"""`toolscale generate`: sample tasks, let a teacher attempt them, verify, write the dataset.

Work is cut into chunks of consecutive task indexes per domain; each chunk is produced in full,
then written (three shards and a marker holding its statistics), so `--resume` skips finished
chunks and redoes the rest, giving exactly the rows of an uninterrupted run. Tasks within a chunk
run concurrently; tool calls execute in the sandbox worker processes.

Domain bugs fail the run loudly, after everything is written: a domain whose every sample fails,
more than `max_sample_failure_share` of the samples failing, or any crashed tool call (a bug in a
tool, never negative data: the attempt is held back from `rejected`) raise RunFailed, with the
first errors and their tracebacks in run.json. `--resume` redoes the chunks whose marker records
such an error, so a fixed domain fills them in.

`--shard I/N` produces only shard I's chunks of the plan (`toolscale.shard`); `toolscale merge`
puts the N outputs together. `--resume` first reads back the shards of every chunk it will skip,
so a half-copied file or a full disk is one error line naming the file before anything runs.
"""

from __future__ import annotations

import asyncio
import json
import platform
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

import datasets
import pyarrow

import toolscale
from toolscale import worlds
from toolscale.contract import ToolKind, ToolPrice
from toolscale.dataset.features import CONFIGS
from toolscale.dataset.output import Output, write_json
from toolscale.errors import ConfigError
from toolscale.labels import group_labels, trace_labels
from toolscale.llm.cache import RequestCache
from toolscale.llm.ledger import BudgetExhausted, StopRun
from toolscale.metrics import trace_metrics
from toolscale.oracle import with_oracle
from toolscale.preferences import DEFAULT_SPREAD, check_spread
from toolscale.prices import DEFAULT_SCHEDULES, check_dropout, parse_schedules, schedule_dump
from toolscale.provenance import source_commit
from toolscale.ray_executor import check_ray, connect, leave, run_on_ray
from toolscale.records import Trace, trace_id
from toolscale.registry import get_domain, resolve
from toolscale.reward_stats import reward_report
from toolscale.rewards import RewardConfig
from toolscale.run_stats import DomainError, Funnel, PassCount, RunStats, sample_stage
from toolscale.sandbox.isolation import isolation_level
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.schema import SchemaError
from toolscale.shard import Shard
from toolscale.synthesis.source import source_item, source_tasks, with_source
from toolscale.tasks import Economics, SampledTask, prepare
from toolscale.tau2.judge import AssertionJudge, check_judge, open_judge
from toolscale.tau2.report import tau2_checks
from toolscale.tau2.spec import file_safe
from toolscale.teachers.base import Draft, Teacher
from toolscale.teachers.factory import check_teacher, open_teacher
from toolscale.teachers.options import TeacherOptions
from toolscale.teachers.report import attempt_report
from toolscale.tools.expert_endpoints import expert_environment, load_endpoints
from toolscale.tools.experts import EXPERTS
from toolscale.verify import Verdict, verify

CACHE_DIR = Path(".toolscale", "cache")  # under OUT, unless --cache-dir
PROGRESS_EVERY_S = 0.2  # finished tasks report at most this often; finished chunks always


class Progress(Protocol):
    """Called with the run's statistics so far (finished tasks of unfinished chunks included)
    and, when known, its endpoints' counts (`TeacherRun.summary()`)."""

    def __call__(self, stats: RunStats, endpoints: dict[str, Any] | None = None) -> None: ...


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
    # The share of samples that may fail (a domain bug each) before the run fails.
    max_sample_failure_share: float = 0.1
    # This job's part of the run (None: all of it); see toolscale.shard.
    shard: Shard | None = None
    # Play the accepted tasks of a `toolscale synthesize` output instead of sampling.
    tasks_from: Path | None = None
    # Where the chunks run: "local" (this process) or "ray" (toolscale.ray_executor). Neither
    # changes a row, so neither is a resume key.
    executor: str = "local"
    ray_address: str | None = None
    # The LLM judge of tau2's nl_assertions (toolscale.tau2.judge); unset: not judged. The URL
    # defaults to the teacher's endpoints, the key variable to api_key_env.
    judge_base_url: str | None = None
    judge_model: str | None = None
    judge_api_key_env: str | None = None
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
        "shard",
        "tasks_from",
        "judge_model",
        *TeacherOptions.TEACHER_RESUME_KEYS,
    )

    def resolved(self) -> dict[str, Any]:
        values = asdict(self)
        values["out"] = str(self.out)
        values["shard"] = None if self.shard is None else str(self.shard)
        for key in ("cache_dir", "experts", "tasks_from"):
            values[key] = None if values[key] is None else str(values[key])
        values["temperature"] = self.effective_temperature()
        values["concurrency"] = self.effective_concurrency(self.teacher == "local")
        values["request_timeout_s"] = self.effective_timeout_s(self.teacher == "local")
        local = self.teacher == "local"
        values["max_tokens"] = self.effective_max_tokens(local)
        values["endpoint_concurrency"] = self.effective_endpoint_concurrency(local)
        values["base_url"] = list(self.base_urls()) or None
        # The schedules in full, so that `validate` rebuilds every price table from run.json.
        values["schedules"] = schedule_dump(self.economics.schedules)
        values["model_prices"] = {a: p.as_dict() for a, p in self.economics.models.items()}
        values.pop("resume")
        return values

    @cached_property
    def economics(self) -> Economics:
        """The run's price settings, read once (schedule files and the experts file)."""
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
    worlds: list[dict[str, Any]] = field(default_factory=list)
    stats: RunStats = field(default_factory=RunStats)


def check_config(config: GenerateConfig) -> None:
    if config.num_tasks < 1:
        raise ConfigError(f"--num-tasks must be at least 1 (got {config.num_tasks})")
    if config.chunk_size < 1:
        raise ConfigError(f"--chunk-size must be at least 1 (got {config.chunk_size})")
    if config.workers < 1:
        raise ConfigError(f"--workers must be at least 1 (got {config.workers})")
    if not 0 <= config.max_sample_failure_share <= 1:
        raise ConfigError(
            "--max-sample-failure-share must be between 0 and 1 "
            f"(got {config.max_sample_failure_share})"
        )
    check_teacher(config.teacher, config)
    check_judge(config)
    check_ray(config)
    check_spread(config.profiles)
    parse_schedules(",".join(config.price_schedules))
    check_dropout(config.tool_dropout)
    # An unusable request cache stops us before OUT is written.
    if config.teacher != "reference" or config.judge_model:
        cache = RequestCache(config.cache_dir or config.out / CACHE_DIR)
        cache.check()
        cache.close()


def plan(config: GenerateConfig) -> list[tuple[str, str, range]]:
    """(chunk name, domain, task indexes): the N tasks split evenly over the domains, a domain
    with fewer tasks than its share (`domain_caps`) leaving the rest to the others; with a shard,
    only that shard's chunks."""
    chunks = []
    counts = split(config.num_tasks, domain_caps(config))
    for domain, count in zip(config.domains, counts, strict=True):
        for start in range(0, count, config.chunk_size):
            stop = min(count, start + config.chunk_size)
            chunks.append((f"{file_safe(domain)}-{start:06d}", domain, range(start, stop)))
    return chunks if config.shard is None else config.shard.pick(chunks)


def domain_caps(config: GenerateConfig) -> list[int | None]:
    """The most tasks each domain can give (None: any number): a tau2 domain the tasks of its
    task file (toolscale.tau2), a domain read from `--tasks-from` the tasks stored there."""
    caps: list[int | None] = []
    for domain in config.domains:
        cap = len(get_domain(domain).templates) if domain.startswith("tau2:") else None
        if config.tasks_from is not None:
            stored = len(source_tasks(config.tasks_from, domain))
            cap = stored if cap is None else min(cap, stored)
        caps.append(cap)
    return caps


def split(total: int, caps: list[int | None]) -> list[int]:
    """`total` over the domains as evenly as their caps allow, earlier domains taking the
    remainder; what a capped domain cannot take goes to the others in turn. With no cap reached
    it is the plain even split. Example: 164 over caps [114, 50] is [114, 50]."""
    counts = [0] * len(caps)
    open_ = list(range(len(caps)))
    remaining = total
    while remaining and open_:
        per, extra = divmod(remaining, len(open_))
        still_open = []
        for position, i in enumerate(open_):
            cap = caps[i]
            take = per + (position < extra)
            if cap is not None:
                take = min(take, cap - counts[i])
            counts[i] += take
            remaining -= take
            if cap is None or counts[i] < cap:
                still_open.append(i)
        if still_open == open_:  # every domain took its whole share
            break
        open_ = still_open
    return counts


def check_shard(config: GenerateConfig) -> None:
    """A shard gets at least one chunk (more jobs than chunks is a mistake in the job count)."""
    if config.shard is None:
        return
    chunks = len(plan(replace(config, shard=None)))
    if config.shard.index >= chunks:
        raise ConfigError(
            f"--shard {config.shard} gets no task: the run has only {chunks} chunks of "
            f"--chunk-size {config.chunk_size}; run at most {chunks} shards or lower --chunk-size"
        )


def planned_tasks(config: GenerateConfig) -> int:
    """How many tasks this job samples (all N, or its shard's part)."""
    resolved = replace(config, domains=resolve(",".join(config.domains)))
    return sum(len(indexes) for _, _, indexes in plan(resolved))


def check_schemas(domains: list[str]) -> None:
    """Every tool schema of the run's domains derives (a parameter without an `Args:` entry in its
    tool's docstring does not): checked before anything is written."""
    for name in domains:
        try:
            get_domain(name).toolkit.schemas()
        except SchemaError as exc:
            raise ConfigError(
                f"domain {name!r}: {exc}; give every parameter a line under Args: in its tool's "
                f"docstring (toolscale check-domain {name} lists every problem)"
            ) from None


async def judge(
    item: SampledTask,
    draft: Draft,
    teacher: str,
    pool: SandboxPool,
    config: GenerateConfig,
    assertion_judge: AssertionJudge | None = None,
) -> Trace:
    """The attempt as a trace with its verdict: `verify`'s, then, for an attempt it verifies, the
    NL-assertion judge's when the run has one (tau2 tasks whose reward basis needs it)."""
    task = item.task
    if draft.failure is not None:
        verdict = Verdict(False, draft.failure[0], [draft.failure[1]])
    else:
        verdict = await verify(task, draft, pool)
        if verdict.verified and assertion_judge is not None:
            verdict = await assertion_judge.verdict(task, draft.messages)
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
    assertion_judge: AssertionJudge | None = None,
) -> ChunkResult:
    result = ChunkResult()
    try:
        sampled = (
            await source_item(config.tasks_from, domain, index, pool)
            if config.tasks_from is not None
            else await pool.sample(domain, config.seed, index)
        )
        item = await with_oracle(prepare(sampled, economics, config.profiles), pool, config.reward)
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
    result.tasks.append(item.task.to_row())
    drafts = await teacher.attempts(item, pool)
    # An attempt with a crashed call shows a tool's bug, not the model's: it is no data.
    crashes = [c for d in drafts for c in d.crashes]
    drafts = [d for d in drafts if not d.crashes]
    judged = await asyncio.gather(  # concurrently: the judge may wait seconds per attempt
        *(judge(item, d, teacher.name, pool, config, assertion_judge) for d in drafts)
    )
    funnel = Funnel(sampled=1, tool_crashes=len(crashes))
    rejected: dict[str, int] = {}
    for trace in group_labels(item.task, judged):
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
    passes = (PassCount(verified=funnel.verified, attempts=len(judged), tasks=1),)
    result.stats = RunStats(
        domains={domain: funnel},
        rejected_by_stage=rejected,
        passes=passes if judged else (),
        model_errors=model_errors,
        errors=tuple(crashes),
    )
    return result


def first_chunk(config: GenerateConfig, domain: str) -> int:
    """The first task index of `domain` in this job's plan: its chunk writes the domain's world
    (once per job; `merge` keeps one row per world id)."""
    return min(indexes.start for _, d, indexes in plan(config) if d == domain)


async def run_chunk(
    config: GenerateConfig,
    domain: str,
    indexes: range,
    teacher: Teacher,
    pool: SandboxPool,
    on_task: Callable[[RunStats], None] | None = None,
    assertion_judge: AssertionJudge | None = None,
) -> ChunkResult:
    """Play a chunk's tasks concurrently; `on_task` gets each task's statistics as it ends."""
    economics = config.economics

    async def played(index: int) -> ChunkResult:
        part = await run_task(config, domain, index, teacher, pool, economics, assertion_judge)
        if on_task is not None:
            on_task(part.stats)
        return part

    world = get_domain(domain).world(config.seed)
    if world is not None:
        worlds.register(world)  # to_row diffs tasks against it
    parts = await asyncio.gather(*(played(i) for i in indexes))
    merged = ChunkResult()
    if world is not None and first_chunk(config, domain) == indexes.start:
        version = get_domain(domain).version
        merged.worlds.append(worlds.row(domain, version, config.seed, world))
    for part in parts:
        merged.tasks += part.tasks
        merged.traces += part.traces
        merged.rejected += part.rejected
    merged.stats = RunStats.total(p.stats for p in parts)
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
            "role": e.role,
            "accuracy_by_kind": {k: list(v) for k, v in e.accuracy.items()},
            "reasoning_tokens": {k: list(v) for k, v in e.reasoning.items()},
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


def finished(output: Output, chunk: str) -> RunStats | None:
    """A chunk's statistics when it is done; None when it must be (re)produced: no marker, one
    this version cannot read, or one recording a domain error (a fixed domain fills it in)."""
    done = RunStats.from_marker(output.chunk_done(chunk))
    return None if done is None or done.errors else done


def check_finished(output: Output, config: GenerateConfig) -> None:
    """Every shard of every chunk that --resume will skip reads back (ConfigError naming the
    file otherwise), so a bad file stops the run before it plays anything."""
    for chunk, _, _ in plan(config):
        if finished(output, chunk) is not None:
            for name in CONFIGS:
                output.read_shard(name, chunk)


def write_chunk(output: Output, chunk: str, result: ChunkResult) -> None:
    """A chunk's shards, then its marker: only then is the chunk done."""
    for name in CONFIGS:
        output.write_shard(name, chunk, getattr(result, name))
    output.mark_done(chunk, result.stats.marker())


@dataclass
class RunState:
    stats: RunStats = field(default_factory=RunStats)
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
    cache_dir = output.root / CACHE_DIR
    run = open_teacher(
        config.teacher, config, detours=config.detours, cache_dir=cache_dir, local=local
    )
    assertion_judge = open_judge(config, run, cache_dir)
    in_flight = config.effective_concurrency(local is not None)
    # Enough chunks to keep `in_flight` episodes busy, plus one: the next chunk starts while the
    # last episodes of the others finish, so the teacher's slots never drain between chunks.
    window = asyncio.Semaphore(-(-in_flight // config.chunk_size) + 1)
    partial: dict[str, RunStats] = {}  # finished tasks of chunks not yet written
    last_report = [0.0]

    def report(every_s: float = 0.0) -> None:
        now = time.monotonic()
        if on_progress and now - last_report[0] >= every_s:
            last_report[0] = now
            on_progress(RunStats.total([state.stats, *partial.values()]), run.summary())

    async def one(chunk: str, domain: str, indexes: range, pool: SandboxPool) -> None:
        def task_done(stats: RunStats) -> None:
            partial[chunk] = partial.get(chunk, RunStats()) + stats
            report(PROGRESS_EVERY_S)

        async with window:
            done = finished(output, chunk)
            if done is None:
                result = await run_chunk(
                    config, domain, indexes, run.teacher, pool, task_done, assertion_judge
                )
                write_chunk(output, chunk, result)
                done = result.stats
            partial.pop(chunk, None)
            state.stats = state.stats + done
            report()

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
                state.stats = state.stats + RunStats(worker_restarts=pool.restarts)
    finally:
        await run.aclose()
        state.endpoints = run.summary()
    return state


def run_json(config: GenerateConfig, stats: RunStats, status: str) -> dict[str, Any]:
    return {
        "status": status,
        "config": config.resolved(),
        **stats.report(config.domains),
        "experts": expert_backends(config.domains, config.experts),
        **tau2_checks(config.domains, config.judge_model),
        "attempts": attempt_report(stats.passes, stats.model_errors),
        "isolation": isolation_level(),
        "versions": versions(),
    }


class RunFailed(Exception):
    """The run met domain bugs (see `failures`); everything is written, and `--resume` after
    fixing the domain redoes the chunks that met them. `summary` is run.json's content."""

    def __init__(self, failures: list[str], summary: dict[str, Any]) -> None:
        super().__init__("; ".join(failures))
        self.failures = failures
        self.summary = summary


def failures(config: GenerateConfig, stats: RunStats, complete: bool) -> list[str]:
    """Why the run fails, one sentence each saying what to do: a domain none of whose samples
    worked (only judged on a complete run), too many failed samples, a crashed tool call."""
    found = []
    fix = "fix the domain (toolscale check-domain {}), then run generate --resume"
    first = {e.domain: e for e in reversed(stats.errors)}
    empty = [
        d for d in config.domains if stats.funnel(d).sample_failed and not stats.funnel(d).sampled
    ]
    for name in empty if complete else []:
        error = first[name]
        found.append(
            f"domain {name!r} yielded no task: all {stats.funnel(name).sample_failed} samples "
            f"failed (first: task {error.index}, {error.stage}: {error.message}); "
            f"{fix.format(name)}"
        )
    total = stats.funnel()
    tried = total.sampled + total.sample_failed
    failing = [d for d in config.domains if stats.funnel(d).sample_failed and d not in empty]
    if failing and total.sample_failed > config.max_sample_failure_share * tried:
        found.append(
            f"{total.sample_failed} of {tried} samples failed, more than "
            f"--max-sample-failure-share {config.max_sample_failure_share:g} (in "
            f"{', '.join(failing)}); {fix.format(failing[0])}"
        )
    if total.tool_crashes:
        crash = next(e for e in stats.errors if e.stage == "tool")
        found.append(
            f"{total.tool_crashes} tool calls crashed (first: {crash.line()}); a crash is a bug "
            "in the tool, never training data: raise ToolError for what the caller did wrong, "
            "fix the rest, then run generate --resume"
        )
    return found


def generate(config: GenerateConfig, on_progress: Progress | None = None) -> dict[str, Any]:
    """Run generation to completion; returns the run summary also written to OUT/run.json.
    Raises RunFailed (after writing everything) when the run met domain bugs."""
    check_config(config)
    config = replace(config, domains=resolve(",".join(config.domains)))
    if config.tasks_from is not None:
        config = with_source(config)
    check_shard(config)
    check_schemas(config.domains)
    joined = connect(config.ray_address) if config.executor == "ray" else False
    try:
        return _generate(config, on_progress)
    finally:
        leave(joined)


def _generate(config: GenerateConfig, on_progress: Progress | None) -> dict[str, Any]:
    output = Output(config.out)
    output.prepare(config.resume)
    check_resume(output, config)
    check_finished(output, config)
    write_json(config.out / "run.json", run_json(config, RunStats(), "running"))
    try:
        if config.executor == "ray":
            state = RunState()
            state.stats, state.status, state.stop_reason, state.endpoints = run_on_ray(
                config, output, plan(config), finished, on_progress
            )
        else:
            with local_endpoint(config) as local:
                state = asyncio.run(_run(config, output, on_progress, local))
    except KeyboardInterrupt:
        write_json(config.out / "run.json", run_json(config, RunStats(), "interrupted"))
        raise
    problems = failures(config, state.stats, state.status == "complete")
    status = "failed" if problems and state.status == "complete" else state.status
    summary = {
        **run_json(config, state.stats, status),
        **reward_report(output),
        "endpoints": state.endpoints,
    }
    if state.stop_reason:
        summary["stop_reason"] = state.stop_reason
    if problems:
        summary["failures"] = problems
    output.write_readme(f"toolscale dataset: {', '.join(config.domains)}")
    write_json(config.out / "run.json", summary)
    if output.row_count("tasks"):
        from toolscale.card import card  # matplotlib and jinja2: only once there is a card

        card(config.out)  # the full data card replaces the minimal README above
    if state.status == "stopped":
        raise ConfigError(f"{state.stop_reason}; finished chunks are kept, fix it and --resume")
    if problems:
        raise RunFailed(problems, summary)
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
