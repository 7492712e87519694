"""The validation API for users' own tests: is this trace row, or this dataset, what toolscale
guarantees?

Every check runs again from the rows themselves: the row against the JSON Schema shipped in the
package (`toolscale/schemas/`), the task against its rebuild from (domain, seed, index), the
content id, every tool call's arguments against the tool's JSON schema, grounding (replaying the
calls on a fresh state in the sandbox reproduces every recorded output and the final state), the
verdict, the metrics, and the labels and rewards (recomputed with `toolscale.judge.labels` and
`toolscale.judge.rewards`; `reward_total` must be the weighted sum of the stored components). The
checks themselves live in `toolscale.publish.validate`; this module adds the schema check and a
pytest-friendly surface. The group reward (`reward_group`) needs every attempt at the task, so
`validate_dataset` checks it and `validate_trace` cannot.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from toolscale.core.errors import ConfigError
from toolscale.publish.validate import (
    RunSettings,
    check_task,
    check_trace,
    run_settings,
    validate_rows,
)
from toolscale.sandbox.pool import SandboxPool
from toolscale.write.features import CONFIGS
from toolscale.write.output import Output
from toolscale.write.record_schema import shipped


@dataclass(frozen=True)
class RowVerdict:
    """The result of `validate_trace`: valid when no check found a problem."""

    row_id: str
    problems: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.valid


@dataclass(frozen=True)
class DatasetVerdict:
    """The result of `validate_dataset`: every (row id, problem) found over all configs."""

    rows: int
    problems: tuple[tuple[str, str], ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.valid

    def bad_rows(self) -> list[str]:
        return sorted({row_id for row_id, _ in self.problems})


@cache
def _validator(config: str) -> Draft202012Validator:
    return Draft202012Validator(shipped(config))


def schema_problems(config: str, row: Mapping[str, Any]) -> list[str]:
    """Where `row` breaks the shipped JSON Schema of `config` (at most five, with their paths)."""
    errors = sorted(_validator(config).iter_errors(dict(row)), key=lambda e: list(e.absolute_path))
    return [
        f"schema: {'/'.join(map(str, e.absolute_path)) or 'row'}: {e.message[:160]}"
        for e in errors[:5]
    ]


def _settings(run: Path | None) -> RunSettings:
    """The run's settings from its run.json; the run defaults when there is none (run_settings
    falls back to them for a folder without run.json)."""
    with tempfile.TemporaryDirectory(prefix="toolscale-") as empty:
        return run_settings(Output(run if run is not None else Path(empty)))


async def _check_pair(
    trace_row: dict[str, Any], task_row: dict[str, Any], run: Path | None
) -> list[str]:
    settings = _settings(run)  # with the run's worlds: a stateful task row is a patch of one
    config = "traces" if trace_row.get("verified") else "rejected"
    async with SandboxPool(1) as pool:
        task, problems = await check_task(task_row, pool, settings)
        problems = [f"task: {p}" for p in problems]
        if task is not None:
            problems += await check_trace(config, trace_row, {task.id: task}, pool, settings)
    return problems


def validate_trace(
    trace_row: Mapping[str, Any], task_row: Mapping[str, Any], run: Path | None = None
) -> RowVerdict:
    """Check one trace (or rejected) row against its task row.

    Args:
        trace_row: A row of the `traces` or `rejected` config, as `datasets` or pyarrow gives it.
        task_row: The row of the `tasks` config whose id is `trace_row["task_id"]`.
        run: The output folder whose run.json holds the run's preference spread and reward
            config, price schedules and tool dropout (the defaults when None), and whose
            `worlds` config holds the world a stateful task row is stored against.

    Returns:
        A RowVerdict; falsy, with every problem named, when a check fails.
    """
    problems = schema_problems("tasks", task_row)
    problems += schema_problems("traces", trace_row)
    problems += asyncio.run(_check_pair(dict(trace_row), dict(task_row), run))
    return RowVerdict(str(trace_row.get("id")), tuple(problems))


def _local_copy(path_or_repo_id: str | Path, revision: str | None) -> Path:
    path = Path(path_or_repo_id)
    if path.exists():
        return path
    if isinstance(path_or_repo_id, Path) or str(path_or_repo_id).count("/") != 1:
        raise ConfigError(f"{path_or_repo_id} is neither a folder nor a Hub dataset id ORG/NAME")
    from huggingface_hub import snapshot_download

    return Path(
        snapshot_download(
            str(path_or_repo_id),
            repo_type="dataset",
            revision=revision,
            allow_patterns=["run.json", "data/*/*.parquet"],
        )
    )


def validate_dataset(
    path_or_repo_id: str | Path, workers: int = 2, revision: str | None = None
) -> DatasetVerdict:
    """Check every row of a dataset: a local output folder or a Hub dataset id (downloaded).

    Args:
        path_or_repo_id: An output folder, or "ORG/NAME" of a dataset on the Hub.
        workers: Sandbox worker processes for the replays.
        revision: The Hub revision to download (main when None).
    """
    root = _local_copy(path_or_repo_id, revision)
    output = Output(root)
    problems: list[tuple[str, str]] = []
    for config in CONFIGS:
        for _, row in output.read_rows(config):
            problems += [(str(row.get("id")), p) for p in schema_problems(config, row)]
    report = validate_rows(root, workers)
    return DatasetVerdict(report.rows, tuple(problems + report.problems))


def _message(what: str, problems: list[tuple[str, str]]) -> str:
    lines = [f"{what}: {len(problems)} problem(s)"]
    lines += [f"  {row_id}: {problem}" for row_id, problem in problems[:20]]
    if len(problems) > 20:
        lines.append(f"  ... and {len(problems) - 20} more")
    return "\n".join(lines)


def assert_valid_trace(
    trace_row: Mapping[str, Any], task_row: Mapping[str, Any], run: Path | None = None
) -> None:
    """`assert`-style check for tests: raises AssertionError naming every problem."""
    verdict = validate_trace(trace_row, task_row, run)
    if not verdict:
        raise AssertionError(
            _message(f"trace {verdict.row_id}", [(verdict.row_id, p) for p in verdict.problems])
        )


def assert_valid_dataset(path_or_repo_id: str | Path, workers: int = 2) -> None:
    """`assert`-style check for tests: raises AssertionError naming every bad row."""
    verdict = validate_dataset(path_or_repo_id, workers)
    if not verdict:
        raise AssertionError(_message(f"dataset {path_or_repo_id}", list(verdict.problems)))
