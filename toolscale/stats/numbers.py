"""The two summaries every statistic here is made of: counts added key by key, and the
distribution of a list of numbers."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


def add_counts(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    """Counts by key of both, keys sorted. Example: {"x": 1} + {"x": 2, "y": 1} -> x 3, y 1."""
    return {k: a.get(k, 0) + b.get(k, 0) for k in sorted({*a, *b})}


@dataclass(frozen=True)
class Summary:
    """Count, mean, population standard deviation and quantiles of one numeric column."""

    count: int
    mean: float
    std: float
    minimum: float
    p50: float
    p90: float
    maximum: float


def summarize(values: Iterable[float]) -> Summary:
    """The summary of `values` (all zero when there are none). Quantiles interpolate linearly
    between the closest ranks, as pandas' `quantile` does.

    Example: [0.0, 1.0, 1.0, 1.0] -> count 4, mean 0.75, std 0.433..., min 0, p50 1, p90 1, max 1.
    """
    ordered = sorted(float(v) for v in values)
    if not ordered:
        return Summary(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    return Summary(
        count=len(ordered),
        mean=statistics.fmean(ordered),
        std=statistics.pstdev(ordered),
        minimum=ordered[0],
        p50=_quantile(ordered, 0.5),
        p90=_quantile(ordered, 0.9),
        maximum=ordered[-1],
    )


def _quantile(ordered: list[float], q: float) -> float:
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
