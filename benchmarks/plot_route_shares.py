"""Plot a GRPO run's reward and route mix per step, side by side, from its metrics and dumps.

Left: the mean reward_total per step (`toolscale/reward_total`, else TRL's `reward`). Right: the
share of each route class among the step's rollouts, stacked to 1 (`toolscale/route/<class>` in
metrics.jsonl, written by `trainer.route_mix`; a run without them, e.g. one from before, has its
shares counted from rollouts.jsonl instead, its `route_class` or executed calls: the dumped
sample only). Classes are the oracle's names (`toolscale.stats.routes.route_class`).

    .venv/bin/python benchmarks/plot_route_shares.py RUN_FOLDER [--out FILE.png]

Writes RUN_FOLDER/route_shares.png unless --out is given.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from toolscale.stats.routes import route_class

PREFIX = "toolscale/route/"
REWARDS = ("toolscale/reward_total", "reward")


def _lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def curves(run: Path) -> tuple[dict[int, float], dict[int, dict[str, float]]]:
    """(step -> mean reward, step -> {route class: share}) of the run in folder `run`."""
    metrics = _lines(run / "metrics.jsonl")
    reward: dict[int, float] = {}
    shares: dict[int, dict[str, float]] = {}
    for row in metrics:
        key = next((k for k in REWARDS if row.get(k) is not None), None)
        if key is not None:
            reward[row["step"]] = float(row[key])
        mix = {k.removeprefix(PREFIX): float(v) for k, v in row.items() if k.startswith(PREFIX)}
        if mix:
            shares[row["step"]] = mix
    if not shares:  # counted from the dumped rollouts
        counts: dict[int, Counter[str]] = defaultdict(Counter)
        for record in _lines(run / "rollouts.jsonl"):
            name = record.get("route_class") or route_class(
                (c["name"], c["arguments"]) for c in record["executed_calls"]
            )
            counts[record["step"]][name] += 1
        shares = {
            step: {k: n / sum(c.values()) for k, n in c.items()} for step, c in counts.items()
        }
    return reward, shares


def plot(run: Path, target: Path) -> None:
    """Draw the two panels of the run in `run` into `target` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    reward, shares = curves(run)
    if not reward and not shares:
        raise ValueError(f"{run} has no metrics.jsonl or rollouts.jsonl of a GRPO run")
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
    steps = sorted(reward)
    left.plot(steps, [reward[s] for s in steps], marker="o")
    left.set_title("mean reward_total per step", fontsize=10)
    left.set_xlabel("GRPO step")
    order = sorted({c for mix in shares.values() for c in mix})
    steps = sorted(shares)
    stacked = [[shares[s].get(c, 0.0) for s in steps] for c in order]
    if steps:
        right.stackplot(steps, stacked, labels=order)
        right.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    right.set_ylim(0, 1)
    right.set_title("route class shares of the rollouts", fontsize=10)
    right.set_xlabel("GRPO step")
    fig.tight_layout()
    fig.savefig(target, dpi=90)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a GRPO output folder (metrics.jsonl, rollouts)")
    parser.add_argument("--out", type=Path, default=None, help="PNG (default RUN/route_shares.png)")
    args = parser.parse_args(argv)
    try:
        if not args.run.is_dir():
            raise ValueError(f"{args.run} is not a folder: give a GRPO run's --output_dir")
        target = args.out or args.run / "route_shares.png"
        plot(args.run, target)
    except ValueError as exc:
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(2)
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
