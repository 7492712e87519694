"""Is the routing economy worth learning? Per domain of a generate output: the share of tasks each
route is the oracle (best) route on, and each fixed route's mean reward relative to the oracle's.

    python benchmarks/routing_economy.py OUT

A fixed route is a policy that always plays the same kind of route, whatever the task: "always
calculator", "always expert-1" (its route on every task; a task that does not admit it scores 0, as
a wrong answer would, slightly generously), "always cheapest" / "always dearest" (the candidate
route with the lowest / highest total cost on each task, right or wrong; "mistakes included"
also counts the detours, e.g. a calculator shortcut on a program problem). Rewards are the
`reward_total` of the tasks' route tables (toolscale.sample.oracle), the gold route being the
oracle.
Also printed: the share of rejected attempts per domain (traces vs rejected configs). Checks the
issue-22 targets: >= 3 routes best on >= 10% each, none on > 60%, some expert alias on >= 10%, no
fixed route above 70% of the oracle; exits 1 when one fails.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

import datasets

EXPERTS = ("expert-1", "expert-2", "expert-3")


def _load(out: Path, config: str) -> list[dict]:
    files = sorted(str(p) for p in (out / "data" / config).glob("*.parquet"))
    return list(datasets.load_dataset("parquet", data_files=files, split="train")) if files else []


def report(out: Path) -> bool:
    tasks = _load(out, "tasks")
    attempts = Counter((r["domain"], r["verified"]) for c in ("traces", "rejected")
                       for r in _load(out, c))  # fmt: skip
    ok = True
    by_domain: dict[str, list[dict]] = defaultdict(list)
    for task in tasks:
        if task["oracle_route"]:
            by_domain[task["domain"]].append(task)
    for domain, rows in sorted(by_domain.items()):
        n = len(rows)
        best = Counter(r["oracle_route"] for r in rows)
        oracle = sum(r["oracle_reward"] for r in rows) / n
        families = sorted({s["name"] for r in rows for s in r["route_table"] if not s["detour"]})
        fixed: dict[str, float] = {}
        for name in families:
            fixed[f"always {name}"] = (
                sum(
                    next((s["reward_total"] for s in r["route_table"] if s["name"] == name), 0.0)
                    for r in rows
                )
                / n
            )
        for label, pick, detours in (
            ("always cheapest", min, False),
            ("always dearest", max, False),
            ("always cheapest, mistakes included", min, True),
        ):
            total = 0.0
            for r in rows:
                candidates = [s for s in r["route_table"] if detours or not s["detour"]]
                total += pick(candidates, key=lambda s: s["total_cost"])["reward_total"]
            fixed[label] = total / n
        rejected = attempts[(domain, False)] / max(1, sum(attempts[(domain, v)] for v in (0, 1)))
        print(f"\n## {domain}: {n} tasks, oracle mean reward_total {oracle:.3f}, "
              f"rejected attempts {100 * rejected:.1f}%")  # fmt: skip
        print("\n| oracle route | tasks | share |\n|---|---|---|")
        for name, count in best.most_common():
            print(f"| {name} | {count} | {100 * count / n:.1f}% |")
        print("\n| fixed route | mean reward_total | / oracle |\n|---|---|---|")
        for label, value in sorted(fixed.items(), key=lambda kv: -kv[1]):
            print(f"| {label} | {value:.3f} | {100 * value / oracle:.1f}% |")
        shares = [c / n for c in best.values()]
        checks = {
            ">= 3 routes best on >= 10%": sum(s >= 0.10 for s in shares) >= 3,
            "no route best on > 60%": max(shares) <= 0.60,
            "an expert alias best on >= 10%": any(best[a] / n >= 0.10 for a in EXPERTS),
            "no fixed route > 70% of the oracle": max(fixed.values()) <= 0.70 * oracle,
            ">= 15% rejected attempts": rejected >= 0.15,
        }
        for check, passed in checks.items():
            print(f"- {'PASS' if passed else 'FAIL'}: {check}")
            ok &= passed
    return ok


if __name__ == "__main__":
    sys.exit(0 if report(Path(sys.argv[1])) else 1)
