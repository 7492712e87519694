"""Per-task attempt statistics for run.json: pass@k, the solvable band, model mistakes.

Counts are kept per chunk (in the chunk markers) so a resumed run reports the whole output:
`passes:<c>/<n>` counts tasks with c verified attempts out of n, `model_error:<kind>` counts the
model's tool-call mistakes that went back to it as tool errors.
"""

from __future__ import annotations

from collections import Counter
from math import comb
from typing import Any

from toolscale.records import Trace
from toolscale.teachers.base import Draft


def attempt_counts(drafts: list[Draft], traces: list[Trace]) -> Counter[str]:
    """The counts one task adds: its pass tally and its model mistakes."""
    counts: Counter[str] = Counter()
    counts[f"passes:{sum(t.verified for t in traces)}/{len(traces)}"] += 1
    for draft in drafts:
        counts.update({f"model_error:{k}": v for k, v in draft.model_errors.items()})
    return counts


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of P(at least one of k attempts passes) from c passes in n."""
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def attempt_report(totals: Counter[str]) -> dict[str, Any]:
    """pass@k for k = 1..K (K = the fewest attempts any task had), the pass histogram, how many
    tasks are solvable but not trivial (1 <= passes <= K-1), and the model's mistakes."""
    tally = {
        tuple(int(x) for x in key[7:].split("/")): v
        for key, v in totals.items()
        if key.startswith("passes:")
    }
    tasks = sum(tally.values())
    if not tasks:
        return {}
    k_max = min(n for _, n in tally)
    return {
        "tasks": tasks,
        "attempts_per_task": k_max,
        "pass_at_k": {
            str(k): round(sum(v * pass_at_k(n, c, k) for (c, n), v in tally.items()) / tasks, 6)
            for k in range(1, k_max + 1)
        },
        "passes_histogram": {f"{c}/{n}": v for (c, n), v in sorted(tally.items())},
        "solvable_not_trivial": sum(v for (c, n), v in tally.items() if 1 <= c <= n - 1),
        "model_errors": {
            k[12:]: v for k, v in sorted(totals.items()) if k.startswith("model_error:")
        },
    }
