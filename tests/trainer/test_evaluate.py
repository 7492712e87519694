"""`toolscale-train evaluate`: the reference rows recomputed from generation's own traces, a
loopback endpoint and a tiny checkpoint that replay the oracle route score as the oracle row, and
bad input answered with one line."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import datasets
import pytest

import trainer.checkpoint_rollouts as rollouts_module
from tests.teachers.fake_openai import FakeOpenAI, Plans
from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from trainer.evaluate import EvaluateArguments, evaluation
from trainer.model import load

pytestmark = pytest.mark.slow  # module fixtures that generate and play outputs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    """Math and knowledge tasks, every route of each played by the reference teacher."""
    out = tmp_path_factory.mktemp("evaluate") / "data"
    generate(GenerateConfig(domains=["math", "knowledge"], num_tasks=24, out=out, detours=True))
    return out


def rows(dataset: Path, config: str) -> list[dict]:
    return list(datasets.load_dataset(str(dataset), config, split="train"))


def ids_file(path: Path, ids: list[str]) -> str:
    path.write_text("".join(f"{i}\n" for i in ids))
    return str(path)


def admits(task: dict, route: str) -> bool:
    return any(s["name"] == route and not s["detour"] for s in task["route_table"])


def test_always_calculator_is_what_its_played_traces_give(dataset, tmp_path, capfd):
    """The row of `always calculator` on math tasks that admit it, recomputed from the traces
    generation wrote for that route (variant "calculator", or "gold" where it is the oracle)."""
    tasks = [t for t in rows(dataset, "tasks") if t["domain"] == "math" and admits(t, "calculator")]
    assert len(tasks) >= 4
    tasks = tasks[:4]
    attempts = rows(dataset, "traces") + rows(dataset, "rejected")
    played = []
    for task in tasks:
        variant = "gold" if task["oracle_route"] == "calculator" else "calculator"
        (trace,) = [a for a in attempts if a["task_id"] == task["id"] and a["variant"] == variant]
        played.append(trace)
    options = EvaluateArguments(
        dataset=str(dataset), tasks_from=ids_file(tmp_path / "ids", [t["id"] for t in tasks])
    )
    said: list[str] = []
    table = evaluation(options, warn=said.append)  # the caller says the warning, or not
    assert said == [table.about["small_sample_warning"]] and "only 4 tasks" in said[0]
    assert "warning" not in capfd.readouterr().err
    row = table.row("always calculator")
    solved = [p for p in played if p["verified"]]
    assert row.tasks == 4 and row.solved == len(solved)
    assert row.usd_per_solved == pytest.approx(sum(p["total_cost"] for p in played) / len(solved))
    assert row.mean_reward == pytest.approx(sum(p["reward_total"] for p in played) / 4)
    assert row.mean_latency_ms == pytest.approx(sum(p["total_latency_ms"] for p in played) / 4)
    assert row.oracle_route_share == sum(t["oracle_route"] == "calculator" for t in tasks) / 4
    oracle = table.row("oracle")
    assert oracle.success == 1.0 and oracle.oracle_route_share == 1.0
    assert oracle.mean_reward == pytest.approx(sum(t["oracle_reward"] for t in tasks) / 4)
    assert row.share_of_oracle == pytest.approx(row.mean_reward / oracle.mean_reward)


def test_the_router_baseline_row_stands_beside_the_oracle_and_fixed_routes(dataset, tmp_path):
    """On 6 tasks: the router baseline (trained on the dataset's tasks, in-sample with --split
    all) and the expected-reward oracle are rows of the table, each attempt one of the routes
    the task admits, scored as the route table scores it (or, for a route it lacks, declined)."""
    tasks = rows(dataset, "tasks")
    picked = [t for t in tasks if t["domain"] == "math"][:3]
    picked += [t for t in tasks if t["domain"] == "knowledge"][:3]
    options = EvaluateArguments(
        dataset=str(dataset), tasks_from=ids_file(tmp_path / "ids", [t["id"] for t in picked])
    )
    table = evaluation(options)
    kinds = {r.policy: r.kind for r in table.rows}
    assert kinds["oracle"] == "oracle" and kinds["router baseline"] == "baseline"
    assert kinds["expected oracle"] == "expected" and kinds["always calculator"] == "fixed"
    assert table.about["router"]["training_tasks"] == len(tasks)
    assert table.about["router"]["in_sample"] == 6
    expected = table.row("expected oracle")
    played = [
        next(s["reward_total"] for s in t["route_table"] if s["name"] == t["expected_route"])
        for t in picked
    ]
    assert expected.mean_reward == pytest.approx(sum(played) / 6)
    router_row = table.row("router baseline")
    assert router_row.tasks == 6
    by_id = {t["id"]: t for t in picked}
    for attempt in table.attempts["router baseline"]:
        scores = {
            s["reward_total"] for s in by_id[attempt.task_id]["route_table"] if not s["detour"]
        }
        # a route the task admits, scored as its route table scores it, or the declined attempt
        played_one = any(attempt.reward_total == pytest.approx(v) for v in scores)
        assert played_one or (not attempt.verified and attempt.route == "no_tool")
    assert "| router baseline |" in table.to_markdown()
    # the competence router: a kind of router, learnt from at most 48 of the tasks, each of its
    # attempts one of the routes the task admits, scored as the route table scores it
    assert kinds["competence router"] == "baseline"
    assert table.about["router"]["competence_tasks"] == min(48, len(tasks))
    for attempt in table.attempts["competence router"]:
        scores = [s for s in by_id[attempt.task_id]["route_table"] if not s["detour"]]
        assert any(attempt.reward_total == pytest.approx(s["reward_total"]) for s in scores)
    profiles = {json.loads(t["preference"])["profile"] for t in picked}
    assert set(table.row("competence router").profile_routes) == profiles
    assert "Route shares per preference profile" in table.to_markdown()


def test_a_fixed_route_declines_a_task_that_does_not_admit_it(dataset, tmp_path):
    tasks = rows(dataset, "tasks")
    coded = next(t for t in tasks if admits(t, "code_executor"))
    other = next(t for t in tasks if t["domain"] == "knowledge")
    assert not admits(other, "code_executor")
    chosen = ids_file(tmp_path / "ids", [coded["id"], other["id"]])
    table = evaluation(EvaluateArguments(dataset=str(dataset), tasks_from=chosen))
    by_task = {a.task_id: a for a in table.attempts["always code_executor"]}
    declined = by_task[other["id"]]
    assert not declined.verified and declined.route == "no_tool"
    # It called nothing: it paid only for writing its answer, far below the cheapest call.
    assert 0 < declined.total_cost < 1e-5
    assert by_task[coded["id"]].route == "code_executor"
    assert table.about["fixed_routes_admitted"]["code_executor"] == 1
    oracle = {a.task_id: a.reward_total for a in table.attempts["oracle"]}
    assert oracle == pytest.approx({t["id"]: t["oracle_reward"] for t in (coded, other)})


def gold_plans(dataset: Path, ids: set[str]) -> dict[str, list[dict]]:
    """Endpoint turns that replay each task's gold (oracle) trace: its calls (their argument text
    as the trace holds it), then its answer."""
    plans = {}
    for trace in rows(dataset, "traces"):
        if trace["task_id"] not in ids or trace["variant"] != "gold":
            continue
        messages = trace["messages"]
        instruction = next(m["content"] for m in messages if m["role"] == "user")
        turns = [
            {"calls": [(c["name"], c["arguments"]) for c in m["tool_calls"]]}
            if m["tool_calls"]
            else {"content": m["content"]}
            for m in messages
            if m["role"] == "assistant"
        ]
        plans[instruction] = turns
    return plans


def assert_scores_as_the_oracle(table, label: str) -> None:
    played, oracle = table.row(label), table.row("oracle")
    assert played.success == 1.0 and played.oracle_route_share == 1.0
    assert played.mean_reward == pytest.approx(oracle.mean_reward, abs=1e-9)
    assert played.usd_per_solved == pytest.approx(oracle.usd_per_solved, rel=1e-9)
    assert played.mean_latency_ms == pytest.approx(oracle.mean_latency_ms, rel=1e-9)
    assert played.confusion == {c: {c: n} for c, n in sorted(table.oracle_shares().items())}


def test_an_endpoint_replaying_the_oracle_routes_scores_as_the_oracle(
    dataset, tmp_path, monkeypatch
):
    tasks = rows(dataset, "tasks")[:6]
    ids = {t["id"] for t in tasks}
    plans = Plans(gold_plans(dataset, ids))
    assert len(plans.turns) == 6
    monkeypatch.setenv("EVAL_KEY", "sk-loopback")
    with FakeOpenAI(plans) as server:
        options = EvaluateArguments(
            dataset=str(dataset),
            tasks_from=ids_file(tmp_path / "ids", sorted(ids)),
            base_url=server.base_url,
            model="replayer",
            api_key_env="EVAL_KEY",
            max_turns=8,
        )
        table = evaluation(options)
    assert_scores_as_the_oracle(table, "endpoint replayer")
    assert len({a.oracle for a in table.attempts["oracle"]}) >= 3  # several route classes
    # The probe, then one request per turn of every task.
    assert (plans.probes, plans.requests) == (1, sum(len(t) for t in plans.turns.values()))
    assert plans.authorizations == {"Bearer sk-loopback"}


def test_a_call_to_a_tool_the_task_lacks_is_its_own_route_class(dataset, tmp_path, monkeypatch):
    task = rows(dataset, "tasks")[0]
    turns = gold_plans(dataset, {task["id"]})
    plans = Plans(turns, faults={instruction: "unknown_tool" for instruction in turns})
    monkeypatch.setenv("EVAL_KEY", "k")
    with FakeOpenAI(plans) as server:
        options = EvaluateArguments(
            dataset=str(dataset),
            tasks_from=ids_file(tmp_path / "ids", [task["id"]]),
            base_url=server.base_url,
            model="m",
            api_key_env="EVAL_KEY",
            max_turns=8,
            reference_rows=False,
        )
        table = evaluation(options)
    (attempt,) = table.attempts["endpoint m"]
    assert attempt.route == "unknown_tool" and not attempt.verified
    assert [r.policy for r in table.rows] == ["endpoint m"]


@pytest.fixture(scope="module")
def tiny_checkpoint(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("tiny") / "checkpoint"
    model, tokenizer = load("tiny-random")
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_a_checkpoint_replaying_the_oracle_routes_scores_as_the_oracle(
    dataset, tiny_checkpoint, tmp_path, monkeypatch
):
    """The checkpoint's decoder is scripted to write each gold turn in the Qwen3 format; parsing,
    the sandbox, the judge and the table are real."""
    tasks = rows(dataset, "tasks")[:6]
    plans = gold_plans(dataset, {t["id"] for t in tasks})
    _, tokenizer = load(str(tiny_checkpoint))

    def continuation(model, prompts, stop_ids, pad_id, max_new_tokens, *args, **kw):
        replies = []
        for ids in prompts:
            text = tokenizer.decode(ids)
            turns = next(p for instruction, p in plans.items() if instruction in text)
            turn = turns[text.count("<|im_start|>assistant") - 1]  # the prompt opens one
            if "calls" in turn:
                reply = "".join(
                    f'<tool_call>\n{{"name": "{n}", "arguments": {a}}}\n</tool_call>'
                    for n, a in turn["calls"]
                )
            else:
                reply = turn["content"]
            replies.append(tokenizer.encode(reply + "<|im_end|>", add_special_tokens=False))
        return replies

    monkeypatch.setattr(rollouts_module, "continue_prompts", continuation)
    options = EvaluateArguments(
        dataset=str(dataset),
        tasks_from=ids_file(tmp_path / "ids", [t["id"] for t in tasks]),
        model=str(tiny_checkpoint),
        label="scripted",
        max_turns=8,
    )
    assert_scores_as_the_oracle(evaluation(options), "scripted")


def evaluate_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trainer.cli", "evaluate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )


def test_the_command_evaluates_a_checkpoint_and_writes_both_tables(
    dataset, tiny_checkpoint, tmp_path
):
    out = tmp_path / "table"
    result = evaluate_cli(
        "--dataset", str(dataset), "--model", str(tiny_checkpoint), "--max_tasks", "4",
        "--max_new_tokens", "12", "--max_turns", "2", "--output_dir", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    body = json.loads((out / "evaluation.json").read_text())
    assert (out / "evaluation.md").read_text() in result.stdout
    policy = body["rows"][0]
    assert policy["policy"] == "checkpoint" and policy["kind"] == "policy"
    attempts = body["attempts"]["checkpoint"]
    assert len(attempts) == 4 == policy["tasks"] == len(body["task_ids"])
    drawn = [t for t in rows(dataset, "tasks") if t["id"] in body["task_ids"]]
    names = {s["name"] for t in drawn for s in t["route_table"] if not s["detour"]}
    assert len(names) >= 3  # several routes drawn, so the row set below is a real check
    assert {r["policy"] for r in body["rows"]} == {
        "checkpoint", "oracle", "expected oracle", "router baseline", "competence router",
        "always cheapest", "always dearest", *(f"always {name}" for name in names),
    }  # fmt: skip
    assert policy["mean_reward"] == pytest.approx(sum(a["reward_total"] for a in attempts) / 4)
    assert sum(sum(c.values()) for c in policy["confusion"].values()) == 4
    assert {t["domain"] for t in drawn} == {"math", "knowledge"}  # from every domain


def assert_one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error:"), last
    for word in words:
        assert word in last, last


def test_an_unknown_dataset_folder_is_one_line(tmp_path):
    result = evaluate_cli("--dataset", str(tmp_path / "nope"), "--output_dir", str(tmp_path / "o"))
    assert_one_line_error(result, "nope", "not a toolscale output")
    assert not (tmp_path / "o").exists()


def test_a_competence_router_of_no_tasks_is_one_line(tmp_path):
    result = evaluate_cli(
        "--dataset", str(tmp_path), "--competence_tasks", "0", "--output_dir", str(tmp_path / "o")
    )  # fmt: skip
    assert_one_line_error(result, "--competence_tasks 0", "at least 1")
    assert not (tmp_path / "o").exists()


def test_a_split_without_tasks_is_one_line(dataset, tmp_path):
    result = evaluate_cli(
        "--dataset", str(dataset), "--split", "heldout", "--heldout_fraction", "1e-12",
        "--output_dir", str(tmp_path / "o"),
    )  # fmt: skip
    assert_one_line_error(result, "no tasks", "heldout")
    assert not (tmp_path / "o").exists()


def test_an_endpoint_that_does_not_answer_is_one_line(dataset, tmp_path):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "EVAL_KEY": "x"}
    result = evaluate_cli(
        "--dataset", str(dataset), "--base_url", f"http://127.0.0.1:{port}/v1",
        "--model", "m", "--api_key_env", "EVAL_KEY", "--output_dir", str(tmp_path / "o"),
    env=env)  # fmt: skip
    assert_one_line_error(result, "does not answer", str(port))
    assert not (tmp_path / "o").exists()
