"""Reward and preference columns of a generated dataset, end to end through the command line."""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.test_generate import cli
from toolscale.economics.preferences import BUDGET_SLACK, SAYINGS
from toolscale.economics.sayings import CALM_HURRY
from toolscale.judge.rewards import row_total
from toolscale.tools.experts import reply_confidence as expert_confidence
from toolscale.write.output import Output

pytestmark = pytest.mark.slow
DOMAINS = ("bank", "knowledge", "math", "railway")
COMPONENTS = ("reward_outcome", "reward_efficiency", "reward_preference", "reward_total")


def rows(out: Path, *configs: str) -> list[dict]:
    return [
        r
        for c in configs
        for p in sorted((out / "data" / c).glob("*.parquet"))
        for r in pq.read_table(p).to_pylist()
    ]


def by_task(out: Path) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for row in rows(out, "traces", "rejected"):
        grouped[row["task_id"]].append(row)
    return grouped


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rewards") / "out"
    cli(
        "generate",
        "--domains",
        "all",
        "--num-tasks",
        "60",
        "--detours",
        "--seed",
        "5",
        "--reward-weights",
        "w_o=1,w_e=2,w_p=0.5",
        "--out",
        str(out),
    )
    return out


def test_every_row_total_is_the_weighted_sum_of_its_components(dataset):
    attempts = rows(dataset, "traces", "rejected")
    assert len(attempts) > 150
    for row in attempts:
        assert json.loads(row["reward_weights"]) == {"w_o": 1.0, "w_e": 2.0, "w_p": 0.5}
        assert abs(row_total(row) - row["reward_total"]) <= 1e-9, row["id"]
        # A broken hard constraint of the preference is scored as a wrong answer.
        correct = row["verified"] and row["preference_compliant"]
        assert row["reward_outcome"] == (1.0 if correct else 0.0)
        assert row["reward_efficiency"] <= 0.0 <= row["reward_preference"]


def test_more_cost_or_latency_never_gets_a_higher_efficiency(dataset):
    # The default (cost) form compares attempts at one task against the same reference.
    compared = 0
    for attempts in by_task(dataset).values():
        for a in attempts:
            for b in attempts:
                if (
                    a["total_cost"] >= b["total_cost"]
                    and a["total_latency_ms"] >= b["total_latency_ms"]
                ):
                    assert a["reward_efficiency"] <= b["reward_efficiency"], (a["id"], b["id"])
                    compared += a is not b
    assert compared > 100


def test_efficiency_is_cost_and_latency_relative_to_the_tasks_gold_route(dataset):
    tasks = {r["id"]: r for r in rows(dataset, "tasks")}
    golds = 0
    for row in rows(dataset, "traces", "rejected"):
        task = tasks[row["task_id"]]
        cost = min(row["total_cost"] / task["reference_cost"], 5.0)
        latency = min(row["total_latency_ms"] / task["reference_latency_ms"], 5.0)
        assert row["reward_efficiency"] == pytest.approx(-0.08 * cost - 0.08 * latency), row["id"]
        assert row["reward_efficiency"] >= -0.8 - 1e-12
        # The reference is the gold route as the reference teacher plays it (its JSON answer
        # under json_confidence included).
        if row["variant"] == "gold":
            assert row["total_cost"] == pytest.approx(task["reference_cost"], abs=1e-12)
            assert row["total_latency_ms"] == pytest.approx(task["reference_latency_ms"])
            assert row["reward_efficiency"] == pytest.approx(-0.16)
            golds += 1
    assert golds > 30


def test_the_preference_label_flips_where_a_profile_forbids_a_detours_tool(dataset):
    tasks = {r["id"]: r for r in rows(dataset, "tasks")}
    flipped = 0
    for task_id, attempts in by_task(dataset).items():
        preference = json.loads(tasks[task_id]["preference"])
        for row in attempts:
            used = json.loads(row["calls_per_tool"])
            breaks_format = (
                preference["answer_format"] == "json_confidence"
                and row["variant"] == "plain_answer"
            )
            forbidden = any(t in used for t in preference["forbidden_tools"])
            # over twice the hurry or cheap budget breaks the profile; a stated one binds exactly
            slack = 1.0 if preference.get("budget_stated") else BUDGET_SLACK
            over = (
                preference["max_latency_ms"] is not None
                and row["total_latency_ms"] > slack * preference["max_latency_ms"] + 1e-9
            ) or (
                preference["max_cost"] is not None
                and row["total_cost"] > slack * preference["max_cost"] + 1e-9
            )
            compliant = not forbidden and not breaks_format and not over
            assert row["preference_compliant"] == compliant, row["id"]
            if not row["preference_compliant"]:
                assert row["reward_preference"] == 0.0
        labels = {r["preference_compliant"] for r in attempts if r["verified"]}
        if preference["forbidden_tools"] and labels == {True, False}:
            flipped += 1
    assert flipped >= 3


def test_json_profile_gold_complies_and_plain_answer_does_not(dataset):
    tasks = {r["id"]: r for r in rows(dataset, "tasks")}
    json_tasks = [t for t in tasks.values() if t["preference_profile"] == "json_confidence"]
    assert json_tasks
    for task_id, attempts in by_task(dataset).items():
        if tasks[task_id]["preference_profile"] != "json_confidence":
            assert all(r["variant"] != "plain_answer" for r in attempts)
            continue
        variants = {r["variant"]: r for r in attempts}
        gold = variants["gold"]
        assert gold["verified"] and gold["preference_compliant"]
        # Its own answer is sure (1.0); a gold route that ends by asking an expert (the oracle's
        # choice on a fact question) relays the confidence the expert's reply states.
        last = gold["tool_calls"][-1] if gold["tool_calls"] else None
        relayed = last is not None and last["name"] == "ask_expert"
        sure = expert_confidence(last["output"]) if relayed else 1.0
        assert sure is not None and gold["stated_confidence"] == sure
        assert variants["plain_answer"]["verified"]
        assert not variants["plain_answer"]["preference_compliant"]


def test_run_json_reports_profiles_and_reward_distributions_per_domain(dataset):
    run = json.loads((dataset / "run.json").read_text())
    assert run["config"]["reward"]["w_e"] == 2.0
    # "all" is every installed domain: the bundled four and the tests' faulty fixture domain.
    assert set(DOMAINS) <= set(run["config"]["domains"]) == set(run["profiles"])
    assert sum(sum(c.values()) for c in run["profiles"].values()) == run["counts"]["sampled"]
    assert {p for c in run["profiles"].values() for p in c} == {
        "none",
        "hurry",
        "cheap",
        "avoid_tool",
        "json_confidence",
    }
    attempts = rows(dataset, "traces", "rejected")
    for domain in run["reward_distributions"]:
        report = run["reward_distributions"][domain]
        mine = [r for r in attempts if r["domain"] == domain]
        for component in (*COMPONENTS, "reward_group"):
            values = [r[component] for r in mine]
            assert report[component]["n"] == len(mine)
            assert report[component]["min"] == round(min(values), 6)
            assert report[component]["max"] == round(max(values), 6)
            assert report[component]["mean"] == pytest.approx(sum(values) / len(values), abs=1e-6)


def test_profiles_follow_the_configured_spread(tmp_path):
    out = tmp_path / "out"
    cli(
        "generate",
        "--domains",
        "all",
        "--num-tasks",
        "40",
        "--profiles",
        "hurry=1,avoid_tool=1",
        "--out",
        str(out),
    )
    run = json.loads((out / "run.json").read_text())
    drawn = defaultdict(int)
    for counts in run["profiles"].values():
        for profile, n in counts.items():
            drawn[profile] += n
    assert set(drawn) == {"hurry", "avoid_tool"}
    assert sum(drawn.values()) == run["counts"]["sampled"] >= 30
    assert min(drawn.values()) >= 8  # about half each
    tasks = rows(out, "tasks")
    hurry = [t for t in tasks if t["preference_profile"] == "hurry"]
    # the profile's sentence, in one of its wordings (a calm one for a polite or unsure caller),
    # ends the task's
    sayings = SAYINGS["hurry"] + CALM_HURRY
    stated = [t for t in hurry if json.loads(t["preference"]).get("budget_stated")]
    assert all(t["instruction"].endswith(sayings) for t in hurry if t not in stated)
    # a routed task's user states the time instead ("I need the answer within 2 seconds.")
    assert stated and all(t["family"] == "orchestration" for t in stated)
    assert all(
        t["instruction"].endswith(json.loads(t["preference"])["instruction"]) for t in stated
    )
    assert len({json.loads(t["preference"])["instruction"] for t in hurry}) >= 3
    # The domain part of each task is the same as with no preference at all: its instruction,
    # its state and the routes it admits. Which route is gold is the oracle's choice under the
    # task's preference (issue 22: a preference may change the best route), so the gold actions
    # are the same where the oracle picked the same route (always, in a domain with no routes).
    plain = tmp_path / "plain"
    cli(
        "generate",
        "--domains",
        "all",
        "--num-tasks",
        "40",
        "--profiles",
        "none",
        "--out",
        str(plain),
    )
    base = {(t["domain"], t["index"]): t for t in rows(plain, "tasks")}
    for task in tasks:
        other = base[(task["domain"], task["index"])]
        assert task["instruction"].startswith(other["instruction"])
        assert task["initial_state"] == other["initial_state"]
        names = [{r["name"] for r in t["route_table"]} for t in (task, other)]
        assert names[0] == names[1]
        assert bool(names[0]) == (task["family"] == "orchestration")
        if task["oracle_route"] == other["oracle_route"]:
            assert task["gold_actions"] == other["gold_actions"]


def test_validate_catches_a_changed_reward(dataset, tmp_path):
    out = tmp_path / "out"
    subprocess.run(["cp", "-r", str(dataset), str(out)], check=True)
    output = Output(out)
    shard = output.shards("traces")[0]
    table = pq.read_table(shard).to_pylist()
    table[0]["reward_total"] += 0.5
    output.write_shard("traces", shard.stem, table)
    result = cli("validate", str(out), check=False)
    assert result.returncode == 1
    assert table[0]["id"] in result.stderr.splitlines()[-1]
    assert "reward_total" in result.stderr
