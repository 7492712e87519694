"""Reward component distributions per domain and profile counts, as run.json reports them.

Computed from the written shards (not from memory), so a run continued with `--resume` reports
the same figures as an uninterrupted one. Only the few columns needed are read.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Any

import pyarrow.parquet as pq

from toolscale.stats.numbers import summarize
from toolscale.write.output import Output

COMPONENTS = (
    "reward_outcome",
    "reward_efficiency",
    "reward_preference",
    "reward_total",
    "reward_group",
)
_FLAGS = ("preference_compliant", "solved_quickly")


def describe(values: list[float]) -> dict[str, float]:
    """n, mean, population std, min, median and max, rounded to 6 decimals (run.json's form of
    `toolscale.stats.numbers.summarize`).

    Example: [0.0, 1.0, 1.0, 1.0] -> n 4, mean 0.75, std 0.433013, min 0, p50 1, max 1.
    """
    s = summarize(values)
    stats = {"mean": s.mean, "std": s.std, "min": s.minimum, "p50": s.p50, "max": s.maximum}
    return {"n": s.count, **{k: round(v, 6) for k, v in stats.items()}}


def reward_report(output: Output) -> dict[str, Any]:
    """`reward_distributions` (per domain: each component over every attempt, traces and
    rejected, plus the share of compliant and quick attempts) and `profiles` (per domain: how
    many tasks got each preference profile)."""
    columns: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for config in ("traces", "rejected"):
        for path in output.shards(config):
            table = pq.read_table(path, columns=["domain", *COMPONENTS, *_FLAGS]).to_pydict()
            for i, domain in enumerate(table["domain"]):
                for name in (*COMPONENTS, *_FLAGS):
                    columns[domain][name].append(float(table[name][i]))
    distributions = {
        domain: {
            **{name: describe(values[name]) for name in COMPONENTS},
            **{f"{name}_share": round(statistics.fmean(values[name]), 6) for name in _FLAGS},
        }
        for domain, values in sorted(columns.items())
    }
    profiles: dict[str, Counter[str]] = defaultdict(Counter)
    for path in output.shards("tasks"):
        table = pq.read_table(path, columns=["domain", "preference_profile"]).to_pydict()
        for domain, profile in zip(table["domain"], table["preference_profile"], strict=True):
            profiles[domain][profile] += 1
    return {
        "reward_distributions": distributions,
        "profiles": {d: dict(sorted(c.items())) for d, c in sorted(profiles.items())},
    }
