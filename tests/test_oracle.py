"""The oracle route: every route a task admits is played and judged, the best becomes the gold
route, and `validate` rebuilds the oracle fields (toolscale.oracle.played)."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest

from toolscale.core.records import RouteScore
from toolscale.pipeline.generate import GenerateConfig, generate
from toolscale.publish.validate import validate_output


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("oracle") / "out"
    generate(GenerateConfig(domains=["math", "knowledge"], num_tasks=24, out=root, detours=True))
    return root


def _rows(out: Path, config: str) -> list[dict]:
    files = sorted(str(p) for p in (out / "data" / config).glob("*.parquet"))
    return list(datasets.load_dataset("parquet", data_files=files, split="train"))


def test_the_gold_route_is_the_stored_oracle_route_on_every_task(out):
    tasks = _rows(out, "tasks")
    traces = {
        (r["task_id"], r["variant"]): r for c in ("traces", "rejected") for r in _rows(out, c)
    }
    assert len(tasks) == 24
    for task in tasks:
        table = [RouteScore(**s) for s in task["route_table"]]
        oracle = next(s for s in table if s.name == task["oracle_route"])
        gold = traces[(task["id"], "gold")]
        # the reference teacher's gold trace is the oracle route, scored as the table says; it
        # keeps the preference unless no route that keeps it answered right on this draw
        assert gold["verified"] and oracle.verified
        assert oracle.compliant or not any(s.verified and s.compliant for s in table)
        assert gold["reward_total"] == pytest.approx(task["oracle_reward"], abs=1e-12)
        assert oracle.reward_total == task["oracle_reward"]
        assert gold["num_tool_calls"] == oracle.num_tool_calls == len(json.loads(
            task["gold_actions"]))  # fmt: skip
        assert task["reference_cost"] == oracle.total_cost
        # no compliant verified route of the table scores above it
        rivals = [s.reward_total for s in table if s.verified and s.compliant]
        assert task["oracle_reward"] >= max(rivals, default=task["oracle_reward"]) - 1e-12


def test_every_route_of_the_table_is_a_played_attempt_with_the_same_verdict(out):
    tasks = _rows(out, "tasks")
    traces = {
        (r["task_id"], r["variant"]): r for c in ("traces", "rejected") for r in _rows(out, c)
    }
    for task in tasks:
        for score in task["route_table"]:
            if score["name"] == task["oracle_route"]:
                continue
            played = traces[(task["id"], score["name"])]
            assert played["verified"] == score["verified"]
            assert played["reward_total"] == pytest.approx(score["reward_total"], abs=1e-12)


def test_detours_give_rejected_attempts_with_their_stage(out):
    rejected = _rows(out, "rejected")
    assert rejected and all(r["failure_stage"] == "outcome" for r in rejected)
    assert {r["domain"] for r in rejected} == {"math", "knowledge"}


@pytest.mark.slow
def test_validate_rebuilds_the_oracle_fields(out, tmp_path):
    assert validate_output(out).problems == []
    # a tampered oracle field is caught by the task rebuild
    import shutil

    import pyarrow.parquet as pq

    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    shard = sorted((copy / "data" / "tasks").glob("math-*.parquet"))[0]
    table = pq.read_table(shard).to_pylist()
    table[0]["oracle_route"] = "expert-1" if table[0]["oracle_route"] != "expert-1" else "expert-2"
    import pyarrow as pa

    pq.write_table(pa.Table.from_pylist(table, schema=pq.read_schema(shard)), shard)
    problems = validate_output(copy).problems
    assert any("oracle_route" in p for _, p in problems)
