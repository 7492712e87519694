"""CPU benchmark: does GRPO after SFT teach the local SmolLM2-135M the cheap route?

Subset: easy one-step math problems of three templates (`TEMPLATES`), profiles none / cheap /
avoid_tool, every task's prices drawn from the default schedules. The reference teacher with
detours solves each task several ways, all verified; SFT imitates two of them for every task,
the cheapest (gold: one calculator call) and the dearest (asking expert-1, whose reply costs
~100-1000x the calculator route). GRPO then trains on the dataset's own reward (run.json), which
charges cost and latency relative to the gold route. Held out: the first `--heldout` such tasks
of another run seed (other numbers, other names, no common task id; checked).

Three policies are scored on the held-out tasks by `trainer.checkpoint_rollouts` (greedy, one
rollout per task, tools run in the sandbox, the training reward): base (SmolLM2's own tool
template), SFT only, SFT + GRPO. Per policy: success rate, mean cost per solved task ($,
total_cost), mean tool calls, mean reward_total, preference compliance, and which route each
rollout took.
On CPU both trainings update the top `--trainable-layers` of the 30 decoder layers only.

    .venv/bin/python benchmarks/train_orchestrator.py --work runs/bench

Writes WORK/results.json (and WORK/eval_*.json per policy, rollouts included), prints the
Markdown tables, and draws benchmarks/train_orchestrator.png (the three policies) and copies the
SFT and GRPO training curves to benchmarks/train_orchestrator_{sft,grpo}.png. Phases already
done in WORK (generation, each evaluation, SFT, GRPO) are kept, so a rerun resumes.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import time
from pathlib import Path
from typing import Any

import datasets
from cpu_grpo import grpo_flags

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from trainer.checkpoint_rollouts import dumps, evaluate_checkpoint
from trainer.grpo import grpo
from trainer.model import LOCAL, load
from trainer.reward_config import load_saved_reward, stored_reward
from trainer.sft import sft
from trainer.split import disjoint

DOMAIN, DIFFICULTY = "math", "easy"
# One-step problems whose calculator expression copies the problem's numbers ("7 * 2.54",
# "1100 * 65 / 100", "3.14 * 17 ** 2"): the cheap route is within a 135M model's reach.
TEMPLATES = "unit_conversion,area_volume,percentage"
# SFT mixes the cheapest and the dearest route of every task: gold (calculator) and
# alternative_2 (ask expert-1), so the policy GRPO starts from takes both.
SFT_VARIANTS = "gold,alternative_2"
PROFILES = {"none": 1.0, "cheap": 1.0, "avoid_tool": 1.0}
HERE = Path(__file__).parent
LABELS = {"base": "base: SmolLM2-135M-Instruct", "sft": "SFT only", "grpo": "SFT + GRPO"}

# The task subset both training stages read.
SUBSET = ["--domains", DOMAIN, "--difficulties", DIFFICULTY, "--templates", TEMPLATES]


def route(calls: dict[str, int]) -> str:
    """The dearest tool a rollout used: expert, code, calculator, or none."""
    for tool, name in (("ask_expert", "expert"), ("code_executor", "code")):
        if calls.get(tool):
            return name
    return "calculator" if calls.get("calculator") else "none"


def heldout_rows(work: Path, count: int) -> tuple[datasets.Dataset, int]:
    """The first `count` held-out tasks of the subset whose content (normalised problem and
    answer, `trainer.split`) is no training task's, and how many were skipped as shared."""
    rows = datasets.load_dataset(str(work / "heldout"), "tasks", split="train")
    wanted = set(TEMPLATES.split(","))
    rows = rows.filter(
        lambda d, t: d == DIFFICULTY and t in wanted, input_columns=["difficulty", "template"]
    )
    training = datasets.load_dataset(str(work / "train"), "tasks", split="train")
    kept = disjoint(list(training), list(rows))
    first = kept[:count]
    shared = (first[-1] + 1 if first else len(rows)) - len(first)
    rows = rows.select(first)
    if len(rows) < count:
        raise SystemExit(f"only {len(rows)} held-out tasks; generate more (--heldout-pool)")
    return rows, shared


def score(phase: str, model_name: str, rows: Any, work: Path, args: Any) -> dict[str, Any]:
    """Evaluate one policy (kept in WORK/eval_PHASE.json once done)."""
    path = work / f"eval_{phase}.json"
    if not path.exists():
        # Every policy is scored under the template SFT and GRPO train with (the base model too).
        model, tokenizer = load(model_name, "qwen3_instruct_2507")
        reward = load_saved_reward(model_name) or stored_reward(str(work / "train")).config
        start = time.perf_counter()
        result = evaluate_checkpoint(
            model,
            tokenizer,
            rows,
            reward,
            max_turns=args.max_turns,
            max_new_tokens=args.max_new_tokens,
            batch_size=args.eval_batch,
        )
        record = json.loads(dumps(result))
        record["seconds"] = round(time.perf_counter() - start, 1)
        path.write_text(json.dumps(record, indent=2))
    record = json.loads(path.read_text())
    routes: dict[str, int] = {}
    for rollout in record["rollouts"]:
        name = route(rollout["calls_per_tool"])
        routes[name] = routes.get(name, 0) + 1
    avoid = [r for r in record["rollouts"] if r["preference_profile"] == "avoid_tool"]
    summary = {k: v for k, v in record.items() if k != "rollouts"}
    summary["solved"] = sum(bool(r["verified"]) for r in record["rollouts"])
    summary["routes"] = routes
    summary["avoid_tool_tasks"] = len(avoid)
    summary["avoid_tool_compliance"] = (
        sum(bool(r["preference_compliant"]) for r in avoid) / len(avoid) if avoid else None
    )
    print(phase, json.dumps(summary), flush=True)
    return summary


def train_sft(work: Path, args: Any) -> None:
    if (work / "sft" / "model.safetensors").exists():
        return
    sft(
        [
            "--config",
            "trainer/configs/sft-cpu.yaml",
            "--model",
            LOCAL,
            "--chat_template",
            "qwen3_instruct_2507",  # TRL has its training version (assistant-only loss)
            "--dataset",
            str(work / "train"),
            *SUBSET,
            "--variants",
            SFT_VARIANTS,
            # two traces per task (fewer where expert-1 answered wrongly): tasks for N traces
            "--max_tasks",
            str(math.ceil(args.sft_traces / 2)),
            "--trainable_layers",
            str(args.trainable_layers),
            "--learning_rate",
            str(args.sft_lr),
            "--logging_steps",
            "1",
            "--output_dir",
            str(work / "sft"),
            "--overwrite_output_dir",  # a leftover checkpoint: trained anew
            "true",
        ]
    )


def train_grpo(work: Path, args: Any) -> None:
    if (work / "grpo" / "model.safetensors").exists():
        return
    grpo(
        [
            "--config",
            "trainer/configs/cpu-smoke.yaml",
            "--model",
            str(work / "sft"),
            "--dataset",
            str(work / "train"),
            *SUBSET,
            *grpo_flags(args, args.grpo_batch),
            "--output_dir",
            str(work / "grpo"),
            "--overwrite_output_dir",  # a leftover checkpoint: trained anew
            "true",
        ]
    )


def money(value: float | None) -> str:
    return "n/a" if value is None or math.isnan(value) else f"${value:.6f}"


def tables(results: dict[str, Any]) -> str:
    head = (
        "| policy | success rate | mean cost per rollout (failed included) "
        "| mean cost per solved task | mean tool calls "
        "| mean reward_total | preference compliance (avoid_tool tasks) |\n"
        "|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for phase in ("base", "sft", "grpo"):
        r = results[phase]
        avoid = r["avoid_tool_compliance"]
        lines.append(
            f"| {LABELS[phase]} | {r['success_rate']:.2f} ({r['solved']}/{r['tasks']}) "
            f"| {money(r['mean_cost'])} | {money(r['cost_per_solved'])} "
            f"| {r['mean_tool_calls']:.2f} "
            f"| {r['mean_reward']:.3f} | {r['preference_compliance']:.2f} "
            f"({'n/a' if avoid is None else f'{avoid:.2f}'}) |"
        )
    routes = (
        "\n\n| policy | calculator | code_executor | expert | no tool |\n|---|---|---|---|---|\n"
    )
    for phase in ("base", "sft", "grpo"):
        r = results[phase]["routes"]
        cells = [str(r.get(k, 0)) for k in ("calculator", "code", "expert", "none")]
        routes += f"| {LABELS[phase]} | " + " | ".join(cells) + " |\n"
    return head + "\n".join(lines) + routes


def plot(results: dict[str, Any], target: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    phases = ("base", "sft", "grpo")
    names = ["base", "SFT", "SFT+GRPO"]
    costs = [results[p]["mean_cost"] for p in phases]
    panels = [
        ("success rate", [results[p]["success_rate"] for p in phases], "{:.2f}"),
        ("mean cost per rollout ($, log)", [c or 0.0 for c in costs], "${:.6f}"),
        ("mean tool calls", [results[p]["mean_tool_calls"] for p in phases], "{:.2f}"),
        ("mean reward_total", [results[p]["mean_reward"] for p in phases], "{:.3f}"),
        ("preference compliance", [results[p]["preference_compliance"] for p in phases], "{:.2f}"),
    ]
    fig, axes = plt.subplots(1, len(panels) + 1, figsize=(3.0 * (len(panels) + 1), 3.2))
    for axis, (title, values, form) in zip(axes, panels, strict=False):
        bars = axis.bar(names, values, color=["#999999", "#4c72b0", "#dd8452"])
        if title.startswith("mean cost"):
            axis.set_yscale("log")
            labels = ["n/a" if c is None else form.format(c) for c in costs]
        else:
            labels = [form.format(v) for v in values]
        axis.bar_label(bars, labels=labels, fontsize=7)
        axis.set_title(title, fontsize=9)
        axis.tick_params(labelsize=8)
    kinds = ("calculator", "code", "expert", "none")
    bottom = [0.0, 0.0, 0.0]
    for kind, color in zip(kinds, ("#55a868", "#8172b3", "#c44e52", "#cccccc"), strict=True):
        shares = [results[p]["routes"].get(kind, 0) / results[p]["tasks"] for p in phases]
        axes[-1].bar(names, shares, bottom=bottom, label=kind, color=color)
        bottom = [b + s for b, s in zip(bottom, shares, strict=True)]
    axes[-1].set_title("route taken (share of rollouts)", fontsize=9)
    axes[-1].legend(fontsize=7)
    axes[-1].tick_params(labelsize=8)
    fig.suptitle(
        f"held-out easy math tasks (n={results['heldout_tasks']}), greedy, SmolLM2-135M",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(target, dpi=80)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("runs/bench"))
    parser.add_argument("--train-tasks", type=int, default=600)
    parser.add_argument("--heldout", type=int, default=50)
    parser.add_argument("--heldout-pool", type=int, default=900)
    parser.add_argument(
        "--sft-traces", type=int, default=40, help="SFT on the two traces of N/2 tasks"
    )
    parser.add_argument("--sft-lr", type=float, default=3e-4)
    parser.add_argument("--grpo-tasks", type=int, default=64)
    parser.add_argument("--grpo-steps", type=int, default=12)
    parser.add_argument("--grpo-batch", type=int, default=4)
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--grpo-lr", type=float, default=5e-5)
    parser.add_argument("--trainable-layers", type=int, default=10)
    parser.add_argument("--max-completion-length", type=int, default=256)
    parser.add_argument("--max-turns", type=int, default=4)
    parser.add_argument("--max-new-tokens", type=int, default=160)
    parser.add_argument("--eval-batch", type=int, default=25)
    parser.add_argument(
        "--plots", default="train_orchestrator", help="benchmarks/PLOTS{,_sft,_grpo}.png"
    )
    args = parser.parse_args()
    work: Path = args.work
    clock: dict[str, float] = {}
    start = time.perf_counter()
    for name, seed, count in (
        ("train", 0, args.train_tasks),
        ("heldout", 1, args.heldout_pool),
    ):
        if not (work / name / "run.json").exists():
            generate(
                GenerateConfig(
                    domains=[DOMAIN],
                    num_tasks=count,
                    out=work / name,
                    seed=seed,
                    detours=True,
                    profiles=PROFILES,
                )
            )
    clock["generate"] = time.perf_counter() - start
    train_ids = set(datasets.load_dataset(str(work / "train"), "tasks", split="train")["id"])
    heldout, shared = heldout_rows(work, args.heldout)
    if not train_ids.isdisjoint(heldout["id"]):
        raise SystemExit("held-out tasks must not be training tasks")
    results: dict[str, Any] = {
        "heldout_tasks": len(heldout),
        "heldout_skipped_as_training_content": shared,
        "args": vars(args) | {"work": str(work)},
    }
    for phase, model_name, train in (
        ("base", LOCAL, None),
        ("sft", str(work / "sft"), train_sft),
        ("grpo", str(work / "grpo"), train_grpo),
    ):
        if train is not None:
            begin = time.perf_counter()
            train(work, args)
            clock[f"train_{phase}"] = time.perf_counter() - begin
        begin = time.perf_counter()
        results[phase] = score(phase, model_name, heldout, work, args)
        clock[f"eval_{phase}"] = time.perf_counter() - begin
    clock["total"] = time.perf_counter() - start
    # Wall time of every invocation in WORK (a resumed one only times what it still had to do).
    previous = work / "results.json"
    results["invocations"] = (
        json.loads(previous.read_text()).get("invocations", []) if previous.exists() else []
    )
    results["invocations"].append({k: round(v, 1) for k, v in clock.items()})
    previous.write_text(json.dumps(results, indent=2))
    plot(results, HERE / f"{args.plots}.png")
    for phase in ("sft", "grpo"):
        curves = work / phase / "metrics.png"
        if curves.exists():
            shutil.copyfile(curves, HERE / f"{args.plots}_{phase}.png")
    print(tables(results))
    print(json.dumps(results["invocations"][-1]))


if __name__ == "__main__":
    main()
