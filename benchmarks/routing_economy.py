"""Is the routing economy worth learning? Per domain of a generate output: the share of tasks each
route is the oracle (best) route on, and each fixed route's mean reward relative to the oracle's;
then the learnability table (`benchmarks/learnability.py`): can a light router learn the choice.

    python benchmarks/routing_economy.py OUT [--before OLD_OUT]

With `--before`, the learnability table shows an older output's figures beside OUT's (the same
command on data made by an earlier tree).

Fixed routes and the oracle are those of `toolscale.stats.routes` (the data card shows the same
tables).
Also printed: the share of rejected attempts per domain (traces vs rejected configs). Checks the
issue-22 targets: >= 3 routes best on >= 10% each, none on > 60%, some expert alias on >= 10%, no
fixed route above 70% of the oracle; and the issue-35 targets, against the expected-reward
oracle: a class router by template alone at most 75% of it in each domain, the router baseline at
least 90%, at least 30% of the tasks with an `expected_route` other than their template's most
common one. Exits 1 when one fails.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import datasets
import learnability as learn  # this folder's: a script's own folder is on its path

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


def _cell(value: float | None, share: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3f} ({'n/a' if share is None else f'{100 * share:.1f}%'})"


def learnability(out: Path, before: Path | None) -> bool:
    """The learnability table of `out` (beside `before`'s) and the issue-35 targets."""
    rows = [t for t in _load(out, "tasks") if t.get("route_table")]
    old = [t for t in _load(before, "tasks") if t.get("route_table")] if before else []
    ok = True
    print("\n## Learnability: trained on one half of each domain's tasks, scored on the other")
    for domain in sorted({r["domain"] for r in rows}):
        mine = [r for r in rows if r["domain"] == domain]
        found = learn.table(mine)
        share = learn.shares(found)
        then: dict = {}
        if old:
            then = learn.table([r for r in old if r["domain"] == domain])
        print(f"\n### {domain}: {len(mine)} tasks ({len(mine) // 2} or so scored)\n")
        head = "| row | mean reward (share of the expected-reward oracle) |"
        if old:
            head += " before: mean reward (share of the oracle) |"
        print(head + "\n|---|---|" + ("---|" if old else ""))
        for name in learn.ROWS:
            line = f"| {name} | {_cell(found[name], share[name])} |"
            if old:
                line += f" {_cell(then[name], learn.shares(then)[name])} |"
            print(line)
        checks = {
            "class router by template <= 75% of the expected-reward oracle": (
                share["class router: template"] or 1.0
            )
            <= 0.75,
            "router baseline >= 90% of the expected-reward oracle": (
                share["router baseline"] or 0.0
            )
            >= 0.90,
        }
        for check, passed in checks.items():
            print(f"- {'PASS' if passed else 'FAIL'}: {check}")
            ok &= passed
    differs = learn.mode_differs(rows)
    passed = differs >= 0.30
    print(f"\n- {'PASS' if passed else 'FAIL'}: >= 30% of tasks with an expected_route other than "
          f"their template's most common one ({100 * differs:.1f}%)")  # fmt: skip
    return ok and passed


if __name__ == "__main__":
    before = Path(sys.argv[sys.argv.index("--before") + 1]) if "--before" in sys.argv else None
    out = Path(sys.argv[1])
    economy = report(out)
    sys.exit(0 if learnability(out, before) and economy else 1)
