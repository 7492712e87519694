"""Reading tau2 task files and ToolScale rows, splits, and what is refused (no tau2 needed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from toolscale.core.errors import ConfigError
from toolscale.tau2.taskfile import check_supported, read_tasks, select_split


def task(tid: str, actions: list[dict[str, Any]], basis: list[str] | None = None) -> dict:
    return {
        "id": tid,
        "user_scenario": {
            "persona": None,
            "instructions": {
                "domain": "bank",
                "reason_for_call": "You want your card frozen.",
                "known_info": "Your client id is c1.",
                "unknown_info": None,
                "task_instructions": "Be brief.",
            },
        },
        "initial_state": None,
        "evaluation_criteria": {
            "actions": [{"action_id": f"{tid}_{i}", **a} for i, a in enumerate(actions)],
            "communicate_info": [],
            "nl_assertions": None,
            "reward_basis": basis or ["DB", "COMMUNICATE"],
        },
    }


FREEZE = {"name": "freeze_card", "arguments": {"card_id": "k1", "reason": "lost"}}
SEARCH = {
    "name": "search_transactions",
    "arguments": {"client_id": "c1", "account_id": "a1", "start_date": "2025-08-01"},
}


def write(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value))
    return path


def test_task_file_and_split(tmp_path: Path) -> None:
    path = write(tmp_path / "tasks.json", [task("1", [FREEZE]), task("2", [SEARCH])])
    tasks = read_tasks(path)
    assert [t.id for t in tasks] == ["1", "2"]
    assert tasks[0].criteria.actions[0].arguments == FREEZE["arguments"]
    write(tmp_path / "split_tasks.json", {"train": ["2"], "test": ["1"]})
    assert [t.id for t in select_split(tasks, path, "test")] == ["1"]
    assert select_split(tasks, path, None) == tasks
    with pytest.raises(ConfigError, match="has the splits test, train"):
        select_split(tasks, path, "dev")


def test_a_split_needs_a_split_file(tmp_path: Path) -> None:
    path = write(tmp_path / "mine.json", [task("1", [FREEZE])])
    with pytest.raises(ConfigError, match=r"no split file \(split_mine.json\)"):
        select_split(read_tasks(path), path, "test")


def test_toolscale_parquet_rows_read_back_as_the_tasks_they_were(tmp_path: Path) -> None:
    """As published: one wide argument struct (nulls where a tool has no such parameter) and
    date strings turned into timestamps; both undone, so the gold calls are the original ones."""
    original = [task("1", [FREEZE]), task("2", [SEARCH])]
    for row in original:
        for action in row["evaluation_criteria"]["actions"]:
            args = action["arguments"]
            wide = {k: None for k in ("client_id", "account_id", "card_id", "reason")}
            wide["start_date"] = None
            wide.update(args)
            if wide["start_date"] is not None:
                from datetime import datetime

                wide["start_date"] = datetime.fromisoformat(wide["start_date"])
            action["arguments"] = wide
    table = pa.Table.from_pylist(original)
    assert pa.types.is_timestamp(
        table.schema.field("evaluation_criteria")
        .type.field("actions")
        .type.value_type.field("arguments")
        .type.field("start_date")
        .type
    )
    pq.write_table(table, tmp_path / "rows.parquet")
    tasks = read_tasks(tmp_path / "rows.parquet", "bank", rows=True)
    assert tasks[0].criteria.actions[0].arguments == FREEZE["arguments"]
    assert tasks[1].criteria.actions[0].arguments == SEARCH["arguments"]


def test_rows_of_other_domains_are_left_out(tmp_path: Path) -> None:
    other = task("9", [FREEZE])
    other["user_scenario"]["instructions"]["domain"] = "movie"
    path = write(tmp_path / "rows.json", [task("1", [FREEZE]), other])
    assert [t.id for t in read_tasks(path, "bank", rows=True)] == ["1"]
    assert [t.id for t in read_tasks(path, "movie", rows=True)] == ["9"]


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("[{", "is not valid JSON"),
        ('{"a": 1}', "must hold a list of tau2 tasks"),
        ('[{"id": "1"}]', r"task '1' is not a tau2 task \(user_scenario"),
    ],
)
def test_files_that_do_not_parse(tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=says):
        read_tasks(path)


def test_duplicate_ids_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="task id '1' appears twice"):
        read_tasks(write(tmp_path / "t.json", [task("1", [FREEZE]), task("1", [SEARCH])]))
    with pytest.raises(ConfigError, match="does not exist"):
        read_tasks(tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("basis", "says"),
    [
        (["DB", "ACTION"], "unsupported reward basis ACTION"),
        (["ENV_ASSERTION"], "unsupported reward basis ENV_ASSERTION"),
        (["COMMUNICATE"], "leaves out DB"),
    ],
)
def test_unsupported_reward_bases_are_refused(basis: list[str], says: str) -> None:
    from toolscale.tau2.taskfile import Tau2Task

    with pytest.raises(ConfigError, match=says):
        check_supported(Tau2Task.model_validate(task("1", [FREEZE], basis)), "f.json")
    check_supported(Tau2Task.model_validate(task("1", [FREEZE], ["DB", "NL_ASSERTION"])), "f")


def test_user_side_tasks_are_refused() -> None:
    from toolscale.tau2.taskfile import Tau2Task

    user = task("1", [{**FREEZE, "requestor": "user"}])
    with pytest.raises(ConfigError, match="user-side gold actions"):
        check_supported(Tau2Task.model_validate(user), "f")
    history = task("2", [FREEZE])
    history["initial_state"] = {"message_history": [{"role": "user", "content": "hi"}]}
    with pytest.raises(ConfigError, match="message history"):
        check_supported(Tau2Task.model_validate(history), "f")
    no_criteria = task("3", [FREEZE])
    no_criteria["evaluation_criteria"] = None
    with pytest.raises(ConfigError, match="no evaluation_criteria"):
        check_supported(Tau2Task.model_validate(no_criteria), "f")
