"""Per-task attempt statistics for run.json: pass@k, the solvable band, model mistakes.

The tallies come from the run's summed `toolscale.stats.run_stats.RunStats` (kept per chunk in the
chunk markers, so a resumed run reports the whole output): `passes` counts tasks by (verified
attempts, attempts), `model_errors` the model's tool-call mistakes that went back to it as tool
errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import comb
from typing import Any

from toolscale.stats.run_stats import PassCount


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of P(at least one of k attempts passes) from c passes in n."""
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def attempt_report(
    passes: tuple[PassCount, ...], model_errors: Mapping[str, int]
) -> dict[str, Any]:
    """pass@k for k = 1..K (K = the fewest attempts any task had), the pass histogram, how many
    tasks are solvable but not trivial (1 <= passes <= K-1), and the model's mistakes."""
    tally = {(p.verified, p.attempts): p.tasks for p in passes if p.attempts}
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
        "model_errors": dict(sorted(model_errors.items())),
    }
