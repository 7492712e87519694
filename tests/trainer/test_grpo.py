"""Two real GRPO steps on CPU from a freshly generated dataset, tools executed in the sandbox.

The tiny random model cannot call tools by itself, so its `generate` is scripted: in each group
one rollout plays the task's gold tool calls (in the exact text format a Qwen3-style model
writes, parsed by TRL) and answers, the other answers at once and wrongly. Everything after
generation is real: TRL's tool loop, the sandbox executions, the verifier, the gradient step.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

import trainer.grpo as grpo_module
from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from toolscale.stats.routes import route_class
from toolscale.tools.arith import evaluate
from trainer.environment import ToolscaleEnvironment
from trainer.model import load

pytestmark = pytest.mark.slow


def scripted_reply(text: str, tasks: list[dict], wrong: bool) -> str:
    """The scripted turn for a rendered conversation: the task's next gold call, its answer once
    every gold call has a result, or (when `wrong`, on the first turn) a wrong answer."""
    task = next(t for t in tasks if t["instruction"] in text)
    gold = json.loads(task["gold_actions"])
    done = text.count("<tool_response>")
    if done == 0 and wrong:
        return "I do not know."
    if done < len(gold):
        call = {"name": gold[done]["name"], "arguments": gold[done]["arguments"]}
        return f"<tool_call>\n{json.dumps(call)}\n</tool_call>"
    return f"The answer is {task['expected_answer']}."


def scripted(model, tokenizer, tasks: list[dict]):
    """Replace model.generate: gold calls then the answer (even rows), a wrong answer (odd)."""

    def generate_(input_ids, attention_mask=None, generation_config=None, **_):
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        rows = []
        for position, (ids, mask) in enumerate(zip(input_ids, attention_mask, strict=True)):
            text = tokenizer.decode(ids[mask.bool()])
            reply = scripted_reply(text, tasks, wrong=position % 2 == 1)
            new = tokenizer.encode(reply + "<|im_end|>", add_special_tokens=False)
            rows.append(torch.cat([ids, torch.tensor(new, dtype=ids.dtype)]))
        width = max(len(r) for r in rows)
        pad = tokenizer.pad_token_id
        return torch.stack(
            [torch.cat([r, torch.full((width - len(r),), pad, dtype=r.dtype)]) for r in rows]
        )

    model.generate = generate_
    return model


def test_two_grpo_steps_change_parameters_from_real_sandbox_rewards(tmp_path, monkeypatch):
    data = tmp_path / "data"
    generate(GenerateConfig(domains=["math"], num_tasks=4, out=data))
    import datasets

    tasks = list(datasets.load_dataset(str(data), "tasks", split="train"))
    loaded: dict = {}

    def load_scripted(name, chat_template=None, conversations=(), tiny=(32, 2)):
        model, tokenizer = load(name, chat_template, conversations, tiny)
        loaded["before"] = {k: v.detach().clone() for k, v in model.named_parameters()}
        loaded["model"] = scripted(model, tokenizer, tasks)
        return loaded["model"], tokenizer

    judged: list = []
    real_judge = ToolscaleEnvironment._judge

    def record_judge(self, completion, tokens, config):
        trace = real_judge(self, completion, tokens, config)
        if not any(trace is seen for *_, seen in judged):  # judged once per rollout
            judged.append((self.task, list(trace.tool_calls), trace))
        return trace

    monkeypatch.setattr(grpo_module, "load", load_scripted)
    monkeypatch.setattr(ToolscaleEnvironment, "_judge", record_judge)
    out = tmp_path / "run"
    folder = grpo_module.grpo(
        [
            "--config",
            "trainer/configs/cpu-smoke.yaml",
            "--dataset",
            str(data),
            "--max_steps",
            "2",
            "--output_dir",
            str(out),
            "--max_completion_length",
            "1024",
            "--warm_start_steps",
            "0",
            "--max_tasks",
            "4",
            "--per_device_train_batch_size",
            "4",
            "--num_generations",
            "2",
            "--dump_rollouts",
            "4",
        ]
    )
    assert Path(folder) == out

    # Every rollout was judged; the scripted gold ones verified through real executions.
    assert len(judged) == 2 * 4
    verified = [(task, calls) for task, calls, verdict in judged if verdict.verified]
    failed = [calls for _, calls, verdict in judged if not verdict.verified]
    assert len(verified) == 4 and len(failed) == 4
    for task, calls in verified:
        gold = json.loads(task.gold_actions and json.dumps(task.gold_actions))
        assert [c.name for c in calls] == [g["name"] for g in gold]
        for call in calls:  # a calculator's output is what the calculator really computes
            if call.name == "calculator":
                assert call.output == evaluate(json.loads(call.arguments)["expression"])
    assert all(calls == [] for calls in failed)

    # The update moved the weights.
    after = dict(loaded["model"].named_parameters())
    changed = [k for k, v in loaded["before"].items() if not torch.equal(v, after[k].detach())]
    assert changed

    # Metrics per step, a real PNG, and a checkpoint that reloads with the trained weights.
    steps = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    logged = [s for s in steps if "rewards/reward_outcome/mean" in s]
    assert len(logged) == 2 and all(s["rewards/reward_outcome/mean"] == 0.5 for s in logged)
    for step in logged:  # every component was computed and logged; the gold rollouts cost calls
        assert step["rewards/reward_efficiency/mean"] < 0
        assert step["rewards/reward_preference/mean"] > 0
        assert step["toolscale/success_rate"] == 0.5
        assert step["toolscale/reward_outcome"] == 0.5
        assert step["toolscale/groups_dropped"] == 0.0  # gold vs wrong: every group has spread
    assert (out / "metrics.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The reward trained on is the dataset's own (run.json), saved beside the model.
    saved = json.loads((out / "reward_config.json").read_text())
    assert saved["reward"] == json.loads((data / "run.json").read_text())["config"]["reward"]
    assert saved["source"] == str(data / "run.json") and saved["overrides"] == {}
    from transformers import AutoModelForCausalLM

    reloaded = dict(AutoModelForCausalLM.from_pretrained(out).named_parameters())
    name = changed[0]
    assert torch.equal(reloaded[name].detach(), after[name].detach())

    # The rollout dump: every rollout of each step (4), numbered as metrics.jsonl numbers its
    # steps, each with every turn (calls, tool results, answer), the executed calls and its labels.
    dumped = [json.loads(line) for line in (out / "rollouts.jsonl").read_text().splitlines()]
    assert [d["step"] for d in dumped] == [1, 1, 1, 1, 2, 2, 2, 2]
    assert [s["step"] for s in logged] == [1, 2]
    by_id = {t["id"]: t for t in tasks}
    for record in dumped:
        task = by_id[record["task_id"]]
        gold = json.loads(task["gold_actions"])
        if record["verified"]:
            roles = [m["role"] for m in record["messages"]]
            assert roles == ["assistant", "tool"] * len(gold) + ["assistant"]
            assert [c["name"] for c in record["executed_calls"]] == [g["name"] for g in gold]
            results = [m["content"] for m in record["messages"] if m["role"] == "tool"]
            assert results == [c["output"] for c in record["executed_calls"]]
            assert record["messages"][-1]["content"].endswith(f"{task['expected_answer']}.")
            assert record["reward_outcome"] == 1.0 and record["failure_stage"] is None
        else:
            assert record["messages"][-1]["content"] == "I do not know."
            assert record["executed_calls"] == [] and record["reward_outcome"] == 0.0
            assert record["failure_stage"] == "outcome"
        assert record["num_tool_calls"] == len(record["executed_calls"])
        # A scripted gold rollout took its task's oracle route; a wrong answer called nothing.
        oracle = route_class((g["name"], g["arguments"]) for g in gold)
        assert record["oracle_class"] == oracle == task["oracle_route"]
        assert record["route_class"] == (oracle if record["verified"] else "no_tool")
    assert {d["verified"] for d in dumped} == {True, False}
    # Each step's route shares, counted by hand from its dumped rollouts, sum to 1.
    for step in logged:
        mine = [d["route_class"] for d in dumped if d["step"] == step["step"]]
        shares = {k: v for k, v in step.items() if k.startswith("toolscale/route/")}
        expected = {f"toolscale/route/{c}": mine.count(c) / 4 for c in set(mine)}
        assert shares == expected and sum(shares.values()) == 1.0
        assert shares["toolscale/route/no_tool"] == 0.5


def test_evaluation_harness_runs_rollouts_through_the_sandbox(tmp_path, monkeypatch):
    """Evaluation plays one rollout per task (the scripted decoder plays gold) and labels it as
    training does: the given RewardConfig, its completion tokens charged."""
    data = tmp_path / "data"
    generate(
        GenerateConfig(
            domains=["math"],
            num_tasks=3,
            out=data,
            profiles={"none": 1.0},
            price_schedules=["standard"],  # one system prompt: the three tasks share batches
        )
    )
    import datasets

    import trainer.checkpoint_rollouts as evaluate_module
    import trainer.reward_functions as rewards_module
    from toolscale.judge.rewards import RewardConfig
    from trainer.checkpoint_rollouts import evaluate_checkpoint

    labelled: list[tuple[int, dict]] = []
    real_labels = rewards_module.rollout_labels

    def spy(completion, environment, tokens, config):
        labels = real_labels(completion, environment, tokens, config)
        if not any(labels is seen for _, seen in labelled):
            labelled.append((tokens, labels))
        return labels

    monkeypatch.setattr(rewards_module, "rollout_labels", spy)
    rows = datasets.load_dataset(str(data), "tasks", split="train")
    model, tokenizer = load("tiny-random")
    batches: list[int] = []

    def continuation(model, prompts, stop_ids, pad_id, max_new_tokens, *args, **kw):
        batches.append(len(prompts))
        texts = [tokenizer.decode(ids) for ids in prompts]
        replies = [scripted_reply(t, list(rows), wrong=False) + "<|im_end|>" for t in texts]
        return [tokenizer.encode(r, add_special_tokens=False) for r in replies]

    monkeypatch.setattr(evaluate_module, "continue_prompts", continuation)
    result = evaluate_checkpoint(model, tokenizer, rows, RewardConfig(), workers=1, max_turns=6)
    gold_calls = [len(json.loads(r["gold_actions"])) for r in rows]
    assert result.tasks == 3 and result.success_rate == 1.0
    assert result.mean_tool_calls == sum(gold_calls) / 3
    # Tasks sharing a system prompt and tools advance together, one batch per turn.
    assert sum(batches) == sum(gold_calls) + 3 and batches[0] == 3
    assert result.preference_compliance == 1.0
    assert result.cost_per_solved == pytest.approx(
        sum(r["total_cost"] for r in result.rollouts) / 3
    )
    # Each rollout's completion tokens (calls, tool results, answer) reach the labels, as in
    # training, and the mean reward is the mean of the labelled reward_total.
    assert len(labelled) == 3
    tokens = [count for count, _ in labelled]
    assert all(count > 50 for count in tokens)
    assert sum(tokens) / 3 == result.mean_completion_tokens
    totals = [labels["reward_total"] for _, labels in labelled]
    assert result.mean_reward == pytest.approx(sum(totals) / 3)
    # Another RewardConfig (as saved beside a trained model) changes the reward accordingly.
    heavier = evaluate_checkpoint(
        model, tokenizer, rows, RewardConfig(w_o=2.0), workers=1, max_turns=6
    )
    assert heavier.mean_reward == pytest.approx(result.mean_reward + 1.0)
