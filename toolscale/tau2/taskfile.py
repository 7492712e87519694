"""Read tau2 tasks: tau2-bench task files (with their splits) and ToolScale rows.

A tau2 task file is a JSON list of tau2 `Task` objects; its splits are in `split_<stem>.json`
beside it ({"train": [ids], "test": [ids], ...}). ToolScale's published rows (JSON, JSON lines or
parquet) are the same tasks after a trip through Arrow: each action's `arguments` is one wide
struct holding every tool's parameters (null where the tool has none) and date-like strings
became timestamps; both are undone here. Only what toolscale can judge exactly as tau2 does is
accepted (`check_supported`); anything else is one ConfigError line. This module needs no tau2.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from toolscale.core.errors import ConfigError

SUPPORTED_BASIS = ("DB", "COMMUNICATE", "NL_ASSERTION")


class Tau2Action(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str
    arguments: dict[str, Any] = {}
    requestor: Literal["assistant", "user"] = "assistant"
    action_id: str | None = None


class Tau2Criteria(BaseModel):
    model_config = ConfigDict(extra="allow")

    actions: list[Tau2Action] | None = None
    env_assertions: list[dict[str, Any]] | None = None
    communicate_info: list[str] | None = None
    nl_assertions: list[str] | None = None
    reward_basis: list[str] = ["DB", "COMMUNICATE"]  # tau2's default


class Tau2Instructions(BaseModel):
    model_config = ConfigDict(extra="allow")

    domain: str | None = None
    reason_for_call: str
    known_info: str | None = None
    unknown_info: str | None = None
    task_instructions: str | None = None


class Tau2Scenario(BaseModel):
    model_config = ConfigDict(extra="allow")

    persona: str | None = None
    instructions: Tau2Instructions | str


class Tau2Task(BaseModel):
    """A tau2 `Task`: the parts toolscale uses are typed, the rest is kept as is."""

    model_config = ConfigDict(extra="allow")

    id: str
    user_scenario: Tau2Scenario
    ticket: str | None = None
    initial_state: dict[str, Any] | None = None
    evaluation_criteria: Tau2Criteria | None = None

    @property
    def domain(self) -> str | None:
        instructions = self.user_scenario.instructions
        return instructions.domain if isinstance(instructions, Tau2Instructions) else None

    @property
    def criteria(self) -> Tau2Criteria:
        assert self.evaluation_criteria is not None  # check_supported refuses tasks without
        return self.evaluation_criteria

    @property
    def needs_judge(self) -> bool:
        """Whether tau2's reward for this task includes an LLM judge of its nl_assertions."""
        criteria = self.criteria
        return "NL_ASSERTION" in criteria.reward_basis and bool(criteria.nl_assertions)


def _plain(value: Any) -> Any:
    """A value read back from Arrow as the JSON it was: timestamps as ISO strings (a midnight
    timestamp as its date), nulls of the wide argument struct dropped."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if hasattr(value, "tolist"):  # numpy arrays and scalars from a parquet reader
        return _plain(value.tolist())
    return value


def _from_arrow(row: dict[str, Any]) -> dict[str, Any]:
    row = _plain(row)
    criteria = row.get("evaluation_criteria") or {}
    for action in criteria.get("actions") or []:
        arguments = action.get("arguments") or {}
        action["arguments"] = {k: v for k, v in arguments.items() if v is not None}
    return row


def _read_rows(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            return pq.read_table(path).to_pylist()
        except Exception as exc:  # pyarrow raises several types for a bad file
            raise ConfigError(f"{path} is not a readable parquet file ({exc})") from None
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".jsonl":
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            rows = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if isinstance(rows, dict) and isinstance(rows.get("tasks"), list):
        rows = rows["tasks"]
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise ConfigError(f"{path} must hold a list of tau2 tasks (JSON objects)")
    return rows


def read_tasks(path: Path, domain: str | None = None, rows: bool = False) -> list[Tau2Task]:
    """The tasks of a tau2 task file, or with `rows` of a ToolScale rows file (Arrow's changes
    undone); with `domain`, only the tasks whose `user_scenario.instructions.domain` is absent or
    equals it (ToolScale mixes ten domains in one file)."""
    if not path.is_file():
        raise ConfigError(f"task file {path} does not exist")
    tasks = []
    for n, row in enumerate(_read_rows(path)):
        if rows:
            row = _from_arrow(row)
        try:
            task = Tau2Task.model_validate(row)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(map(str, error["loc"]))
            raise ConfigError(
                f"{path}: task {row.get('id', n)!r} is not a tau2 task ({where}: {error['msg']})"
            ) from None
        if domain is None or task.domain in (None, domain):
            tasks.append(task)
    ids = [t.id for t in tasks]
    if len(set(ids)) != len(ids):
        twice = next(i for i in ids if ids.count(i) > 1)
        raise ConfigError(f"{path}: task id {twice!r} appears twice")
    return tasks


def select_split(tasks: list[Tau2Task], path: Path, split: str | None) -> list[Tau2Task]:
    """The tasks of `split` (all when None), in the task file's order."""
    if split is None:
        return tasks
    split_file = path.with_name(f"split_{path.stem}.json")
    if not split_file.is_file():
        raise ConfigError(f"--split {split}: {path} has no split file ({split_file.name})")
    try:
        splits = json.loads(split_file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{split_file} is not valid JSON ({exc.msg})") from None
    if split not in splits:
        raise ConfigError(
            f"--split {split}: {split_file.name} has the splits {', '.join(sorted(splits))}"
        )
    wanted = {str(i) for i in splits[split]}
    return [t for t in tasks if t.id in wanted]


def check_supported(task: Tau2Task, where: str) -> None:
    """Refuse (ConfigError) what toolscale cannot judge exactly as tau2 does."""
    criteria = task.evaluation_criteria
    prefix = f"{where}: task {task.id!r}"
    if criteria is None:
        raise ConfigError(f"{prefix} has no evaluation_criteria: nothing to verify")
    unsupported = sorted(set(criteria.reward_basis) - set(SUPPORTED_BASIS))
    if unsupported:
        raise ConfigError(
            f"{prefix} has the unsupported reward basis {', '.join(unsupported)}; toolscale "
            f"judges {', '.join(SUPPORTED_BASIS)} only (docs/tau2.md)"
        )
    if "DB" not in criteria.reward_basis:
        raise ConfigError(
            f"{prefix}: reward basis {criteria.reward_basis} leaves out DB, which toolscale's "
            "outcome check always applies; such tasks are not supported (docs/tau2.md)"
        )
    if any(a.requestor != "assistant" for a in criteria.actions or []):
        raise ConfigError(f"{prefix} has user-side gold actions (user tools are not supported)")
    state = task.initial_state or {}
    data = state.get("initialization_data") or {}
    if data.get("user_data") is not None or state.get("message_history"):
        raise ConfigError(
            f"{prefix} starts from user data or a message history, which is not supported"
        )
    for call in state.get("initialization_actions") or []:
        if call.get("env_type", "assistant") != "assistant":
            raise ConfigError(f"{prefix} has user-side initialization actions (not supported)")
