"""A rollout's route class is the oracle's name for the route it took, and GRPO's metrics rows
carry the share of each class among the rollouts of that step."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from toolscale.stats.routes import route_class
from trainer.callbacks import MetricsRecorder
from trainer.route_mix import RouteMix


def ask(expert: str, as_text: bool = False):
    arguments = {"expert": expert, "question": "What is 2+2?"}
    return ("ask_expert", json.dumps(arguments) if as_text else arguments)


def test_route_class_names_routes_as_the_oracle_does():
    search, calc = ("search", {"query": "a"}), ("calculator", {"expression": "1+1"})
    assert route_class([search, search, calc]) == "search+calculator"
    assert route_class([ask("expert-3", as_text=True)]) == "expert-3"
    assert route_class([ask("expert-3"), ask("expert-1")]) == "expert-3+expert-1"
    assert route_class([ask("expert-2"), search]) == "expert-2+search"
    assert route_class([calc, calc]) == "calculator"  # a retry is its route's class
    assert route_class([]) == "no_tool"
    assert route_class([("ask_expert", "{not json")]) == "ask_expert"
    assert route_class([ask("x" * 200)]) == "ask_expert"  # no arbitrary text in a metric name
    bank = [("find_customer", {}), ("find_customer", {}), ("block_card", {})]
    assert route_class(bank) == "find_customer+block_card"


def labels(*routes):
    return [{"tool_calls": [{"name": n, "arguments": a} for n, a in calls]} for calls in routes]


def test_route_shares_per_logged_step_sum_to_one(tmp_path):
    mix = RouteMix()
    recorder = MetricsRecorder(str(tmp_path), mix.take)
    state = SimpleNamespace(is_world_process_zero=True, global_step=1)
    calc = [("calculator", {"expression": "1+1"})]
    mix(1, [], [], labels(calc, calc, [], [ask("expert-1")]))
    recorder.on_log(None, state, None, logs={"reward": 0.5})
    state.global_step = 2
    mix(2, [], [], labels(calc, [ask("expert-1")]))
    mix(2, [], [], labels([ask("expert-1")], [ask("expert-1")]))  # two batches, one step
    recorder.on_log(None, state, None, logs={"reward": 0.7})
    recorder.on_log(None, state, None, logs={"train_runtime": 1.0})  # no new rollouts
    rows = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    shares = [{k: v for k, v in r.items() if k.startswith("toolscale/route/")} for r in rows]
    assert shares == [
        {
            "toolscale/route/calculator": 0.5,
            "toolscale/route/expert-1": 0.25,
            "toolscale/route/no_tool": 0.25,
        },
        {"toolscale/route/calculator": 0.25, "toolscale/route/expert-1": 0.75},
        {},
    ]
    assert rows[0]["reward"] == 0.5 and rows[1]["step"] == 2


def test_only_the_main_process_counts():
    mix = RouteMix(main_process=False)
    mix(1, [], [], labels([]))
    assert mix.take() == {}


def plot_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "plot_route_shares.py"
    spec = importlib.util.spec_from_file_location("plot_route_shares", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_plot_reads_shares_from_metrics_else_counts_the_dumped_rollouts(tmp_path, capsys):
    script = plot_script()
    run = tmp_path / "run"
    run.mkdir()
    rows = [
        {"step": 1, "toolscale/reward_total": 0.1, "toolscale/route/expert-1": 1.0},
        {
            "step": 2,
            "toolscale/reward_total": 0.4,
            "toolscale/route/calculator": 0.75,
            "toolscale/route/expert-1": 0.25,
        },
        {"step": 2, "train_runtime": 3.0},
    ]
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    reward, shares = script.curves(run)
    assert reward == {1: 0.1, 2: 0.4}
    assert shares == {1: {"expert-1": 1.0}, 2: {"calculator": 0.75, "expert-1": 0.25}}
    script.main([str(run)])
    assert (run / "route_shares.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # An older run without route metrics: the dump's rollouts, counted (one without a class).
    (run / "metrics.jsonl").write_text(json.dumps({"step": 1, "reward": 0.2}) + "\n")
    calc = {"name": "calculator", "arguments": "{}"}
    dumped = [
        {"step": 1, "route_class": "expert-2", "executed_calls": []},
        {"step": 1, "executed_calls": [calc, calc]},
        {"step": 1, "route_class": "expert-2", "executed_calls": []},
        {"step": 1, "route_class": "no_tool", "executed_calls": []},
    ]
    (run / "rollouts.jsonl").write_text("".join(json.dumps(d) + "\n" for d in dumped))
    counted = {1: {"expert-2": 0.5, "calculator": 0.25, "no_tool": 0.25}}
    assert script.curves(run) == ({1: 0.2}, counted)
    with pytest.raises(SystemExit) as stop:
        script.main([str(tmp_path / "missing")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "is not a folder" in err and err.count("\n") == 1
