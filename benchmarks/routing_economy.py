"""Is the routing economy worth learning? Per domain of a generate output: the share of tasks each
route is the oracle (best) route on, and each fixed route's mean reward relative to the oracle's.

    python benchmarks/routing_economy.py OUT

Fixed routes and the oracle are those of `toolscale.stats.routes` (the data card shows the same
tables).
Also printed: the share of rejected attempts per domain (traces vs rejected configs). Checks the
issue-22 targets: >= 3 routes best on >= 10% each, none on > 60%, some expert alias on >= 10%, no
fixed route above 70% of the oracle; exits 1 when one fails.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import datasets

from toolscale.stats.routes import routing

EXPERTS = ("expert-1", "expert-2", "expert-3")


def _load(out: Path, config: str) -> list[dict]:
    files = sorted(str(p) for p in (out / "data" / config).glob("*.parquet"))
    return list(datasets.load_dataset("parquet", data_files=files, split="train")) if files else []


def report(out: Path) -> bool:
    tasks = _load(out, "tasks")
    attempts = Counter((r["domain"], r["verified"]) for c in ("traces", "rejected")
                       for r in _load(out, c))  # fmt: skip
    ok = True
    for table in routing(tasks):
        domain, n, best, fixed, oracle = (
            table.domain, table.tasks, Counter(table.best), table.fixed, table.oracle_mean
        )  # fmt: skip
        rejected = attempts[(domain, False)] / max(1, sum(attempts[(domain, v)] for v in (0, 1)))
        print(f"\n## {domain}: {n} tasks, oracle mean reward_total {oracle:.3f}, "
              f"rejected attempts {100 * rejected:.1f}%")  # fmt: skip
        print("\n| oracle route | tasks | share |\n|---|---|---|")
        for name, count in best.most_common():
            print(f"| {name} | {count} | {100 * count / n:.1f}% |")
        print("\n| fixed route | mean reward_total | / oracle |\n|---|---|---|")
        for label, value in fixed.items():
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
