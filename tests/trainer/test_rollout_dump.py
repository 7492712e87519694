"""The rollout dump writes the first `per_step` rollouts of a batch, on the main process only,
and a run starts its own file (a resumed run keeps the lines up to its checkpoint)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from trainer.rollout_dump import RolloutDump

CALC = {"name": "calculator", "arguments": '{"expression": "1+1"}', "status": "ok", "output": "2"}


def environment(task_id: str, calls: int):
    gold = [{"name": "ask_expert", "arguments": {"expert": "expert-2", "question": "1+1?"}}]
    task = SimpleNamespace(
        id=task_id,
        template="t",
        preference=SimpleNamespace(profile="none"),
        oracle_route="expert-2",
        gold_actions=gold,
    )
    executed = [SimpleNamespace(**CALC) for _ in range(calls)]
    return SimpleNamespace(task=task, trace=SimpleNamespace(tool_calls=executed))


def batch(n: int):
    completions = [[{"role": "assistant", "content": f"The answer is {i}."}] for i in range(n)]
    environments = [environment(f"task-{i}", i) for i in range(n)]
    labels = [
        {
            "verified": i == 0,
            "reward_total": float(i),
            "calls_per_tool": {},
            "tool_calls": [CALC] * i,
        }
        for i in range(n)
    ]
    return completions, environments, labels


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_first_rollouts_of_each_batch_with_every_field(tmp_path):
    dump = RolloutDump(tmp_path, per_step=2)
    dump(1, *batch(4))
    dump(2, *batch(4))
    written = lines(tmp_path / "rollouts.jsonl")
    assert [(r["step"], r["task_id"]) for r in written] == [
        (1, "task-0"),
        (1, "task-1"),
        (2, "task-0"),
        (2, "task-1"),
    ]
    second = written[1]
    assert second["messages"] == [{"role": "assistant", "content": "The answer is 1."}]
    assert second["executed_calls"] == [
        {"name": "calculator", "arguments": '{"expression": "1+1"}', "status": "ok", "output": "2"}
    ]
    assert second["reward_total"] == 1.0 and second["verified"] is False
    # Its route class (what it called) beside its task's oracle route and class.
    assert [r["route_class"] for r in written] == ["no_tool", "calculator"] * 2
    assert second["oracle_route"] == "expert-2" and second["oracle_class"] == "expert-2"
    assert second["total_cost"] is None  # a label the rewards did not give stays null


def test_other_ranks_and_zero_write_nothing(tmp_path):
    RolloutDump(tmp_path, per_step=2, main_process=False)(1, *batch(3))
    RolloutDump(tmp_path, per_step=0)(1, *batch(3))
    assert not (tmp_path / "rollouts.jsonl").exists()


def test_a_new_run_starts_the_file_and_a_resumed_one_keeps_its_steps(tmp_path):
    first = RolloutDump(tmp_path, per_step=1)
    for step in (1, 2, 3):
        first(step, *batch(2))
    resumed = RolloutDump(tmp_path, per_step=1)
    resumed.on_train_begin(None, SimpleNamespace(global_step=2), None)
    resumed(3, *batch(2))
    assert [r["step"] for r in lines(tmp_path / "rollouts.jsonl")] == [1, 2, 3]
    fresh = RolloutDump(tmp_path, per_step=1)
    fresh.on_train_begin(None, SimpleNamespace(global_step=0), None)
    fresh(1, *batch(2))
    assert [r["step"] for r in lines(tmp_path / "rollouts.jsonl")] == [1]
