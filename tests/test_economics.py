"""The economics a policy cannot game: the scripted gaming policies never beat the gold route,
pasted answers fail, prices are validated and tampering is caught."""

from __future__ import annotations

import json
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from toolscale.check.reward_check import passed, tabulate
from toolscale.economics.prices import BUILTIN, parse_schedules, price_call
from toolscale.judge.rewards import RewardConfig, efficiency_reward
from toolscale.judge.verify import PASTE_MIN
from toolscale.tools.experts import CANNOT

DOMAINS = ["math", "knowledge", "bank", "railway"]
PROFILES = {"none", "hurry", "cheap", "avoid_tool", "json_confidence"}


@pytest.fixture(scope="module")
def gaming_rows():
    from toolscale.check.reward_check import default_check

    return default_check(DOMAINS, 40)


@pytest.mark.slow
def test_no_gaming_policy_ever_wins_in_any_domain_and_profile(gaming_rows):
    table = tabulate(gaming_rows)
    cells = {(c["domain"], c["profile"]) for c in table}
    assert cells == {(d, p) for d in DOMAINS for p in PROFILES}  # every cell was played
    for cell in table:
        means = cell["mean_reward_total"]
        gaming = {k: v for k, v in means.items() if k.startswith("gaming:")}
        assert len(gaming) >= 4, cell  # paste, every tool, repeat, no tools at least
        assert all(v < means["gold"] for v in gaming.values()), cell
        assert cell["gaming_best"] == 0 and cell["gaming_best_group"] == 0, cell
        assert cell["gold_best"] == 1.0, cell
    assert passed(table)


def test_under_cheap_the_cheapest_correct_attempt_wins_or_a_faster_one_in_budget(gaming_rows):
    """Asked for cheap, the best attempt is the cheapest correct one; where the user stated a
    budget ("keep it under 1 cent": math and knowledge), a dearer one within it may win by being
    faster, never by being slower."""
    groups: dict[str, list[dict]] = {}
    for row in gaming_rows:
        if row["preference_profile"] == "cheap":
            groups.setdefault(row["task_id"], []).append(row)
    assert groups
    for rows in groups.values():
        correct = [r for r in rows if r["verified"]]
        cheapest = min(correct, key=lambda r: r["total_cost"])
        best = max(rows, key=lambda r: r["reward_total"])
        if best["reward_total"] > cheapest["reward_total"] + 1e-9:
            assert best["domain"] in ("math", "knowledge"), best["domain"]
            assert best["verified"] and best["preference_compliant"]
            assert best["total_latency_ms"] < cheapest["total_latency_ms"]


def test_the_expert_policies_are_played_where_experts_exist(gaming_rows):
    played = {(r["domain"], r["variant"]) for r in gaming_rows}
    for domain in ("math", "knowledge"):
        assert {(domain, "gaming:ask_blank"), (domain, "gaming:expert_does_all")} <= played
    blank = [r for r in gaming_rows if r["variant"] == "gaming:ask_blank"]
    assert blank and all(r["final_answer"].endswith(CANNOT) or not r["verified"] for r in blank)
    assert not any(r["verified"] for r in blank)


def test_pasting_every_tool_result_is_rejected_at_the_outcome_stage(gaming_rows):
    pasted = [r for r in gaming_rows if r["variant"] == "gaming:paste_outputs"]
    # Not played where the gold route relays one expert's reply: pasting it is that route.
    relays = {
        r["task_id"]
        for r in gaming_rows
        if r["variant"] == "gold" and [c["name"] for c in r["tool_calls"]] == ["ask_expert"]
    }
    # Nor where it makes one call whose whole result is shorter than PASTE_MIN (a program's
    # printed "1309"): pasting that is the answer, bare, as a JSON answer's field may be.
    answering = {
        r["task_id"]
        for r in gaming_rows
        if r["variant"] == "gold"
        and len(r["tool_calls"]) == 1
        and len("".join(r["tool_calls"][0]["output"].split())) < PASTE_MIN
    }
    assert len(pasted) == 160 - len(relays | answering) and relays
    assert all(r["failure_stage"] == "outcome" for r in pasted)
    long_results = [r for r in pasted if any(len(c["output"]) >= 24 for c in r["tool_calls"])]
    assert long_results and all(
        any("pastes the result" in reason for reason in r["failure_reasons"]) for r in long_results
    )


def test_a_pasted_pair_of_answers_is_no_answer():
    from toolscale.core.contract import answer_matches

    assert answer_matches("42", "The answer is 42.")
    assert not answer_matches("42", "The answer is 41. The answer is 42.")
    assert not answer_matches("42", "41\n42\n43")
    assert not answer_matches("42", "The answer is 41 or 42.")


def test_efficiency_is_relative_to_the_gold_route_and_bounded():
    config = RewardConfig()
    # gold itself: -0.08 * 1 - 0.08 * 1
    assert efficiency_reward(3, 0, 0.002, 900.0, 0.002, 900.0, config) == pytest.approx(-0.16)
    # 1.5x the cost and 2x the latency: -0.08 * 1.5 - 0.08 * 2 = -0.28
    assert efficiency_reward(4, 0, 0.003, 1800.0, 0.002, 900.0, config) == pytest.approx(-0.28)
    # 100x both is capped at 5x: -0.4 - 0.4
    assert efficiency_reward(1, 0, 0.2, 90000.0, 0.002, 900.0, config) == pytest.approx(-0.8)
    # the same route choice scores the same under any schedule scale (seed's table is ~1000x)
    assert efficiency_reward(4, 0, 3.0, 1800.0, 2.0, 900.0, config) == pytest.approx(-0.28)


def test_a_call_is_priced_in_dollars_from_the_table():
    table = {
        "calculator": {"fee": 0.00001, "latency_ms": 10.0},
        "ask_expert": {},
        "expert-1": {"input_per_m": 1.25, "output_per_m": 10.0, "latency_ms": 800.0,
                     "ms_per_token": 15.0},
        "code_executor": {"fee": 0.0001, "latency_ms": 300.0, "ms_per_token": 0.5,
                          "per_second": 0.0002},
    }  # fmt: skip
    assert price_call(table, "calculator", "36") == (0.00001, 10.0)
    # 100 prompt tokens at $1.25/1M + 2000 completion at $10/1M = 0.000125 + 0.02
    # latency 800 + 15 * 2000 = 30800 ms
    assert price_call(table, "ask_expert", "The answer is 4.", "expert-1", 100, 2000) == (
        pytest.approx(0.020125),
        30800.0,
    )
    # 8 characters of output are 2 tokens: 300 + 0.5 * 2 = 301 ms; 0.0001 + 0.0002 * 0.301
    assert price_call(table, "code_executor", "12345678") == (pytest.approx(0.0001602), 301.0)


def test_every_builtin_schedule_keeps_experts_dearer_than_a_search():
    for schedule in BUILTIN.values():
        one = schedule.models["expert-1"]
        cheapest_answer = one.get("fee", 0) + 2000 * one.get("output_per_m", 0) / 1e6
        search = schedule.tools.get("search", {"fee": 0.005})["fee"]
        assert cheapest_answer > 3 * search * (1 if schedule.name != "seed" else 0.5), schedule


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *args], capture_output=True, text=True, timeout=300
    )


def _one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), lines
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.slow
def test_bad_price_settings_fail_before_anything_is_written(tmp_path):
    out = tmp_path / "o"
    _one_line_error(
        cli("generate", "--num-tasks", "4", "--price-schedules", "cheapest", "--out", str(out)),
        "unknown price schedule 'cheapest'",
    )
    negative = tmp_path / "neg.yaml"
    negative.write_text(
        "name: neg\ndescription: broken\nmodels: {}\norchestrator: {input_per_m: -1}\n"
    )
    _one_line_error(
        cli("generate", "--num-tasks", "4", "--price-schedules", str(negative), "--out", str(out)),
        "price schedule",
        ">= 0",
    )
    for value in ("1", "-0.1", "1.5"):
        _one_line_error(
            cli("generate", "--num-tasks", "4", "--tool-dropout", value, "--out", str(out)),
            "--tool-dropout must be in [0, 1)",
        )
    assert not out.exists()


def test_a_schedule_file_is_read_and_named(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(
        "name: mine\ndescription: test\nmodels: {expert-1: {output_per_m: 1}}\n"
        "orchestrator: {input_per_m: 0.1}\n"
    )
    assert [s.name for s in parse_schedules(f"standard,{path}")] == ["standard", "mine"]


@pytest.mark.slow
def test_validate_catches_a_tampered_price_table_and_cost(tmp_path):
    out = tmp_path / "o"
    result = cli(
        "generate", "--domains", "math,bank", "--num-tasks", "4", "--detours", "--tool-dropout",
        "0.3", "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert cli("validate", str(out)).returncode == 0
    shard = sorted((out / "data" / "tasks").glob("math-*.parquet"))[0]
    table = pq.read_table(shard)
    rows = table.to_pylist()
    prices = json.loads(rows[0]["prices"])
    tool = json.loads(rows[0]["gold_actions"])[0]["name"]  # offered whatever the dropout drew
    prices[tool]["fee"] += 1.0
    rows[0]["prices"] = json.dumps(prices, sort_keys=True, separators=(",", ":"))
    pq.write_table(type(table).from_pylist(rows, schema=table.schema), shard)
    tampered = cli("validate", str(out))
    assert (
        tampered.returncode == 1
        and "task differs from its rebuild in prices" in tampered.stdout + tampered.stderr
    )
    pq.write_table(table, shard)  # restore, then tamper with a trace's cost
    shard = sorted((out / "data" / "traces").glob("bank-*.parquet"))[0]
    table = pq.read_table(shard)
    rows = table.to_pylist()
    rows[0]["total_cost"] = rows[0]["total_cost"] / 2
    pq.write_table(type(table).from_pylist(rows, schema=table.schema), shard)
    tampered = cli("validate", str(out))
    assert tampered.returncode == 1 and "stored metrics differ" in tampered.stdout + tampered.stderr
