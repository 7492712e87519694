"""`toolscale validate`: re-check every row of an output folder and name the rows that fail.

Tasks are rebuilt from (domain, seed, index) and must equal the stored row. Every trace and
rejected row must parse, carry its content id, point at a stored task, carry the metrics its calls
give, and get the same verdict again — which replays every call on a fresh state (grounding).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from toolscale.dataset.output import Output
from toolscale.errors import ConfigError
from toolscale.metrics import trace_metrics
from toolscale.records import Task, Trace, trace_id
from toolscale.registry import names
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.verify import verify


@dataclass
class Report:
    rows: int = 0
    problems: list[tuple[str, str]] = field(default_factory=list)


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    return f"field {'.'.join(map(str, error['loc']))}: {error['msg']}"


async def check_task(row: dict[str, Any], pool: SandboxPool) -> tuple[Task | None, list[str]]:
    try:
        task = Task.from_row(row)
    except (ValidationError, ValueError, TypeError) as exc:
        return None, [f"unreadable task row ({exc.__class__.__name__})"]
    if task.domain not in names():
        return task, [f"domain {task.domain!r} is not installed"]
    try:
        rebuilt = (await pool.sample(task.domain, task.seed, task.index)).task
    except SandboxError as exc:
        return task, [f"cannot rebuild task: {exc}"]
    if rebuilt != task:
        fields = [k for k in Task.model_fields if getattr(rebuilt, k) != getattr(task, k)]
        return task, [f"task differs from its rebuild in {', '.join(fields)}"]
    return task, []


async def check_trace(
    config: str, row: dict[str, Any], tasks: dict[str, Task], pool: SandboxPool
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
    stored = {k: getattr(trace, k) for k in trace_metrics(task, [], [])}
    if stored != trace_metrics(task, trace.tool_calls, trace.messages):
        problems.append("stored metrics differ from the recomputed ones")
    if trace.failure_stage == "teacher":
        return problems
    verdict = await verify(task, trace, pool)
    again = (verdict.verified, verdict.failure_stage, verdict.reasons)
    if again != (trace.verified, trace.failure_stage, trace.failure_reasons):
        problems.append(
            f"re-verification gives {verdict.failure_stage or 'verified'}: "
            f"{'; '.join(verdict.reasons)[:300]}"
        )
    return problems


async def _validate(output: Output, workers: int) -> Report:
    report = Report()
    task_rows = [row for _, row in output.read_rows("tasks")]
    trace_rows = [(c, row) for c in ("traces", "rejected") for _, row in output.read_rows(c)]
    report.rows = len(task_rows) + len(trace_rows)
    tasks: dict[str, Task] = {}
    async with SandboxPool(workers) as pool:
        for row, (task, problems) in zip(
            task_rows, await asyncio.gather(*(check_task(r, pool) for r in task_rows)), strict=True
        ):
            if task is not None:
                tasks[task.id] = task
            report.problems += [(str(row.get("id")), p) for p in problems]
        results = await asyncio.gather(*(check_trace(c, r, tasks, pool) for c, r in trace_rows))
    for (_, row), problems in zip(trace_rows, results, strict=True):
        report.problems += [(str(row.get("id")), p) for p in problems]
    return report


def validate_output(root: Path, workers: int = 2) -> Report:
    output = Output(root)
    if not root.is_dir():
        raise ConfigError(f"{root} does not exist; give the --out folder of a generate run")
    if not output.is_toolscale_output():
        raise ConfigError(f"{root} is not a toolscale output (no .toolscale folder)")
    return asyncio.run(_validate(output, workers))
