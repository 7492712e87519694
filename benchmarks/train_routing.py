"""Routing benchmark: does SFT on the oracle's routes, then GRPO, teach a model to route?
Its defaults are a CPU budget on SmolLM2-135M; `--model`, `--chat-template`, `--sft-config`,
`--grpo-config` and the sizes are flags.

Data: `toolscale generate --domains math,knowledge` (the routing economy's orchestration domains,
default schedules and profiles), run seed 0 for training (`--train-tasks`), run seed 1 for a
held-out pool (`--heldout-pool`). Held out: pool tasks whose task id, normalised instruction
(without the profile sentence) and (instruction, answer) content are no training task's (checked
here, `trainer.split`), then `--per-class` tasks of each oracle route class that has that many
(calculator, code_executor, search, search+calculator, expert-1, expert-2, expert-3 ...), so the
oracle route varies: each class is best on the same share of the held-out tasks.

Policies, all scored by `toolscale-train evaluate` (`trainer.evaluate`) on the held-out tasks
(greedy, tools in the sandbox, the dataset's reward):
- the oracle and every fixed route, played at each task (the evaluation's reference rows);
- base: SmolLM2-135M-Instruct under the Qwen3-Instruct tool template;
- SFT: `toolscale-train sft` from base on the gold (= oracle) traces of `--sft-tasks` training
  tasks drawn across both domains, per seed;
- SFT + GRPO: `toolscale-train grpo` from that seed's SFT model, `--grpo-steps` steps of one
  task x `--generations` rollouts, on the training tasks.
Both trainings update the top `--trainable-layers` of the 30 decoder layers only (CPU budget).

    python benchmarks/train_routing.py --work runs/routing

Writes WORK/results.json (every row, the held-out shares, the sizes, wall times), prints the
Markdown table and the issue's checks, draws benchmarks/train_routing.png (success vs $ per solved
task) and benchmarks/train_routing_grpo_seedN.png (reward and route shares per GRPO step). Phases
already done in WORK are kept, so a rerun resumes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import datasets
from cpu_grpo import grpo_flags

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from toolscale.stats.routes import route_class
from trainer.evaluate import evaluate
from trainer.grpo import grpo
from trainer.model import LOCAL, QWEN3_INSTRUCT
from trainer.sft import sft
from trainer.split import content_key
from trainer.table import HEAD, ORACLE, Row, Scored, markdown_confusion, markdown_line, row_of

DOMAINS = "math,knowledge"
HERE = Path(__file__).parent


def model_name(model: str) -> str:
    return "SmolLM2-135M-Instruct" if model == LOCAL else Path(model).name


def tasks_of(folder: Path) -> list[dict[str, Any]]:
    return list(datasets.load_dataset(str(folder), "tasks", split="train"))


def _instruction(row: dict[str, Any]) -> str:
    key = content_key(row)
    return key[: key.rindex("|")]


def gold_class(row: dict[str, Any]) -> str:
    """The route class of a task row's gold (oracle) actions."""
    return route_class((a["name"], a["arguments"]) for a in json.loads(row["gold_actions"]))


def _order(task_id: str) -> str:
    return hashlib.sha256(f"heldout:{task_id}".encode()).hexdigest()


def held_out(work: Path, per_class: int) -> dict[str, Any]:
    """Choose the held-out tasks (see the module docstring); WORK/heldout_ids.txt lists them."""
    train, pool = tasks_of(work / "train"), tasks_of(work / "heldout")
    ids = {t["id"] for t in train}
    instructions = {_instruction(t) for t in train}
    contents = {content_key(t) for t in train}
    answers = {str(t["expected_answer"]) for t in train}

    def shared(t: dict[str, Any]) -> bool:
        return t["id"] in ids or _instruction(t) in instructions or content_key(t) in contents

    kept = [t for t in pool if not shared(t)]
    by_class: dict[str, list[dict[str, Any]]] = {}
    for task in sorted(kept, key=lambda t: _order(t["id"])):
        by_class.setdefault(gold_class(task), []).append(task)
    chosen = [
        t for group in by_class.values() if len(group) >= per_class for t in group[:per_class]
    ]
    if any(shared(t) for t in chosen):  # the filter above, checked on what is kept
        raise SystemExit("a held-out task shares its id, instruction or content with training")
    if len({gold_class(t) for t in chosen}) < 3:
        raise SystemExit(
            "fewer than 3 oracle route classes with enough tasks: raise --heldout-pool"
        )
    (work / "heldout_ids.txt").write_text("".join(f"{t['id']}\n" for t in chosen))
    return {
        "pool": len(pool),
        "dropped_as_shared_with_training": len(pool) - len(kept),
        "pool_oracle_classes": {c: len(g) for c, g in by_class.items()},
        "tasks": len(chosen),
        "oracle_classes": dict(Counter(gold_class(t) for t in chosen).most_common()),
        "domains": dict(Counter(t["domain"] for t in chosen)),
        "answers_also_in_training": sum(str(t["expected_answer"]) in answers for t in chosen),
    }


def score(work: Path, name: str, argv: list[str]) -> dict[str, Any]:
    """`toolscale-train evaluate` on the held-out tasks (kept in WORK/eval_NAME once done)."""
    folder = work / f"eval_{name}"
    if not (folder / "evaluation.json").exists():
        begin = time.perf_counter()
        evaluate(
            [
                "--dataset",
                str(work / "heldout"),
                "--tasks_from",
                str(work / "heldout_ids.txt"),
                "--output_dir",
                str(folder),
                *argv,
            ]
        )
        seconds = time.perf_counter() - begin
        (folder / "seconds.txt").write_text(f"{seconds:.1f}\n")
    return json.loads((folder / "evaluation.json").read_text())


def train_sft(work: Path, seed: int, args: Any) -> Path:
    out = work / f"sft_{seed}"
    if not (out / "model.safetensors").exists():
        sft(
            [
                "--config",
                args.sft_config,
                "--model",
                args.model,
                "--chat_template",
                args.chat_template,
                "--dataset",
                str(work / "train"),
                "--domains",
                DOMAINS,
                "--max_tasks",
                str(args.sft_tasks),
                "--trainable_layers",
                str(args.trainable_layers),
                "--learning_rate",
                str(args.sft_lr),
                "--num_train_epochs",
                str(args.sft_epochs),
                "--logging_steps",
                "1",
                "--seed",
                str(seed),
                "--output_dir",
                str(out),
                "--overwrite_output_dir",  # a leftover checkpoint: trained anew
                "true",
            ]
        )
    return out


def train_grpo(work: Path, seed: int, args: Any) -> Path:
    out = work / f"grpo_{seed}"
    if not (out / "model.safetensors").exists():
        grpo(
            [
                "--config",
                args.grpo_config,
                "--model",
                str(work / f"sft_{seed}"),
                "--dataset",
                str(work / "train"),
                "--domains",
                DOMAINS,
                *grpo_flags(args, args.generations),
                "--seed",
                str(seed),
                "--output_dir",
                str(out),
                "--overwrite_output_dir",  # a leftover checkpoint: trained anew
                "true",
            ]
        )
    return out


def attempts(record: dict[str, Any], policy: str) -> list[Scored]:
    return [Scored(**a) for a in record["attempts"][policy]]


def spread(rows: list[Row], label: str) -> str:
    """A Markdown line: the mean of each column over the seeds, with its range."""

    def cell(values: list[float | None], form: str) -> str:
        kept = [v for v in values if v is not None]
        if not kept:
            return "n/a"
        mean = statistics.fmean(kept)
        low, high = min(kept), max(kept)
        missing = f", {len(values) - len(kept)} n/a" if len(kept) < len(values) else ""
        return f"{form.format(mean)} ({form.format(low)}–{form.format(high)}{missing})"

    columns = [
        cell([r.success for r in rows], "{:.2f}"),
        cell([r.mean_reward for r in rows], "{:.3f}"),
        cell(
            [None if r.share_of_oracle is None else 100 * r.share_of_oracle for r in rows],
            "{:.1f}%",
        ),
        cell([r.usd_per_solved for r in rows], "${:.6f}"),
        cell([r.mean_latency_ms for r in rows], "{:,.0f} ms"),
        cell([r.compliance for r in rows], "{:.2f}"),
        cell([r.oracle_route_share for r in rows], "{:.2f}"),
    ]
    return f"| **{label}** | " + " | ".join(columns) + " |"


def _pairs(first: list[Row], second: list[Row], form: str) -> str:
    return ", ".join(form.format(a=a, b=b) for a, b in zip(first, second, strict=True))


def checks(rows: dict[str, Any]) -> list[tuple[str, bool, str]]:
    """The issue's bar, measured: (check, passed, the numbers)."""
    sft_rows, grpo_rows = rows["sft"], rows["grpo"]
    fixed = max((r for r in rows["reference"] if r.kind == "fixed"), key=lambda r: r.mean_reward)
    oracle = next(r for r in rows["reference"] if r.kind == ORACLE)
    pairs = list(zip(sft_rows, grpo_rows, strict=True))
    gaps = [
        (g.mean_reward - s.mean_reward) / (oracle.mean_reward - s.mean_reward)
        if oracle.mean_reward > s.mean_reward
        else float("nan")
        for s, g in pairs
    ]
    return [
        (
            "SFT+GRPO mean reward_total > SFT's, every seed",
            all(g.mean_reward > s.mean_reward for s, g in pairs),
            _pairs(grpo_rows, sft_rows, "{a.mean_reward:.3f} vs {b.mean_reward:.3f}"),
        ),
        (
            f"SFT+GRPO mean reward_total > every fixed route's (best: {fixed.policy}, "
            f"{fixed.mean_reward:.3f}), every seed",
            all(g.mean_reward > fixed.mean_reward for g in grpo_rows),
            ", ".join(f"{g.mean_reward:.3f}" for g in grpo_rows),
        ),
        (
            "SFT+GRPO takes the oracle's route class more often than SFT, every seed",
            all(g.oracle_route_share > s.oracle_route_share for s, g in pairs),
            _pairs(grpo_rows, sft_rows, "{a.oracle_route_share:.2f} vs {b.oracle_route_share:.2f}"),
        ),
        (
            "SFT+GRPO closes >= half of the SFT-to-oracle gap in mean reward_total, every seed",
            all(x >= 0.5 for x in gaps),
            ", ".join(f"{x:.2f}" for x in gaps),
        ),
    ]


def plot(rows: dict[str, Any], target: Path, note: str, model: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axis = plt.subplots(figsize=(7.5, 5.0))
    unsolved = []
    groups = [
        ("fixed route", [r for r in rows["reference"] if r.kind == "fixed"], "#999999", "o"),
        ("oracle", [r for r in rows["reference"] if r.kind == ORACLE], "#2ca02c", "*"),
        ("base", rows["base"], "#000000", "s"),
        ("SFT (one per seed)", rows["sft"], "#4c72b0", "^"),
        ("SFT + GRPO (one per seed)", rows["grpo"], "#dd8452", "v"),
    ]
    for label, found, color, marker in groups:
        shown = [r for r in found if r.usd_per_solved is not None]
        if shown:
            axis.scatter(
                [r.usd_per_solved for r in shown],
                [r.success for r in shown],
                c=color,
                marker=marker,
                s=110 if marker == "*" else 45,
                label=label,
            )
        none = [r for r in found if r.usd_per_solved is None]
        unsolved += [r.policy for r in none]
        if none:  # no $ per solved task: drawn hollow at success 0, x = mean $ per task
            axis.scatter(
                [r.mean_cost for r in none],
                [0.0] * len(none),
                facecolors="none",
                edgecolors=color,
                marker=marker,
                s=45,
                label=f"{label}: solved none (x: mean $ per task)",
            )
        if label == "fixed route":
            for r in shown:
                axis.annotate(
                    r.policy.removeprefix("always "),
                    (r.usd_per_solved, r.success),
                    fontsize=6,
                    xytext=(3, 2),
                    textcoords="offset points",
                )
    axis.set_xscale("log")
    axis.set_xlabel("$ per solved task (all spend / tasks solved, log)")
    axis.set_ylabel("success (share of held-out tasks solved)")
    title = f"held-out routing tasks, greedy, {model_name(model)}"
    if unsolved:
        title += f"\nsolved none: {', '.join(unsolved)}"
    axis.set_title(title, fontsize=9)
    axis.legend(fontsize=7, loc="upper left")
    fig.text(0.01, 0.01, note, fontsize=6)
    fig.tight_layout()
    fig.savefig(target, dpi=90)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("runs/routing"))
    parser.add_argument("--train-tasks", type=int, default=300)
    parser.add_argument("--heldout-pool", type=int, default=300)
    parser.add_argument("--per-class", type=int, default=3)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--sft-tasks", type=int, default=12)
    parser.add_argument("--sft-epochs", type=float, default=1.0)
    parser.add_argument("--sft-lr", type=float, default=5e-4)
    parser.add_argument("--grpo-tasks", type=int, default=64)
    parser.add_argument("--grpo-steps", type=int, default=3)
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--grpo-lr", type=float, default=5e-5)
    parser.add_argument("--trainable-layers", type=int, default=6)
    parser.add_argument("--max-completion-length", type=int, default=768)
    parser.add_argument("--max-turns", type=int, default=4)
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--eval-batch", type=int, default=16)
    parser.add_argument("--plot", default="train_routing", help="benchmarks/PLOT.png")
    parser.add_argument("--model", default=LOCAL, help="the base model (a path or a Hub id)")
    parser.add_argument("--chat-template", default=QWEN3_INSTRUCT)
    parser.add_argument("--sft-config", default="trainer/configs/sft-cpu.yaml")
    parser.add_argument("--grpo-config", default="trainer/configs/cpu-smoke.yaml")
    args = parser.parse_args()
    work: Path = args.work
    seeds = [int(s) for s in args.seeds.split(",")]
    clock: dict[str, float] = {}
    start = time.perf_counter()
    for name, seed, count in (("train", 0, args.train_tasks), ("heldout", 1, args.heldout_pool)):
        if not (work / name / "run.json").exists():
            generate(
                GenerateConfig(
                    domains=DOMAINS.split(","), num_tasks=count, out=work / name, seed=seed
                )
            )
    clock["generate"] = time.perf_counter() - start
    heldout = held_out(work, args.per_class)
    print("held out:", json.dumps(heldout), flush=True)
    rollout = [
        "--max_turns",
        str(args.max_turns),
        "--max_new_tokens",
        str(args.max_new_tokens),
        "--batch_size",
        str(args.eval_batch),
        "--reference_rows",
        "false",
    ]
    records = {"reference": score(work, "reference", [])}
    records["base"] = score(
        work,
        "base",
        ["--model", args.model, "--chat_template", args.chat_template, "--label", "base", *rollout],
    )
    for seed in seeds:
        for phase, train in (("sft", train_sft), ("grpo", train_grpo)):
            begin = time.perf_counter()
            model = train(work, seed, args)
            clock[f"train_{phase}_{seed}"] = time.perf_counter() - begin
            label = f"{phase}_{seed}"
            records[label] = score(work, label, ["--model", str(model), "--label", label, *rollout])
    clock["total"] = time.perf_counter() - start
    reference = records["reference"]
    oracle_mean = statistics.fmean(a.reward_total for a in attempts(reference, ORACLE))
    ref_rows = [
        row_of(r["policy"], r["kind"], attempts(reference, r["policy"]), oracle_mean)
        for r in reference["rows"]
    ]
    rows: dict[str, Any] = {
        "reference": ref_rows,
        "base": [row_of("base", "policy", attempts(records["base"], "base"), oracle_mean)],
    }
    for phase in ("sft", "grpo"):
        rows[phase] = [
            row_of(
                f"{phase}_{s}",
                "policy",
                attempts(records[f"{phase}_{s}"], f"{phase}_{s}"),
                oracle_mean,
            )
            for s in seeds
        ]
    names = {"sft": "SFT on oracle routes", "grpo": "SFT + GRPO"}
    lines = [HEAD, markdown_line(rows["base"][0], f"base: {model_name(args.model)}")]
    for phase in ("sft", "grpo"):
        lines.append(spread(rows[phase], f"{names[phase]}, mean (range) of {len(seeds)} seeds"))
        lines += [
            markdown_line(r, f"{names[phase]}, seed {s}")
            for s, r in zip(seeds, rows[phase], strict=True)
        ]
    lines += [markdown_line(r) for r in ref_rows]
    table = "\n".join(lines)
    confusions = []
    for label, found in (("base", rows["base"]), *((names[p], rows[p]) for p in names)):
        summed: dict[str, Counter[str]] = {}
        for r in found:
            for chosen, counts in r.confusion.items():
                summed.setdefault(chosen, Counter()).update(counts)
        grid = markdown_confusion({c: dict(o) for c, o in sorted(summed.items())})
        confusions.append(
            f"\n{label}, seeds summed: chosen route class (rows) vs oracle's\n\n{grid}"
        )
    measured = checks(rows)
    timing = {
        name: float((work / f"eval_{name}" / "seconds.txt").read_text())
        for name in records
        if (work / f"eval_{name}" / "seconds.txt").exists()
    }
    results = {
        "heldout": heldout,
        "args": vars(args) | {"work": str(work)},
        "rows": {k: [r.__dict__ for r in v] for k, v in rows.items()},
        "checks": [{"check": c, "passed": p, "measured": m} for c, p, m in measured],
        "eval_seconds": timing,
    }
    # Wall times of every invocation in WORK (a resumed one times only what it still had to do).
    previous = work / "results.json"
    results["invocations"] = (
        json.loads(previous.read_text()).get("invocations", []) if previous.exists() else []
    )
    results["invocations"].append({k: round(v, 1) for k, v in clock.items()})
    previous.write_text(json.dumps(results, indent=2, default=str))
    note = (
        f"{heldout['tasks']} held-out tasks ({args.per_class} per oracle class); SFT "
        f"{args.sft_tasks} gold traces, GRPO {args.grpo_steps} steps x {args.generations}; "
        f"seeds {args.seeds}"
    )
    plot(rows, HERE / f"{args.plot}.png", note, args.model)
    for seed in seeds:  # reward and route shares per GRPO step (benchmarks/plot_route_shares.py)
        target = HERE / f"{args.plot}_grpo_seed{seed}.png"
        script = HERE / "plot_route_shares.py"
        run = work / f"grpo_{seed}"
        subprocess.run([sys.executable, str(script), str(run), "--out", str(target)], check=True)
    print(table)
    print("\n".join(confusions))
    for check, passed, measurement in measured:
        print(f"- {'PASS' if passed else 'FAIL'}: {check} ({measurement})")
    print(json.dumps({"invocations": results["invocations"], "eval_seconds": timing}))


if __name__ == "__main__":
    main()
