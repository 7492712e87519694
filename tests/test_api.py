"""The validation API: the shipped JSON Schemas match the records, and tampered rows (a changed
tool output, argument, reward, verdict) are each caught by `validate_dataset`."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import toolscale
from tests.publishing_data import copy, rows, shared
from toolscale.publish.api import schema_problems
from toolscale.write.record_schema import derive, shipped

pytestmark = pytest.mark.slow  # module fixtures that generate and play outputs


@pytest.fixture(scope="module")
def dataset() -> Path:
    return shared()


def rewrite(path: Path, index: int, change) -> str:
    """Apply `change` to row `index` of a shard, keeping the shard's schema; return the row id."""
    table = pq.read_table(path)
    data = table.to_pylist()
    change(data[index])
    pq.write_table(pa.Table.from_pylist(data, schema=table.schema), path)
    return data[index]["id"]


def first_call_row(path: Path) -> int:
    return next(i for i, r in enumerate(pq.read_table(path).to_pylist()) if r["tool_calls"])


def test_shipped_schemas_are_derived_from_the_records():
    for config in ("tasks", "traces", "rejected"):
        assert shipped(config) == derive(config), "run: python -m toolscale.write.record_schema"


def test_schema_check_names_the_field(dataset):
    row = rows(dataset, "traces")[0]
    assert schema_problems("traces", row) == []
    bad = {**row, "num_tool_calls": "three", "extra": 1}
    problems = schema_problems("traces", bad)
    assert any("num_tool_calls" in p for p in problems)
    assert any("extra" in p for p in problems)


def test_validate_trace_accepts_a_real_row_and_names_a_tampered_one(dataset):
    tasks = {t["id"]: t for t in rows(dataset, "tasks")}
    trace = next(r for r in rows(dataset, "traces") if r["tool_calls"])
    task = tasks[trace["task_id"]]
    verdict = toolscale.validate_trace(trace, task, run=dataset)
    assert verdict.valid and verdict.row_id == trace["id"], verdict.problems
    toolscale.assert_valid_trace(trace, task, run=dataset)
    tampered = json.loads(json.dumps(trace))
    tampered["tool_calls"][0]["output"] += " (edited)"
    verdict = toolscale.validate_trace(tampered, task, run=dataset)
    assert not verdict
    assert any("tool results differ" in p for p in verdict.problems)
    with pytest.raises(AssertionError, match=trace["id"]):
        toolscale.assert_valid_trace(tampered, task, run=dataset)


@pytest.mark.slow
def test_each_tampered_row_is_caught_and_only_those(dataset, tmp_path):
    out = copy(dataset, tmp_path / "out")
    toolscale.assert_valid_dataset(out)  # the untouched copy is valid
    shards = sorted((out / "data" / "traces").glob("*.parquet"))
    rejected = next(
        p for p in (out / "data" / "rejected").glob("*.parquet") if pq.read_metadata(p).num_rows
    )

    def change_output(row: dict) -> None:  # consistent in the call and the conversation
        old = row["tool_calls"][0]["output"]
        row["tool_calls"][0]["output"] = old + " 1"
        for m in row["messages"]:
            if m["role"] == "tool" and m["tool_call_id"] == row["tool_calls"][0]["id"]:
                m["content"] = old + " 1"

    def change_argument(row: dict) -> None:
        call = row["tool_calls"][0]
        arguments = json.loads(call["arguments"])
        key = next(iter(arguments))
        arguments[key] = str(arguments[key]) + "X"
        call["arguments"] = json.dumps(arguments)
        for m in row["messages"]:
            for c in m["tool_calls"]:
                if c["id"] == call["id"]:
                    c["arguments"] = call["arguments"]

    def change_reward(row: dict) -> None:
        row["reward_total"] += 0.25

    def change_verdict(row: dict) -> None:
        row["verified"], row["failure_stage"], row["failure_reasons"] = True, None, []

    bad = {
        "tool output": rewrite(shards[0], first_call_row(shards[0]), change_output),
        "argument": rewrite(shards[1], first_call_row(shards[1]), change_argument),
        "reward": rewrite(shards[2], 0, change_reward),
        "verdict": rewrite(rejected, 0, change_verdict),
    }
    verdict = toolscale.validate_dataset(out)
    assert not verdict
    flagged = set(verdict.bad_rows())
    assert set(bad.values()) <= flagged
    # Beyond the tampered rows, only their group mates can be named: changing one attempt's
    # verdict changes the group reward the others' stored reward_group must equal.
    task_of = {r["id"]: r["task_id"] for c in ("traces", "rejected") for r in rows(dataset, c)}
    assert {task_of[r] for r in flagged} == {task_of[r] for r in bad.values()}
    for row_id in flagged - set(bad.values()):
        assert {p for r, p in verdict.problems if r == row_id} == {
            "reward_group differs from the group's recomputed reward"
        }
    problems = {row_id: [p for r, p in verdict.problems if r == row_id] for row_id in bad.values()}
    assert any("replaying" in p or "tool results" in p for p in problems[bad["tool output"]])
    assert any("reward" in p for p in problems[bad["reward"]])
    assert any("verified attempt in rejected" in p for p in problems[bad["verdict"]])
