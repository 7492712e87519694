"""`toolscale validate`: re-check every row of an output folder and name the rows that fail.

Tasks are rebuilt from (domain, seed, index) with the run's price schedules, tool dropout,
profile spread and `--detours` (all in run.json) and must equal the stored row, price table and
reference cost included, so a tampered price table is caught here and a tampered cost by the
metrics check. A synthesized task (`toolscale synthesize`), which no sampler rebuilds, is
checked from its stored content: its gold actions re-executed on its stored state must reach its
stored final state hash, and the rest is derived again from them (`toolscale.sample.stored`).
Every trace and rejected row must parse, carry its content id, point at a stored task, carry the
metrics its calls give, and get the same verdict again — which replays every call on a fresh
state (grounding). The NL-assertion judge of tau2 tasks (`toolscale.tau2.nl_assertions`) is not
asked again: a row it rejected (stage "judge", or "outcome" for unmet assertions only) must pass
every other stage on re-verification. Labels and rewards are recomputed with the reward config
saved in run.json; `reward_total` must equal the weighted sum of the row's own components and
weights (1e-9), and `reward_group` the group reward over the attempts at the same task by the
same teacher."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from toolscale.core.contract import ToolPrice
from toolscale.core.errors import ConfigError
from toolscale.core.records import Task, Trace, trace_id
from toolscale.core.registry import names
from toolscale.economics.preferences import DEFAULT_SPREAD
from toolscale.economics.prices import BUILTIN, DEFAULT_SCHEDULES, Economics, Schedule
from toolscale.judge.rewards import GroupFeatures, RewardConfig, group_rewards, row_total
from toolscale.judge.rubric import Rubric
from toolscale.oracle.played import with_oracle
from toolscale.sample.in_worker import sample_in
from toolscale.sample.stored import check_stored, is_synthesized
from toolscale.sample.worlds import WorldStore
from toolscale.sandbox.guard import check_isolation
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.tau2.nl_assertions import judge_verdict
from toolscale.write.output import Output

T = TypeVar("T")
Progress = Callable[[int, int], None]  # (rows checked, rows)


@dataclass
class Report:
    rows: int = 0
    problems: list[tuple[str, str]] = field(default_factory=list)


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    return f"field {'.'.join(map(str, error['loc']))}: {error['msg']}"


@dataclass(frozen=True)
class RunSettings:
    """What the labels of a run depend on, read back from its run.json."""

    profiles: dict[str, float]
    reward: RewardConfig
    teacher_price: tuple[float, float]
    economics: Economics
    worlds: WorldStore  # the output's worlds: a stateful task row is its difference from one
    detours: bool = False  # whether the route tables hold the detours (`--detours`)


def run_settings(output: Output) -> RunSettings:
    path = output.root / "run.json"
    config = json.loads(path.read_text()).get("config", {}) if path.exists() else {}
    try:
        schedules = tuple(Schedule.model_validate(s) for s in config.get("schedules", []))
        models = {a: ToolPrice(**p) for a, p in config.get("model_prices", {}).items()}
        economics = Economics(
            schedules or tuple(BUILTIN[n] for n in DEFAULT_SCHEDULES),
            config.get("tool_dropout", 0.0),
            models,
        )
    except (ValidationError, ValueError, TypeError) as exc:
        raise ConfigError(f"{path}: unreadable price settings ({exc.__class__.__name__})") from None
    return RunSettings(
        profiles=config.get("profiles") or dict(DEFAULT_SPREAD),
        reward=RewardConfig(**config.get("reward", {})),
        teacher_price=(config.get("teacher_price_in", 0.0), config.get("teacher_price_out", 0.0)),
        economics=economics,
        worlds=WorldStore.of_output(output.root),
        detours=bool(config.get("detours", False)),
    )


async def check_task(
    row: dict[str, Any], pool: SandboxPool, settings: RunSettings
) -> tuple[Task | None, list[str]]:
    try:
        task = Task.from_row(row, settings.worlds)
    except (ValidationError, ValueError, TypeError) as exc:
        return None, [f"unreadable task row ({exc.__class__.__name__})"]
    except ConfigError as exc:  # its world is not loaded
        return None, [str(exc)]
    if task.domain not in names() and not task.domain.startswith("tau2:"):
        return task, [f"domain {task.domain!r} is not installed"]
    if is_synthesized(task):  # no sampler rebuilds it: checked from its stored content
        return task, await check_stored(task, pool, settings.economics, settings.profiles)
    try:
        prepared = await sample_in(
            pool,
            task.domain,
            task.seed,
            task.index,
            settings=(settings.economics, settings.profiles),
        )
        rubric = Rubric(settings.reward, settings.teacher_price)
        rebuilt = (await with_oracle(prepared, pool, rubric, settings.detours)).task
    except SandboxError as exc:
        return task, [f"cannot rebuild task: {exc}"]
    if rebuilt != task:
        fields = [k for k in Task.model_fields if getattr(rebuilt, k) != getattr(task, k)]
        return task, [f"task differs from its rebuild in {', '.join(fields)}"]
    return task, []


async def check_trace(
    config: str,
    row: dict[str, Any],
    tasks: dict[str, Task],
    pool: SandboxPool,
    settings: RunSettings,
) -> list[str]:
    try:
        trace = Trace.from_row(row)
    except (ValidationError, ValueError, TypeError) as exc:
        reason = _first_error(exc) if isinstance(exc, ValidationError) else str(exc)
        return [f"unreadable {config} row ({reason})"]
    task = tasks.get(trace.task_id)
    if task is None:
        return [f"task {trace.task_id} is not in the tasks config"]
    problems = []
    if trace.id != trace_id(task.id, trace.teacher, trace.variant, trace.attempt, trace.messages):
        problems.append("id does not match the content")
    if trace.verified != (config == "traces"):
        problems.append(f"a {'failed' if config == 'traces' else 'verified'} attempt in {config}")
    rubric = Rubric(settings.reward, settings.teacher_price)
    metrics, labels = rubric.measure(task, trace, trace.verified)
    if {k: getattr(trace, k) for k in metrics} != metrics:
        problems.append("stored metrics differ from the recomputed ones")
    differ = sorted(k for k, v in labels.items() if getattr(trace, k) != v)
    if differ:
        problems.append(f"stored labels differ from the recomputed ones: {', '.join(differ)}")
    if abs(row_total(row) - trace.reward_total) > 1e-9:
        problems.append("reward_total is not the weighted sum of the stored components")
    if trace.failure_stage == "teacher":
        return problems
    verdict = await rubric.verdict(task, trace, pool)  # before any assertion judge
    again = (verdict.verified, verdict.failure_stage, verdict.reasons)
    stored = (trace.verified, trace.failure_stage, trace.failure_reasons)
    if judge_verdict(trace.failure_stage, trace.failure_reasons):
        stored = (True, None, [])  # what came before the judge passed
    if again != stored:
        problems.append(
            f"re-verification gives {verdict.failure_stage or 'verified'}: "
            f"{'; '.join(verdict.reasons)[:300]}"
        )
    return problems


def group_problems(
    trace_rows: list[tuple[str, dict[str, Any]]], tasks: dict[str, Task]
) -> list[tuple[str, str]]:
    """(row id, problem) for each stored `reward_group` that its group does not give again."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for _, row in trace_rows:
        if row.get("task_id") in tasks:
            groups[(row["task_id"], row["teacher"])].append(row)
    problems = []
    for (task_id, _), rows in groups.items():
        try:
            scores = group_rewards(
                [GroupFeatures.of(r) for r in rows], tasks[task_id].preference.vector
            )
        except (KeyError, TypeError, ValueError):
            continue  # an unreadable row, already reported by check_trace
        problems += [
            (str(r["id"]), "reward_group differs from the group's recomputed reward")
            for r, score in zip(rows, scores, strict=True)
            if abs(r["reward_group"] - score) > 1e-9
        ]
    return problems


async def _validate(
    output: Output, workers: int, isolation: str, progress: Progress | None = None
) -> Report:
    report = Report()
    task_rows = [row for _, row in output.read_rows("tasks")]
    trace_rows = [(c, row) for c in ("traces", "rejected") for _, row in output.read_rows(c)]
    # Replaying an LLM teacher's rows runs the code it wrote (a Hub dataset's too): only where
    # the sandbox holds, or at the level --isolation accepts (toolscale.sandbox.guard).
    model_written = any(row["teacher"] != "reference" for _, row in trace_rows)
    check_isolation(isolation, {row["domain"] for row in task_rows}, model_written)
    report.rows = len(task_rows) + len(trace_rows)
    done = 0

    async def counted(check: Awaitable[T]) -> T:
        nonlocal done
        result = await check
        done += 1
        if progress is not None:
            progress(done, report.rows)
        return result

    tasks: dict[str, Task] = {}
    settings = run_settings(output)
    async with SandboxPool(workers) as pool:
        checked = await asyncio.gather(*(counted(check_task(r, pool, settings)) for r in task_rows))
        for row, (task, problems) in zip(task_rows, checked, strict=True):
            if task is not None:
                tasks[task.id] = task
            report.problems += [(str(row.get("id")), p) for p in problems]
        results = await asyncio.gather(
            *(counted(check_trace(c, r, tasks, pool, settings)) for c, r in trace_rows)
        )
    for (_, row), problems in zip(trace_rows, results, strict=True):
        report.problems += [(str(row.get("id")), p) for p in problems]
    report.problems += group_problems(trace_rows, tasks)
    return report


def validate_output(
    root: Path | str, workers: int = 2, isolation: str = "bwrap", progress: Progress | None = None
) -> Report:
    """Re-verify every row of the output at `root` (`toolscale validate`): schema, ids,
    grounding replay, verdict, metrics; the report lists each row's problems. `progress` is
    told (rows checked, rows) after each row."""
    root = Path(root)
    output = Output(root)
    if not root.is_dir():
        what = "is a file, not a folder" if root.exists() else "does not exist"
        raise ConfigError(f"{root} {what}; give the --out folder of a generate run")
    if not output.is_toolscale_output():
        raise ConfigError(f"{root} is not a toolscale output (no .toolscale folder)")
    return asyncio.run(_validate(output, workers, isolation, progress))


def validate_rows(root: Path, workers: int = 2, isolation: str = "bwrap") -> Report:
    """The same checks on any folder holding `data/<config>/*.parquet` and run.json (e.g. a
    dataset downloaded from the Hub, which has no .toolscale folder)."""
    if not (root / "data" / "tasks").is_dir():
        raise ConfigError(f"{root} holds no data/tasks folder; give a toolscale dataset")
    return asyncio.run(_validate(Output(root), workers, isolation))
