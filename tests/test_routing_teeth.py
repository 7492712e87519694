"""Routing with teeth: the expected-reward oracle (toolscale.oracle.expected) stored beside the
played one and re-checked by validate, a forbidden tool that moves the oracle off the route it
would take, and a budget the user states that keeps one route and excludes another."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from toolscale.core.preference import Preference, PreferenceVector
from toolscale.economics.budgets import MONEY, TIME, separating, stated
from toolscale.economics.preferences import violations
from toolscale.pipeline.generate import GenerateConfig, generate
from toolscale.publish.validate import validate_output


def _generate(root: Path, profiles: dict[str, float], domains: list[str], n: int) -> Path:
    generate(GenerateConfig(domains=domains, num_tasks=n, out=root, detours=True,
                            profiles=profiles))  # fmt: skip
    return root


def _rows(out: Path, config: str = "tasks") -> list[dict]:
    files = sorted(str(p) for p in (out / "data" / config).glob("*.parquet"))
    return list(datasets.load_dataset("parquet", data_files=files, split="train"))


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("teeth") / "out"
    return _generate(root, {"none": 1, "cheap": 1, "hurry": 1, "avoid_tool": 1},
                     ["math", "knowledge"], 24)  # fmt: skip


def _by_index(rows: list[dict]) -> dict[tuple[str, int], dict]:
    return {(r["domain"], r["index"]): r for r in rows}


def test_expected_route_is_the_argmax_of_the_stored_expected_rewards(out):
    tasks = _rows(out)
    assert len(tasks) == 24
    for task in tasks:
        table = task["route_table"]
        best = max(s["expected_reward"] for s in table)
        chosen = next(s for s in table if s["name"] == task["expected_route"])
        assert chosen["expected_reward"] == best
        for s in table:
            assert 0.0 <= s["p_right"] <= 1.0
            if "expert" in s["name"]:
                continue
            # a route that answers the same every time is right as played; it expects what it
            # scored when both oracles are the gold (expected rewards take the expected as gold)
            assert s["p_right"] == (1.0 if s["verified"] else 0.0)
            if task["expected_route"] == task["oracle_route"]:
                assert s["expected_reward"] == pytest.approx(s["reward_total"], abs=1e-12)
    # an expert route expects between its reward if wrong and if right: never its luck
    experts = [s for t in tasks for s in t["route_table"] if s["name"] in ("expert-1", "expert-3")]
    assert any(0.0 < s["p_right"] < 1.0 for s in experts)


def test_validate_rechecks_both_oracle_fields(out, tmp_path):
    assert validate_output(out).problems == []
    for field in ("expected_route", "oracle_route"):
        copy = tmp_path / field
        shutil.copytree(out, copy)
        shard = sorted((copy / "data" / "tasks").glob("math-*.parquet"))[0]
        rows = pq.read_table(shard).to_pylist()
        rows[0][field] = "expert-2" if rows[0][field] != "expert-2" else "expert-3"
        pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(shard)), shard)
        problems = validate_output(copy).problems
        assert any(field in p for _, p in problems), field


def test_a_forbidden_tool_of_the_best_route_moves_the_oracle(tmp_path):
    """The same 30 math tasks with no preference and with `avoid_tool`: where the avoided tool
    is one the unconstrained oracle route calls, the expected-reward oracle takes another route,
    which keeps the constraint, and so does the played oracle whenever some route that keeps it
    answered right on this draw."""
    free = _by_index(_rows(_generate(tmp_path / "free", {"none": 1}, ["math"], 30)))
    avoid = _by_index(_rows(_generate(tmp_path / "avoid", {"avoid_tool": 1}, ["math"], 30)))
    moved = 0
    for key, task in avoid.items():
        forbidden = json.loads(task["preference"])["forbidden_tools"]
        unconstrained = [a["name"] for a in json.loads(free[key]["gold_actions"])]
        if forbidden and forbidden[0] in unconstrained:
            moved += 1
            assert task["expected_route"] != free[key]["expected_route"]
            expected = next(s for s in task["route_table"] if s["name"] == task["expected_route"])
            assert expected["compliant"]
            if any(s["verified"] and s["compliant"] for s in task["route_table"]):
                assert task["oracle_route"] != free[key]["oracle_route"]
                assert forbidden[0] not in [a["name"] for a in json.loads(task["gold_actions"])]
    assert moved >= 5


def test_a_stated_budget_keeps_one_route_and_excludes_another(out):
    stated_tasks = 0
    for task in _rows(out):
        preference = json.loads(task["preference"])
        if not preference.get("budget_stated"):
            continue
        stated_tasks += 1
        field = "total_cost" if preference["profile"] == "cheap" else "total_latency_ms"
        limit = preference["max_cost"] if field == "total_cost" else preference["max_latency_ms"]
        routes = [s for s in task["route_table"] if not s["detour"]]
        fits = [s for s in routes if s[field] <= limit]
        over = [s for s in routes if s[field] > limit]
        assert fits and over
        assert not any(s["compliant"] for s in over)  # a stated budget binds exactly
        assert task["instruction"].endswith(preference["instruction"])
        assert not any(name in preference["instruction"] for name in ("search", "expert", "code"))
    assert stated_tasks >= 4


def test_separating_amounts_leave_routes_on_both_sides_and_none_on_the_edge():
    assert [MONEY[i][0] for i in separating(MONEY, [0.0002, 0.003, 0.01])] == [
        0.0005, 0.001, 0.002, 0.005]  # fmt: skip
    assert separating(TIME, [1200.0]) == []  # one route: nothing to separate
    assert [TIME[i][1] for i in separating(TIME, [800.0, 2500.0])] == ["1 second", "2 seconds"]


def test_a_stated_budget_binds_exactly_an_unstated_one_twice():
    vector = PreferenceVector(latency=1.0)
    unstated = Preference(profile="hurry", instruction="Be quick.", vector=vector,
                          max_latency_ms=2000.0)  # fmt: skip
    assert violations(unstated, {}, "x", total_latency_ms=2001.0) == []
    said = stated(unstated, [0.0, 0.0], [800.0, 2500.0], __import__("random").Random(0))
    assert said is not None and said.budget_stated and said.max_cost is None
    assert said.max_latency_ms in (1000.0, 2000.0)
    over = said.max_latency_ms + 1.0
    assert violations(said, {}, "x", total_latency_ms=over) == [
        f"took {over:.0f} ms, over the {said.max_latency_ms:.0f} ms budget of a user in a hurry"
    ]
    # the field is left out of a row where it is False: older rows and ids read the same
    assert "budget_stated" not in unstated.model_dump()


def test_a_stated_budget_rules_out_the_gold_route_when_one_can():
    """Latencies 0.8 s, 2.5 s (the gold route) and 6 s are separated by 1, 2, 3 and 5 seconds;
    with BELOW_GOLD_SHARE 1 only the two the gold route is over (1 s, 2 s) are drawn, about a
    half each."""
    import random

    vector = PreferenceVector(latency=1.0)
    hurry = Preference(profile="hurry", instruction="Be quick.", vector=vector,
                       max_latency_ms=2500.0)  # fmt: skip
    said = [
        stated(hurry, [0.0] * 3, [800.0, 2500.0, 6000.0], random.Random(i), None, (0.0, 2500.0))
        for i in range(400)
    ]
    amounts = [s.max_latency_ms for s in said if s is not None]
    assert set(amounts) == {1000.0, 2000.0}
    assert 0.4 < sum(a == 1000.0 for a in amounts) / 400 < 0.6
