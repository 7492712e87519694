"""The nano-orchestrator recipe end to end on a CPU: data, a from-scratch model, SFT, GRPO,
held-out evaluation and learning curves, per seed. What it does not do: tune anything on the
held-out tasks, or special-case the small model (only its size and the CPU settings differ from
the 8B recipe's).

Per seed S, in WORK/seedS/ (a phase already done there is kept, so a rerun resumes):
1. data: `toolscale generate --domains orchestra --num-tasks N --seed S` (the reference
   teacher), split content-disjoint by `--heldout_fraction 0.2` (`trainer.split`);
2. base: a Qwen3 from scratch (`--hidden`, `--layers`), its BPE learnt from the training
   split's SFT conversations only, saved untrained (the base row);
3. sft: `toolscale-train sft --config trainer/configs/nano-orchestrator.yaml` from base, on the
   training split's expected-reward oracle routes, checkpoints every `--curve-every` steps;
4. grpo: `toolscale-train grpo --config trainer/configs/nano-orchestrator-grpo.yaml` from sft,
   rollouts in the sandbox judged by the Rubric, checkpoints likewise;
5. evaluate: `toolscale-train evaluate --split heldout` on `--eval-tasks` held-out tasks: SFT
   beside base and the reference rows (oracle, expected oracle, router baseline, fixed routes),
   then SFT+GRPO; every checkpoint on `--curve-tasks` of them for the curves.

    python benchmarks/nano_orchestrator.py --work runs/nano --seeds 0,1,2

Writes WORK/results.json and WORK/table.md (every seed's rows, then mean and range over seeds,
then the bar: SFT+GRPO against the best fixed route and SFT per seed, and route shares per
preference profile before and after GRPO),
WORK/seedS/curves.png (SFT loss and GRPO training reward, held-out reward and success, route
shares, against steps), and prints the table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from trainer.evaluate import evaluate, warning
from trainer.grpo import grpo
from trainer.nano import save_base
from trainer.sft import sft
from trainer.table import HEAD, Row, Scored, markdown_line, row_of
from trainer.verdict import paired_gap, said_once

DOMAINS = "orchestra"  # ToolOrchestra's interface: a call names a model (issue 48)
FRACTION = "0.2"
CONFIGS = Path(__file__).resolve().parent.parent / "trainer" / "configs"


def evaluated(
    work: Path, name: str, argv: list[str], warn: Callable[[str], None] = warning
) -> dict[str, Any]:
    """`toolscale-train evaluate` on the held-out split (kept in WORK/eval_NAME once done);
    `warn` is told its warnings (the run's `said_once`: each kind once)."""
    folder = work / f"eval_{name}"
    if not (folder / "evaluation.json").exists():
        begin = time.perf_counter()
        split = ["--split", "heldout", "--heldout_fraction", FRACTION, "--domains", DOMAINS]
        argv = ["--dataset", str(work / "data"), *split, "--output_dir", str(folder), *argv]
        evaluate(argv, warn)
        (folder / "seconds.txt").write_text(f"{time.perf_counter() - begin:.1f}\n")
    return json.loads((folder / "evaluation.json").read_text())


def attempts(record: dict[str, Any], policy: str) -> list[Scored]:
    return [Scored(**a) for a in record["attempts"][policy]]


def checkpoints(run: Path) -> list[tuple[int, Path]]:
    found = [(int(p.name.split("-")[1]), p) for p in run.glob("checkpoint-*") if p.is_dir()]
    return sorted(found)


def curve(
    work: Path, phase: str, offset: int, args: Any, warn: Callable[[str], None]
) -> list[dict[str, Any]]:
    """Held-out reward, success, $ per solved task and route shares of every checkpoint."""
    points = []
    runs = [(0, work / "base")] if phase == "sft" else []
    # The trainer saves a checkpoint at its last step too, so the final model is one only when
    # no checkpoint was saved.
    saved = checkpoints(work / phase)
    for step, folder in [*runs, *(saved or [(-1, work / phase)])]:
        label = f"{phase}_{step}" if step >= 0 else f"{phase}_final"
        record = evaluated(
            work,
            f"curve_{label}",
            [
                *rollout_flags(args, args.curve_tasks),
                "--model",
                str(folder),
                "--label",
                label,
                "--reference_rows",
                "false",
            ],
            warn,
        )
        found = attempts(record, label)
        solved = [a for a in found if a.verified]
        points.append(
            {
                "phase": phase,
                "step": offset
                + (step if step >= 0 else max([0, *(s for s, _ in checkpoints(work / phase))])),
                "reward": statistics.fmean(a.reward_total for a in found),
                "success": len(solved) / len(found),
                "usd_per_solved": sum(a.total_cost for a in found) / len(solved)
                if solved
                else None,
                "routes": dict(Counter(a.route for a in found)),
            }
        )
    return points


def rollout_flags(args: Any, tasks: int) -> list[str]:
    return ["--max_tasks", str(tasks), "--max_turns", "4", "--max_new_tokens", "160",
            "--batch_size", "32", "--sandbox_workers", "2"]  # fmt: skip


def metrics(run: Path) -> list[dict[str, Any]]:
    path = run / "metrics.jsonl"
    return (
        [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.exists() else []
    )


def run_seed(
    work: Path, seed: int, args: Any, warn: Callable[[str], None] = warning
) -> dict[str, Any]:
    """Every phase of one seed; returns its rows, curves and wall times."""
    clock: dict[str, float] = {}

    def timed(name: str, done: bool, action: Any) -> None:
        if done:
            return
        begin = time.perf_counter()
        action()
        clock[name] = round(time.perf_counter() - begin, 1)
        print(f"seed {seed}: {name} took {clock[name]:.0f} s", file=sys.stderr, flush=True)

    data = work / "data"
    timed(
        "generate",
        (data / "run.json").exists(),
        lambda: generate(
            GenerateConfig(domains=DOMAINS.split(","), num_tasks=args.tasks, out=data, seed=seed)
        ),
    )
    timed(
        "base",
        (work / "base" / "config.json").exists(),
        lambda: save_base(
            data, work / "base", DOMAINS, float(FRACTION), args.hidden, args.layers, seed
        ),
    )
    common = ["--dataset", str(data), "--seed", str(seed), "--save_strategy", "steps"]
    timed(
        "sft",
        (work / "sft" / "model.safetensors").exists(),
        lambda: sft(
            [
                "--config",
                str(CONFIGS / "nano-orchestrator.yaml"),
                "--model",
                str(work / "base"),
                "--num_train_epochs",
                str(args.sft_epochs),
                *(["--learning_rate", str(args.sft_lr)] if args.sft_lr else []),
                *(["--per_device_train_batch_size", str(args.sft_batch)] if args.sft_batch else []),
                "--output_dir",
                str(work / "sft"),
                "--overwrite_output_dir",  # a leftover checkpoint: trained anew
                "true",
                "--save_steps",
                str(args.curve_every),
                *common,
            ]
        ),
    )
    timed(
        "grpo",
        (work / "grpo" / "model.safetensors").exists(),
        lambda: grpo(
            [
                "--config",
                str(CONFIGS / "nano-orchestrator-grpo.yaml"),
                "--model",
                str(work / "sft"),
                *(["--max_steps", str(args.grpo_steps)] if args.grpo_steps else []),
                "--output_dir",
                str(work / "grpo"),
                "--overwrite_output_dir",  # a leftover checkpoint: trained anew
                "true",
                "--save_steps",
                str(args.grpo_curve_every),
                *common,
            ]
        ),
    )
    flags = rollout_flags(args, args.eval_tasks)
    begin = time.perf_counter()
    first = evaluated(
        work,
        "sft",
        [
            *flags,
            "--model",
            str(work / "sft"),
            "--label",
            "SFT",
            "--base_model",
            str(work / "base"),
        ],
        warn,
    )
    second = evaluated(
        work,
        "grpo",
        [*flags, "--model", str(work / "grpo"), "--label", "SFT+GRPO", "--reference_rows", "false"],
        warn,
    )
    clock["evaluate"] = round(time.perf_counter() - begin, 1)
    begin = time.perf_counter()
    sft_steps = max([0, *(s for s, _ in checkpoints(work / "sft"))])
    points = curve(work, "sft", 0, args, warn) + curve(work, "grpo", sft_steps, args, warn)
    clock["curves"] = round(time.perf_counter() - begin, 1)
    policies = {**first["attempts"], "SFT+GRPO": second["attempts"]["SFT+GRPO"]}
    oracle = statistics.fmean(a["reward_total"] for a in policies["oracle"])
    kinds = {r["policy"]: r["kind"] for r in first["rows"]}
    rows = {
        p: row_of(p, kinds.get(p, "policy"), [Scored(**a) for a in found], oracle)
        for p, found in policies.items()
    }
    gap = paired_gap(attempts(second, "SFT+GRPO"), attempts(first, "SFT"))
    result = {
        "seed": seed,
        "rows": {p: r.__dict__ for p, r in rows.items()},
        "grpo_minus_sft": gap,
        "notes": first.get("notes", []),
        "curves": points,
        "sft_metrics": metrics(work / "sft"),
        "grpo_metrics": metrics(work / "grpo"),
        "seconds": clock,
        "heldout_tasks": len(first["task_ids"]),
    }
    plot(result, work / "curves.png")
    return result


def plot(result: dict[str, Any], target: Path) -> None:
    """Training signal, held-out reward and success, and held-out route shares vs steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    points = result["curves"]
    sft_end = max([0, *(p["step"] for p in points if p["phase"] == "sft")])
    left = axes[0]
    loss = [(r["step"], r["loss"]) for r in result["sft_metrics"] if "loss" in r]
    left.plot([s for s, _ in loss], [v for _, v in loss], color="#4c72b0", label="SFT loss")
    left.set_xlabel("step (SFT, then GRPO)")
    left.set_ylabel("SFT loss")
    twin = left.twinx()
    reward = [(sft_end + r["step"], r["reward"]) for r in result["grpo_metrics"] if "reward" in r]
    twin.plot([s for s, _ in reward], [v for _, v in reward], color="#dd8452", label="GRPO reward")
    kl = [(sft_end + r["step"], r["kl"]) for r in result["grpo_metrics"] if "kl" in r]
    if kl:
        twin.plot([s for s, _ in kl], [v for _, v in kl], color="#55a868", ls=":", label="KL")
    twin.set_ylabel("GRPO training reward / KL")
    left.set_title("training", fontsize=9)
    fig.legend(loc="upper left", fontsize=7)
    middle = axes[1]
    steps = [p["step"] for p in points]
    middle.plot(steps, [p["reward"] for p in points], marker="o", label="held-out reward")
    middle.plot(steps, [p["success"] for p in points], marker="s", label="held-out success")
    middle.axvline(sft_end, color="#999999", ls="--", lw=0.8)
    middle.set_xlabel("step (dashed: SFT ends, GRPO starts)")
    middle.set_title("held-out, greedy", fontsize=9)
    middle.legend(fontsize=7, loc="lower left")
    cost = [(p["step"], p["usd_per_solved"]) for p in points if p["usd_per_solved"] is not None]
    dollars = middle.twinx()
    dollars.plot([s for s, _ in cost], [c for _, c in cost], color="#8172b3", ls=":", marker=".",
                 label="$ per solved task")  # fmt: skip
    dollars.set_ylabel("$ per solved task", fontsize=8)
    dollars.legend(fontsize=7, loc="lower right")
    right = axes[2]
    classes = sorted({c for p in points for c in p["routes"]})
    bottom = [0.0] * len(points)
    for name in classes:
        share = [p["routes"].get(name, 0) / max(1, sum(p["routes"].values())) for p in points]
        colour = plt.get_cmap("tab20")(classes.index(name) % 20)
        right.bar(range(len(points)), share, bottom=bottom, label=name, color=colour)
        bottom = [b + s for b, s in zip(bottom, share, strict=True)]
    right.set_xticks(range(len(points)), [str(s) for s in steps], fontsize=6, rotation=90)
    right.set_xlabel("checkpoint step")
    right.set_title("held-out route shares", fontsize=9)
    right.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.suptitle(f"nano-orchestrator, seed {result['seed']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(target, dpi=80)
    plt.close(fig)


def table(results: list[dict[str, Any]]) -> str:
    """Each policy's mean (range) over the seeds, then every seed's own row."""
    order = list(results[0]["rows"])
    first = ["base", "SFT", "SFT+GRPO"]
    rest = sorted(
        (p for p in order if p not in first), key=lambda p: -results[0]["rows"][p]["mean_reward"]
    )
    order = [p for p in first if p in order] + rest
    lines = ["| policy | seeds | mean reward_total (range) | success (range) | route = oracle |",
             "|---|---|---|---|---|"]  # fmt: skip
    for policy in order:
        rows = [r["rows"][policy] for r in results if policy in r["rows"]]
        rewards = [x["mean_reward"] for x in rows]
        success = [x["success"] for x in rows]
        routes = [x["oracle_route_share"] for x in rows]
        lines.append(
            f"| {policy} | {len(rows)} | {statistics.fmean(rewards):.3f} "
            f"({min(rewards):.3f}–{max(rewards):.3f}) | {statistics.fmean(success):.2f} "
            f"({min(success):.2f}–{max(success):.2f}) | {statistics.fmean(routes):.2f} |"
        )
    for result in results:
        lines += ["", f"Seed {result['seed']} ({result['heldout_tasks']} held-out tasks):", "",
                  HEAD]  # fmt: skip
        lines += [markdown_line(Row(**result["rows"][p])) for p in order if p in result["rows"]]
        mean, low, high = result["grpo_minus_sft"]
        lines += ["", f"SFT+GRPO minus SFT: {mean:+.3f} ({low:+.3f} to {high:+.3f}, paired 95%)"]
        lines += [n for n in result["notes"][:-1]]
    return "\n".join(lines)


def _shares(counts: dict[str, int]) -> str:
    total = sum(counts.values()) or 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{route} {round(100 * n / total)}%" for route, n in ranked)


def verdict(results: list[dict[str, Any]]) -> list[str]:
    """Issue 48's bar, seed by seed: SFT+GRPO against the best fixed route and against SFT, each
    gap beside the seed range of the SFT+GRPO row; then what GRPO changed per preference
    profile (held-out route shares, SFT -> SFT+GRPO)."""
    lines = ["", "| seed | SFT+GRPO | best fixed route | gap | SFT | gap (paired 95%) |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    for result in results:
        rows = result["rows"]
        fixed = max((r for r in rows.values() if r["kind"] == "fixed"),
                    key=lambda r: r["mean_reward"])  # fmt: skip
        mine, sft = rows["SFT+GRPO"]["mean_reward"], rows["SFT"]["mean_reward"]
        mean, low, high = result["grpo_minus_sft"]
        lines.append(
            f"| {result['seed']} | {mine:.3f} | {fixed['policy']} {fixed['mean_reward']:.3f} | "
            f"{mine - fixed['mean_reward']:+.3f} | {sft:.3f} | {mean:+.3f} ({low:+.3f} to "
            f"{high:+.3f}) |"
        )
    mine = [r["rows"]["SFT+GRPO"]["mean_reward"] for r in results]
    lines += ["", f"Seed range of SFT+GRPO: {max(mine) - min(mine):.3f}.", "",
              "| seed | profile | SFT | SFT+GRPO |", "|---|---|---|---|"]  # fmt: skip
    for result in results:
        before = result["rows"]["SFT"]["profile_routes"]
        after = result["rows"]["SFT+GRPO"]["profile_routes"]
        for profile in sorted(before):
            lines.append(
                f"| {result['seed']} | {profile} | {_shares(before[profile])} | "
                f"{_shares(after.get(profile, {}))} |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("runs/nano"))
    parser.add_argument("--seeds", default="0")
    parser.add_argument("--tasks", type=int, default=5000, help="tasks generated per seed")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--sft-epochs", type=float, default=4.0)
    parser.add_argument("--sft-lr", type=float, help="default: the config's")
    parser.add_argument("--sft-batch", type=int, help="default: the config's")
    parser.add_argument("--grpo-steps", type=int, help="default: the config's max_steps")
    parser.add_argument("--curve-every", type=int, default=350, help="SFT steps per checkpoint")
    parser.add_argument("--grpo-curve-every", type=int, default=50)
    parser.add_argument("--curve-tasks", type=int, default=100)
    parser.add_argument("--eval-tasks", type=int, default=400)
    args = parser.parse_args()
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    results = []
    warn = said_once(warning)  # the curve's evaluations would repeat one warning each
    for seed in (int(s) for s in args.seeds.split(",")):
        begin = time.perf_counter()
        result = run_seed(args.work / f"seed{seed}", seed, args, warn)
        result["seconds"]["total_this_invocation"] = round(time.perf_counter() - begin, 1)
        result["load_average"] = os.getloadavg()
        results.append(result)
        (args.work / "results.json").write_text(json.dumps(results, indent=2, default=str))
        text = "\n".join([table(results), *verdict(results)])
        (args.work / "table.md").write_text(text + "\n")
        print(text, flush=True)
        print(json.dumps({"seed": seed, "seconds": result["seconds"],
                          "load_average": result["load_average"]}), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
