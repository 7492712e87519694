"""The viewer's index of an output: the few columns a list needs, read once; one row on demand.

Opening an output reads only the list columns of `traces` and `rejected` (ids, domain, variant,
verdict, profile, reward, calls, cost) and four of `tasks`, with where each row lives (shard, row
group, offset). A filter and its counts are Arrow compute over that index; a trace or task page
reads the one row group that holds its row, so pages stay fast on a 100k-trace output. Nothing
here writes: the viewer is read-only. This module does not render (`pages`) or serve (`server`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from toolscale.core.errors import ConfigError
from toolscale.core.records import Task, Trace
from toolscale.sample.worlds import WorldStore

# The list's filters: query parameter -> index column, in the order the page shows them.
FACETS = {
    "domain": "domain",
    "template": "template",
    "variant": "variant",
    "status": "status",
    "profile": "preference_profile",
    "schedule": "price_schedule",
    "intent": "intent",  # a synthesized task's (toolscale synthesize), from its provenance
}
TRACE_COLUMNS = ["id", "task_id", "domain", "teacher", "variant", "attempt", "verified"]
TRACE_COLUMNS += ["failure_stage", "preference_profile", "reward_total", "num_tool_calls"]
TRACE_COLUMNS += ["total_cost"]
TASK_COLUMNS = ["id", "domain", "template", "price_schedule", "preference_profile", "provenance"]
ATTEMPT_CONFIGS = ("traces", "rejected")


@dataclass(frozen=True)
class Where:
    """Where one row lives: its shard, row group and offset in that row group."""

    path: Path
    row_group: int
    offset: int


def _read(root: Path, config: str, columns: list[str]) -> tuple[pa.Table, list[Path]]:
    """The `columns` of every shard of `config`, with `_shard`, `_group` and `_offset` columns
    saying where each row is; shards are read column by column, never whole."""
    paths = sorted((root / "data" / config).glob("*.parquet"))
    parts = []
    for number, path in enumerate(paths):
        try:
            handle = pq.ParquetFile(path)
            table = handle.read(columns=columns)
        except (pa.ArrowException, OSError) as exc:
            reason = (str(exc).splitlines() or [type(exc).__name__])[0][:120]
            raise ConfigError(f"shard {path} cannot be read ({reason}); regenerate it") from None
        groups: list[int] = []
        offsets: list[int] = []
        for group in range(handle.metadata.num_row_groups):
            rows = handle.metadata.row_group(group).num_rows
            groups += [group] * rows
            offsets += range(rows)
        parts.append(
            table.append_column("_shard", pa.array([number] * table.num_rows, pa.int32()))
            .append_column("_group", pa.array(groups, pa.int32()))
            .append_column("_offset", pa.array(offsets, pa.int32()))
        )
    if not parts:
        empty = {c: pa.array([], pa.string()) for c in columns}
        empty |= {c: pa.array([], pa.int32()) for c in ("_shard", "_group", "_offset")}
        return pa.table(empty), paths
    return pa.concat_tables(parts), paths


def is_output(root: Path) -> bool:
    """A folder `view` can show: one with task or trace shards (a local run or a Hub download)."""
    configs = ("tasks", *ATTEMPT_CONFIGS)
    return any(next((root / "data" / c).glob("*.parquet"), None) for c in configs)


class OutputIndex:
    """The list columns of one output folder, and its rows on demand. Read-only; safe to share
    between the server's threads (the worlds are loaded once, under a lock)."""

    def __init__(self, root: Path) -> None:
        if not root.is_dir() or not is_output(root):
            raise ConfigError(
                f"{root} is not a toolscale output (no data/tasks or data/traces parquet shards); "
                "give the --out folder of toolscale generate, or a Hub dataset id ORG/NAME"
            )
        self.root = root
        tasks, self._task_paths = _read(root, "tasks", TASK_COLUMNS)
        intents = [json.loads(p or "{}").get("intent", "") for p in tasks["provenance"].to_pylist()]
        self.tasks = tasks.drop_columns(["provenance"]).append_column(
            "intent", pa.array(intents, pa.string())
        )
        self._paths: list[list[Path]] = []
        parts = []
        for number, config in enumerate(ATTEMPT_CONFIGS):
            table, paths = _read(root, config, TRACE_COLUMNS)
            if table.num_rows:
                parts.append(table.append_column("_config", pa.array([number] * len(table))))
            self._paths.append(paths)
        self.attempts = self._join(parts)
        self._worlds: WorldStore | None = None
        self._lock = threading.Lock()

    def _join(self, parts: list[pa.Table]) -> pa.Table:
        """Attempts in file order, each with its task's template and price schedule and a
        `status` column: "verified" or the stage that failed."""
        if not parts:
            return pa.table({"id": pa.array([], pa.string())})
        table = pa.concat_tables(parts)
        table = table.append_column("_pos", pa.array(range(len(table)), pa.int64()))
        status = pc.if_else(
            table["verified"], "verified", pc.fill_null(table["failure_stage"], "?")
        )
        table = table.append_column("status", status)
        info = self.tasks.select(["id", "template", "price_schedule", "intent"]).rename_columns(
            ["task_id", "template", "price_schedule", "intent"]
        )
        return table.join(info, "task_id", join_type="left outer").sort_by("_pos")

    def facet_values(self) -> dict[str, list[str]]:
        """Every value each filter can take in this output, sorted; a filter with none (intent,
        in an output without synthesized tasks) is left out."""
        values = {
            name: sorted(v for v in pc.unique(self.attempts[column]).to_pylist() if v)
            for name, column in FACETS.items()
            if column in self.attempts.column_names
        }
        return {name: found for name, found in values.items() if found}

    def by_domain(self, facet: str) -> dict[str, list[str]]:
        """The values of `facet` each domain's attempts take, sorted (a template shared by two
        domains is under both): how the list groups a long filter."""
        column = FACETS[facet]
        if not len(self.attempts) or column not in self.attempts.column_names:
            return {}
        pairs = self.attempts.select(["domain", column]).group_by(["domain", column]).aggregate([])
        found: dict[str, list[str]] = {}
        for domain, value in zip(
            pairs["domain"].to_pylist(), pairs[column].to_pylist(), strict=True
        ):
            if domain and value:
                found.setdefault(domain, []).append(value)
        return {d: sorted(found[d]) for d in sorted(found)}

    def _mask(self, chosen: Mapping[str, str], skip: str | None = None) -> pa.Array:
        mask = pa.array([True] * len(self.attempts))
        for name, value in chosen.items():
            if name != skip and name in FACETS:
                mask = pc.and_(mask, pc.equal(self.attempts[FACETS[name]], value))
        return pc.fill_null(mask, False)

    def select(self, chosen: Mapping[str, str], start: int, count: int) -> Selection:
        """The attempts matching every chosen filter (rows `start` to `start + count`), their
        total and tasks, and for each filter value how many attempts it would leave given the
        other filters."""
        chosen = {k: v for k, v in chosen.items() if k in FACETS and v}
        counts: dict[str, dict[str, int]] = {}
        if len(self.attempts):
            for name, column in FACETS.items():
                values = pc.value_counts(self.attempts[column].filter(self._mask(chosen, name)))
                counts[name] = {v["values"]: v["counts"] for v in values.to_pylist() if v["values"]}
            matched = self.attempts.filter(self._mask(chosen))
        else:
            matched = self.attempts
        rows = matched.slice(start, count).to_pylist()
        tasks = len(pc.unique(matched["task_id"])) if len(matched) else 0
        return Selection(chosen, rows, len(matched), tasks, counts)

    def attempts_of(self, task_id: str) -> list[dict[str, Any]]:
        """Every attempt at one task (traces and rejected), in file order."""
        if not len(self.attempts):
            return []
        return self.attempts.filter(pc.equal(self.attempts["task_id"], task_id)).to_pylist()

    def _where(self, table: pa.Table, paths: list[Path], row_id: str) -> Where | None:
        found = pc.index(table["id"], row_id).as_py() if len(table) else -1
        if found < 0:
            return None
        spot = table.slice(found, 1).select(["_shard", "_group", "_offset"]).to_pylist()[0]
        return Where(paths[spot["_shard"]], spot["_group"], spot["_offset"])

    @staticmethod
    def _row(where: Where) -> dict[str, Any]:
        group = pq.ParquetFile(where.path).read_row_group(where.row_group)
        return group.slice(where.offset, 1).to_pylist()[0]

    def trace(self, trace_id: str) -> tuple[Trace, str] | None:
        """The trace (or rejected attempt) with this id and its config, or None."""
        if not len(self.attempts):
            return None
        found = pc.index(self.attempts["id"], trace_id).as_py()
        if found < 0:
            return None
        spot = self.attempts.slice(found, 1).to_pylist()[0]
        paths = self._paths[spot["_config"]]
        row = self._row(Where(paths[spot["_shard"]], spot["_group"], spot["_offset"]))
        return Trace.from_row(row), ATTEMPT_CONFIGS[spot["_config"]]

    def task(self, task_id: str) -> tuple[Task, dict[str, Any]] | None:
        """The task with this id (its state rebuilt on the run's world) and its raw row, whose
        `initial_state` is the task's own changes to that world; or None."""
        where = self._where(self.tasks, self._task_paths, task_id)
        if where is None:
            return None
        row = self._row(where)
        return Task.from_row(row, self.worlds() if row.get("world") else None), row

    def worlds(self) -> WorldStore:
        """The output's worlds, read on the first task page that needs one."""
        with self._lock:
            if self._worlds is None:
                self._worlds = WorldStore.of_output(self.root)
            return self._worlds


@dataclass(frozen=True)
class Selection:
    """One page of the list: the filters, its rows, how many attempts and tasks match in all,
    and the counts per filter value."""

    chosen: dict[str, str]
    rows: list[dict[str, Any]]
    total: int
    tasks: int
    counts: dict[str, dict[str, int]]
