"""Reward soundness: does the gold route win its group, and can a scripted policy game the reward?

Generates a dataset with the reference teacher (`--detours`, default schedules and profiles),
then runs `toolscale check-rewards` on it: the gold route, its detours and the gaming policies
played through the real sandbox, verifier and labels. Prints, per domain and profile, how often
gold is the best attempt of its group, how often the cheapest correct attempt wins under
`cheap`, how often a gaming policy is best (by reward_total / reward_group), the mean
reward_total of gold and of the best gaming policy; per stateful domain how many tasks each
policy that does none of the work (parrot, refusal without look-up, cheapest / dearest route, a
guess) got verified; how many tasks have a constraint-breaking attempt scoring at or above a
compliant verified one; and per domain the share of groups whose reward_group varies.

    .venv/bin/python benchmarks/reward_gaming.py --num-tasks 800 --per-domain 200
    .venv/bin/python benchmarks/reward_gaming.py --num-tasks 800 --per-domain 200 \
        --price-schedules seed
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import pandas as pd

from toolscale.check.reward_check import check_rewards
from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from toolscale.stats.economics import group_spread


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=800)
    parser.add_argument("--per-domain", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--price-schedules", default="standard,open_weights,premium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        generate(
            GenerateConfig(
                domains=["math", "knowledge", "bank", "railway"],
                num_tasks=args.num_tasks,
                out=out,
                detours=True,
                seed=args.seed,
                price_schedules=args.price_schedules.split(","),
            )
        )
        report = check_rewards(out, per_domain=args.per_domain)
        attempts = pd.concat(
            [
                pd.read_parquet(p)
                for c in ("traces", "rejected")
                for p in (out / "data" / c).glob("*")
            ]
        )
    print(
        "| domain | profile | groups | gold best | cheapest correct wins (cheap) | "
        "gaming best (total / group) | gold mean | best gaming mean (policy) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for cell in report["table"]:
        means = cell["mean_reward_total"]
        gaming = {k: v for k, v in means.items() if k.startswith("gaming:")}
        worst = max(gaming, key=gaming.get)
        cheap = cell["cheapest_wins"]
        print(
            f"| {cell['domain']} | {cell['profile']} | {cell['groups']} | "
            f"{cell['gold_best']:.0%} | {'—' if cheap is None else f'{cheap:.0%}'} | "
            f"{cell['gaming_best']} / {cell['gaming_best_group']} | {means['gold']:.3f} | "
            f"{gaming[worst]:.3f} ({worst.removeprefix('gaming:')}) |"
        )
    print(f"\npassed: {report['passed']}\n")
    print("| stateful domain | policy that does none of the work | tasks | verified |")
    print("|---|---|---|---|")
    for entry in report["unworked"]:
        print(
            f"| {entry['domain']} | {entry['policy']} | {entry['tasks']} | "
            f"{entry['verified']} ({entry['share']:.1%}) |"
        )
    # Issue 22: no attempt that breaks a hard constraint above a compliant verified one.
    above = {"reward_total": 0, "reward_group": 0}
    for _, members in attempts.groupby("task_id"):
        broken = members[~members["preference_compliant"]]
        good = members[members["preference_compliant"] & members["verified"]]
        if len(broken) and len(good):
            above["reward_total"] += int(broken["reward_total"].max() >= good["reward_total"].min())
            above["reward_group"] += int(broken["reward_group"].max() > good["reward_group"].min())
    broken_tasks = attempts[~attempts["preference_compliant"]]["task_id"].nunique()
    print(
        f"\ntasks with a constraint-breaking attempt: {broken_tasks}; where one scores at or above "
        f"a compliant verified attempt: reward_total {above['reward_total']}, reward_group "
        f"{above['reward_group']}\n"
    )
    print("| domain | groups with >= 2 attempts | reward_group varies |")
    print("|---|---|---|")
    for row in group_spread(attempts):
        print(f"| {row['domain']} | {row['groups']} | {row['share']} |")


if __name__ == "__main__":
    main()
