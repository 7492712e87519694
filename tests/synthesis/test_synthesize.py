"""End to end against the scripted loopback server: each defect lands in `rejected_tasks` at its
stage, valid candidates are accepted with their provenance, `--resume` sends no request, the
funnel is the counts of the rows, `generate --tasks-from` plays the accepted tasks and `validate`
passes, and tampered gold actions are caught."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.synthesis.scripted import SynthesisPlans, fits, mix, sampled, valid
from tests.teachers.fake_openai import fake_openai
from toolscale.cli.main import app
from toolscale.core.registry import get_domain
from toolscale.synthesize.candidates import Candidate
from toolscale.write.output import Output

pytestmark = pytest.mark.slow  # ~1 min: several synthesize runs, K solver attempts each

DOMAIN = "railway"
K = 2
KINDS = (
    "read",
    "write",
    "unknown_tool",
    "bad_args",
    "raises",
    "no_change",
    "trivial",
    "malformed",
    "contaminated",
    "unsolved",
)


def plan_cases() -> list[str]:
    """Case kinds by intent index: each kind of KINDS once, at an index whose sampled task fits
    it; indexes that fit no kind still needed are malformed answers."""
    cases: list[str] = []
    wanted = list(KINDS)
    index = 0
    while wanted:
        kind = next((k for k in wanted if fits(DOMAIN, k, index)), "malformed")
        if kind in wanted:
            wanted.remove(kind)
        cases.append(kind)
        index += 1
    return cases


def tau2_copy(folder: Path, index: int) -> None:
    """A tau2-format task file holding a copy of case `index` (as another dataset would)."""
    task = valid(DOMAIN, 0, index)
    folder.mkdir(parents=True)
    record = {
        "id": "copied",
        "user_scenario": {
            "instructions": {
                "domain": DOMAIN,
                "reason_for_call": task["reason_for_call"],
                "known_info": Candidate.model_validate(task).scenario().known_info,
                "task_instructions": task.get("task_instructions", ""),
            }
        },
        "evaluation_criteria": {"actions": [{"action_id": "a", **a} for a in task["actions"]]},
    }
    (folder / "tasks.json").write_text(json.dumps([record]))


def rows(out: Path, config: str) -> list[dict]:
    return [row for _, row in Output(out).read_rows(config)]


def synthesize(server, out: Path, *extra: str):
    args = ["synthesize", "--domains", DOMAIN, "--base-url", server.base_url, "--model", "fake"]
    args += ["--solver-attempts", str(K), "--out", str(out), "--retry-base", "0.01", *extra]
    args += ["--user", "scripted"]  # the scripted solver turns answer the scripted user
    return CliRunner().invoke(app, args, env={"OPENAI_API_KEY": "sk-test"})


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    cases = plan_cases()
    near = cases.index("read")
    twin = json.loads(json.dumps(valid(DOMAIN, 0, near)))
    twin["opening"] += " Thanks!"
    plans = SynthesisPlans(DOMAIN, 0, cases, evolved={near: json.dumps(twin)})
    root = tmp_path_factory.mktemp("synth")
    tau2 = root / "tau2"
    tau2_copy(tau2, cases.index("contaminated"))
    out = root / "out"
    with fake_openai(plans) as server:
        args = ("--num-tasks", str(len(cases)), "--intents-per-request", str(len(cases)))
        args += ("--evolve", "1", "--decontaminate", str(tau2))
        first = synthesize(server, out, *args)
        sent = plans.requests
        stages = dict(plans.stages)
        before = [rows(out, c) for c in ("tasks", "rejected_tasks")]
        again = synthesize(server, out, *args, "--resume")
        resent = plans.requests - sent
        assert [rows(out, c) for c in ("tasks", "rejected_tasks")] == before
    return cases, out, first, again, stages, resent, near


def test_each_defect_is_rejected_at_its_stage(run):
    cases, out, first, _, _, _, near = run
    assert first.exit_code == 0, first.output
    stage_of = {
        "unknown_tool": "format",
        "bad_args": "format",
        "raises": "execution",
        "no_change": "execution",
        "trivial": "facts",  # a question with no fact: named before the solver
        "malformed": "parse",
        "contaminated": "contaminated",
        "unsolved": "solver",
    }
    rejected = {r["index"]: r for r in rows(out, "rejected_tasks")}
    for index, kind in enumerate(cases):
        if kind in stage_of:
            assert rejected[index]["stage"] == stage_of[kind], (kind, rejected[index]["reasons"])
    assert "unknown tool 'no_such_tool'" in " ".join(
        rejected[cases.index("unknown_tool")]["reasons"]
    )
    n = len(cases)
    # The evolved twin of a valid task is a near-duplicate of it; other evolve answers are no JSON.
    assert rejected[n + near]["stage"] == "duplicate"
    assert rejected[n + near]["reasons"] == [f"near-duplicate of candidate {near}"]
    assert rejected[cases.index("unsolved")]["reasons"][0].startswith("outcome:")


def test_valid_candidates_are_accepted_with_provenance(run):
    cases, out, _, _, _, _, _ = run
    tasks = {r["index"]: r for r in rows(out, "tasks")}
    assert sorted(tasks) == sorted(i for i, k in enumerate(cases) if k in ("read", "write"))
    for index, row in tasks.items():
        provenance = json.loads(row["provenance"])
        assert row["template"] == "synthesized"
        assert provenance["source"] == "synthesize" and provenance["model"] == "openai:fake"
        assert provenance["intent"] == f"intent-{index}"
        assert provenance["filters"]["solver"] == {"passes": K, "attempts": K, "band": False}
        assert provenance["filters"]["decontamination"] == "passed"
        scenario = json.loads(row["user_scenario"])
        assert row["instruction"] == scenario["opening"]
        expected = sampled(DOMAIN, 0, index)
        assert json.loads(row["gold_actions"]) == [a.as_dict() for a in expected.gold_actions]


def test_funnel_counts_the_rows(run):
    cases, out, _, _, _, _, _ = run
    summary = json.loads((out / "run.json").read_text())
    yields = summary["synthesis"]["yields"]
    rejected = rows(out, "rejected_tasks")
    accepted = len(rows(out, "tasks"))
    early = ("unknown_tool", "bad_args", "raises", "no_change", "malformed", "trivial")
    evolved = sum(k not in early for k in cases)
    assert yields["proposed"] == len(cases) + evolved == len(rejected) + accepted
    assert yields["solvable"] == accepted == 2
    by_stage: dict[str, int] = {}
    for r in rejected:
        by_stage[r["stage"]] = by_stage.get(r["stage"], 0) + 1
    assert yields["rejected_by_stage"] == by_stage
    assert yields["well_formed"] == yields["proposed"] - by_stage["parse"] - by_stage["format"]
    assert yields["unique"] == accepted + by_stage["solver"]
    assert yields["passes"] == {f"{K}/{K}": 2, f"0/{K}": 1}
    card = (out / "README.md").read_text()
    assert f"| proposed | {yields['proposed']} | 100% |" in card
    assert "config_name: rejected_tasks" in card
    assert "sk-test" not in (out / "run.json").read_text() + card
    assert summary["synthesis"]["models"] == {"proposer": "openai:fake", "solver": "openai:fake"}
    (out / "README.md").unlink()
    assert CliRunner().invoke(app, ["card", str(out)]).exit_code == 0  # the card command too
    assert (out / "README.md").read_text() == card


def test_resume_sends_no_request_and_gives_the_same_rows(run):
    _, out, _, again, stages, resent, _ = run
    assert again.exit_code == 0, again.output
    assert resent == 0
    assert stages["intents"] == 1 and stages["solver"] > 0
    summary = json.loads((out / "run.json").read_text())
    proposer = summary["endpoints"]["proposer"]
    assert proposer["requests"] == 0 and proposer["cached"] == sum(
        stages[s] for s in ("intents", "task", "evolve")
    )
    assert summary["synthesis"]["cost"]["requests_sent"] == 0


def test_tasks_from_plays_and_validates_and_tampering_is_caught(run, tmp_path):
    _, out, _, _, _, _, _ = run
    played = tmp_path / "played"
    result = CliRunner().invoke(
        app, ["generate", "--tasks-from", str(out), "--out", str(played), "--domains", DOMAIN]
    )
    assert result.exit_code == 0, result.output
    task_rows = rows(played, "tasks")
    assert len(task_rows) == 2 and len(rows(played, "traces")) == 2
    assert {r["template"] for r in task_rows} == {"synthesized"}
    checked = CliRunner().invoke(app, ["validate", str(played)])
    assert checked.exit_code == 0, checked.output
    checked = CliRunner().invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0, checked.output
    # Tamper with the gold actions of one stored synthesized task: validate names it.
    path = Output(played).shards("tasks")[0]
    table = pq.read_table(path)
    data = table.to_pylist()
    specs = get_domain(DOMAIN).toolkit.specs()
    row = next(r for r in data if is_write_row(r, specs))
    actions = json.loads(row["gold_actions"])
    last_write = max(i for i, a in enumerate(actions) if specs[a["name"]].kind.value == "write")
    row["gold_actions"] = json.dumps(actions[:last_write] + actions[last_write + 1 :])
    pq.write_table(pa.Table.from_pylist(data, schema=table.schema), path)
    checked = CliRunner().invoke(app, ["validate", str(played)])
    assert checked.exit_code == 1
    line = next(x for x in checked.output.splitlines() if x.startswith(row["id"]))
    assert "expected_state_hash" in line


def is_write_row(row: dict, specs: dict) -> bool:
    return any(specs[a["name"]].kind.value == "write" for a in json.loads(row["gold_actions"]))


def test_budget_stops_with_exit_3_and_resume_completes_the_same_run(tmp_path):
    cases = mix(DOMAIN, 3, ("write", "read"))
    plans = SynthesisPlans(DOMAIN, 0, cases)
    price = ("--teacher-price-in", "1000000", "--num-tasks", "3")  # $1 per prompt token
    with fake_openai(plans) as server:
        stopped = synthesize(server, tmp_path / "out", *price, "--max-cost-usd", "1")
        summary = json.loads((tmp_path / "out" / "run.json").read_text())
        resumed = synthesize(server, tmp_path / "out", *price, "--resume")
        whole = synthesize(server, tmp_path / "whole", *price)
    assert stopped.exit_code == 3, stopped.output
    assert summary["status"] == "budget_exhausted" and "--max-cost-usd 1" in summary["stop_reason"]
    assert resumed.exit_code == 0 and whole.exit_code == 0, resumed.output + whole.output
    for config in ("tasks", "rejected_tasks"):
        assert rows(tmp_path / "out", config) == rows(tmp_path / "whole", config)
    assert len(rows(tmp_path / "whole", "tasks")) >= 1
