"""`toolscale generate`: sample tasks, let a teacher attempt them, verify, write the dataset.

Work is cut into chunks of consecutive task indexes per domain; each chunk is produced in full,
then written (three shards and a marker holding its statistics), so `--resume` skips finished
chunks and redoes the rest, giving exactly the rows of an uninterrupted run. Tasks within a chunk
run concurrently; tool calls execute in the sandbox worker processes.

Domain bugs fail the run loudly, after everything is written: a domain whose every sample fails,
more than `max_sample_failure_share` of the samples failing, or any crashed tool call (a bug in a
tool, never negative data: the attempt is held back from `rejected`) raise RunFailed, with the
first errors and their tracebacks in run.json. `--resume` redoes the chunks whose marker records
such an error, so a fixed domain fills them in. A marker also holds the fingerprint of its
domain's code: `--resume` refuses chunks that other code of their domain made (they would mix old
and new tasks), unless `--redo-changed`, which redoes them (`toolscale.pipeline.chunk`).

`--shard I/N` produces only shard I's chunks of the plan (`toolscale.config.shard`);
`toolscale merge` puts the N outputs together. `--resume` first reads back the shards of every
chunk it will skip, so a half-copied file or a full disk is one error line naming the file before
anything runs.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from toolscale.config.generate import CACHE_DIR, GenerateConfig
from toolscale.config.teacher_checks import check_teacher
from toolscale.core.contract import ToolKind
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain, resolve
from toolscale.core.schema import SchemaError
from toolscale.economics.preferences import check_spread
from toolscale.economics.prices import check_dropout, parse_schedules
from toolscale.llm.cache import RequestCache
from toolscale.llm.ledger import BudgetExhausted, StopRun
from toolscale.llm.probe import probe
from toolscale.pipeline.chunk import check_code, check_finished, finished, run_chunk, write_chunk
from toolscale.pipeline.driver import GENERATE, STOP_REASON, Command, local_endpoint, open_output
from toolscale.pipeline.generate_options import generate_config
from toolscale.pipeline.plan import check_shard, plan
from toolscale.pipeline.ray import check_ray, connect, leave, run_on_ray
from toolscale.play.factory import TeacherRun, open_teacher
from toolscale.sample.stored_source import with_source
from toolscale.sandbox.guard import check_isolation
from toolscale.sandbox.pool import SandboxPool
from toolscale.stats.attempts import attempt_report
from toolscale.stats.reward_report import reward_report
from toolscale.stats.run_stats import RunStats
from toolscale.tau2.nl_assertions import check_judge, open_judge
from toolscale.tau2.report import tau2_checks
from toolscale.tools.expert_endpoints import expert_environment, load_endpoints
from toolscale.tools.experts import EXPERTS
from toolscale.write.output import Output, write_json

PROGRESS_EVERY_S = 0.2  # finished tasks report at most this often; finished chunks always


class Progress(Protocol):
    """Called with the run's statistics so far (finished tasks of unfinished chunks included)
    and, when known, its endpoints' counts (`TeacherRun.summary()`)."""

    def __call__(self, stats: RunStats, endpoints: dict[str, Any] | None = None) -> None: ...


def check_generate(config: GenerateConfig) -> None:
    if config.num_tasks < 1:
        raise ConfigError(f"--num-tasks must be at least 1 (got {config.num_tasks})")
    if config.chunk_size < 1:
        raise ConfigError(f"--chunk-size must be at least 1 (got {config.chunk_size})")
    if config.workers < 1:
        raise ConfigError(f"--workers must be at least 1 (got {config.workers})")
    if not config.call_timeout_s > 0:
        raise ConfigError(
            f"--call-timeout must be a positive number of seconds (got {config.call_timeout_s})"
        )
    if config.redo_changed and not config.resume:
        raise ConfigError("--redo-changed redoes chunks of an output; add --resume and --out")
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


# run.json after the head: RunStats.report's keys, the experts, tau2's checks, the attempts,
# reward_report's keys, the endpoints, and why the run stopped or failed.
SECTIONS = (
    "counts", "rejected_by_stage", "per_domain", "sample_failures", "tool_crashes",
    "worker_restarts", "errors", "stats", "experts", "tau2", "attempts",
    "reward_distributions", "profiles", "endpoints", STOP_REASON, "failures",
)  # fmt: skip
GENERATE_COMMAND = Command(GENERATE, GenerateConfig.RESUME_KEYS, SECTIONS, "finished chunks")


@dataclass
class GenerateState:
    stats: RunStats = field(default_factory=RunStats)
    status: str = "complete"
    stop_reason: str = ""
    endpoints: dict[str, Any] = field(default_factory=dict)


async def _run(
    config: GenerateConfig,
    output: Output,
    on_progress: Progress | None,
    local: tuple[str, str] | None = None,
) -> GenerateState:
    """Run the chunks, several at once so that `concurrency` episodes can be in flight; each
    chunk is written when it is complete. A StopRun (budget, endpoint refusal) cancels the
    unfinished chunks, which a --resume redoes (their requests come from the cache)."""
    state = GenerateState()
    cache_dir = output.root / CACHE_DIR
    run = open_teacher(
        config.teacher, config, detours=config.detours, cache_dir=cache_dir, local=local
    )
    assertion_judge = open_judge(config, run, cache_dir)
    if local is not None:  # the other teachers' endpoints were asked before OUT was touched
        await probe(run.clients)
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
            done = finished(output, chunk, domain)
            if done is None:
                result = await run_chunk(
                    config, domain, indexes, run.teacher, pool, task_done, assertion_judge
                )
                write_chunk(output, chunk, domain, result)
                done = result.stats
            partial.pop(chunk, None)
            state.stats = state.stats + done
            report()

    try:
        with expert_environment(config.experts, cache_dir / "experts"):
            pool_of = SandboxPool(config.workers, config.call_timeout_s, domains=config.domains)
            async with pool_of as pool:
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


def endpoints(config: GenerateConfig) -> TeacherRun:
    """The run's endpoint pools (teacher, user simulator, judge), built as `_run` builds them,
    for the driver's probe before OUT is touched."""
    run = open_teacher(
        config.teacher, config, detours=config.detours, cache_dir=config.out / CACHE_DIR
    )
    open_judge(config, run, config.out / CACHE_DIR)
    return run


def run_json(config: GenerateConfig, stats: RunStats, status: str, **more: Any) -> dict[str, Any]:
    sections = {
        **stats.report(config.domains),
        "experts": expert_backends(config.domains, config.experts),
        **tau2_checks(config.domains, config.judge_model),
        "attempts": attempt_report(stats.passes, stats.model_errors),
        **more,
    }
    return GENERATE_COMMAND.run_json(config, status, sections, config.teacher != "reference")


class RunFailed(Exception):
    """The run met domain bugs (see `failures`); everything is written, and `--resume
    --redo-changed` after fixing the domain redoes the chunks that met them (and, if its code
    changed, all of its chunks). `summary` is run.json's content."""

    def __init__(self, failures: list[str], summary: dict[str, Any]) -> None:
        super().__init__("; ".join(failures))
        self.failures = failures
        self.summary = summary


def failures(config: GenerateConfig, stats: RunStats, complete: bool) -> list[str]:
    """Why the run fails, one sentence each saying what to do: a domain none of whose samples
    worked (only judged on a complete run), too many failed samples, a crashed tool call."""
    found = []
    fix = "fix the domain (toolscale check-domain {}), then run generate --resume --redo-changed"
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
            "fix the rest, then run generate --resume --redo-changed"
        )
    return found


def generate(
    config: GenerateConfig | None = None, on_progress: Progress | None = None, **options: Any
) -> dict[str, Any]:
    """Run `toolscale generate` to completion; returns the run summary also written to
    OUT/run.json.

    Args:
        config: The run's options; or None, and give them as `options`.
        on_progress: Called with the run's `RunStats` as tasks finish.
        **options: The command's flags by name, underscores for dashes, with the values the
            command line takes: `generate(out="out/demo", domains="bank,math", num_tasks=20)`.

    Raises:
        ConfigError: A bad option, before anything is written (`toolscale.core.errors`).
        RunFailed: After writing everything, when the run met domain bugs.
    """
    if config is None:
        config = generate_config(**options)
    elif options:
        raise ConfigError("give generate a config or options, not both")
    check_generate(config)
    config = replace(config, domains=resolve(",".join(config.domains)))
    if config.tasks_from is not None:
        config = with_source(config)
    check_shard(config)
    check_schemas(config.domains)
    # Before anything is written: an LLM teacher's programs run only where the sandbox holds.
    check_isolation(config.isolation, config.domains, config.teacher != "reference")
    joined = connect(config.ray_address) if config.executor == "ray" else False
    try:
        return _generate(config, on_progress)
    finally:
        leave(joined)


def _generate(config: GenerateConfig, on_progress: Progress | None) -> dict[str, Any]:
    def check_chunks(output: Output) -> None:
        check_code(output, config)
        check_finished(output, config)

    output = open_output(GENERATE_COMMAND, config, lambda: endpoints(config), check_chunks)
    write_json(config.out / "run.json", run_json(config, RunStats(), "running"))
    try:
        if config.executor == "ray":
            state = GenerateState()
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
    more: dict[str, Any] = {**reward_report(output), "endpoints": state.endpoints}
    if state.stop_reason:
        more[STOP_REASON] = state.stop_reason
    if problems:
        more["failures"] = problems
    summary = run_json(config, state.stats, status, **more)
    output.write_readme(f"toolscale dataset: {', '.join(config.domains)}")
    write_json(config.out / "run.json", summary)
    if output.row_count("tasks"):
        from toolscale.publish.card import card  # matplotlib and jinja2: only once there is a card

        card(config.out)  # the full data card replaces the minimal README above
    if state.status == "stopped":
        GENERATE_COMMAND.end(summary)
    if problems:
        raise RunFailed(problems, summary)
    return summary
