"""CPU benchmark: SFT warm start on verified traces, then GRPO, on the local SmolLM2-135M over an
easy subset (knowledge single-hop questions); held-out success rate and mean total reward before
and after, over held-out tasks never seen in training (another seed: other entities, other ids).

    .venv/bin/python benchmarks/train_orchestrator.py --work runs/bench

Writes WORK/results.json and prints a Markdown table; the GRPO run's metrics.png is in WORK/grpo.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import datasets

from toolscale.generate import GenerateConfig, generate
from toolscale.rewards import RewardConfig
from trainer.evaluate import evaluate
from trainer.grpo import grpo
from trainer.model import LOCAL, load
from trainer.rewards import linear_rewards
from trainer.sft import sft

DOMAIN, TEMPLATE = "knowledge", "single_hop"


def tasks_of(folder: Path) -> datasets.Dataset:
    rows = datasets.load_dataset(str(folder), "tasks", split="train")
    return rows.filter(lambda t: t == TEMPLATE, input_columns="template")


def score(model_name: str, heldout: datasets.Dataset) -> dict[str, float]:
    model, tokenizer = load(model_name)
    model.eval()
    config = RewardConfig()
    start = time.perf_counter()
    result = evaluate(
        model,
        tokenizer,
        heldout,
        linear_rewards(config),
        [1.0, 1.0, 1.0],
        max_turns=3,
        max_new_tokens=64,
    )
    return {**result.__dict__, "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("runs/bench"))
    parser.add_argument("--train-tasks", type=int, default=600)
    parser.add_argument("--heldout", type=int, default=50)
    parser.add_argument("--sft-examples", type=int, default=48)
    parser.add_argument("--grpo-steps", type=int, default=1)
    args = parser.parse_args()
    work = args.work
    none = {"none": 1.0}  # no preference suffix: the easy subset is about the tool path
    for name, seed, count in (("train", 0, args.train_tasks), ("heldout", 1, args.heldout * 8)):
        if not (work / name / "run.json").exists():
            generate(
                GenerateConfig(
                    domains=[DOMAIN], num_tasks=count, out=work / name, seed=seed, profiles=none
                )
            )
    train_ids = set(tasks_of(work / "train")["id"])
    heldout = tasks_of(work / "heldout").select(range(args.heldout))
    assert train_ids.isdisjoint(heldout["id"]), "held-out tasks must be unseen"
    results: dict = {"heldout_tasks": len(heldout), "train_tasks": len(train_ids)}
    before = work / "before.json"  # the base model's score does not change between runs
    if not before.exists():
        before.write_text(json.dumps(score(LOCAL, heldout)))
    results["before"] = json.loads(before.read_text())
    print("before", results["before"], flush=True)
    common = ["--dataset", str(work / "train"), "--domains", DOMAIN, "--templates", TEMPLATE]
    start = time.perf_counter()
    if not (work / "sft" / "model.safetensors").exists():  # phases already done are kept
        sft(
            [
                "--config",
                "trainer/configs/sft-cpu.yaml",
                "--model",
                LOCAL,
                *common,
                "--max_tasks",
                str(args.sft_examples),
                "--learning_rate",
                "3e-4",
                "--output_dir",
                str(work / "sft"),
            ]
        )
    results["sft_seconds"] = round(time.perf_counter() - start, 1)
    start = time.perf_counter()
    grpo(
        [
            "--config",
            "trainer/configs/cpu-smoke.yaml",
            "--model",
            str(work / "sft"),
            *common,
            "--max_steps",
            str(args.grpo_steps),
            "--per_device_train_batch_size",
            "4",
            "--max_tasks",
            "16",
            "--num_generations",
            "4",
            "--max_completion_length",
            "512",
            "--max_tool_calling_iterations",
            "2",
            "--gradient_checkpointing",
            "true",
            "--learning_rate",
            "2e-6",
            "--output_dir",
            str(work / "grpo"),
        ]
    )
    results["grpo_seconds"] = round(time.perf_counter() - start, 1)
    results["after"] = score(str(work / "grpo"), heldout)
    print("after", results["after"], flush=True)
    (work / "results.json").write_text(json.dumps(results, indent=2))
    b, a = results["before"], results["after"]
    print("| | success rate | mean reward_total | mean tool calls |\n|---|---|---|---|")
    for label, r in (("before (SmolLM2-135M-Instruct)", b), ("after SFT + GRPO", a)):
        print(
            f"| {label} | {r['success_rate']:.3f} | {r['mean_reward']:.4f} | "
            f"{r['mean_tool_calls']:.2f} |"
        )


if __name__ == "__main__":
    main()
