"""The data card's PNG plots, per domain: reward by kind of variant, cost and latency on log
axes, success and cost per route (from the route tables), failure stages of the rejected rows.

A panel is drawn only when its values vary (no plot of a constant, no histogram of a boolean),
and a figure only when it has a panel. Plots are drawn with matplotlib's non-interactive Agg
backend (no display needed) and written atomically under OUT/assets/, so the Hub renders them
from the repository; a fixed Software tag and no date keep the bytes identical for identical data.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: never open a window, never need a display
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from toolscale.stats.card_numbers import CardStats
from toolscale.stats.variants import KINDS
from toolscale.write.output import atomic_write

ASSETS = "assets"
_RETIRED = ("efficiency.png",)  # figures of earlier versions: removed so they are not pushed
_STAGES = ("teacher", "format", "execution", "grounding", "outcome", "judge")
Panel = tuple[str, Callable[[Any], None]]  # (title, draw it on an axis)


def varies(values: pd.Series) -> bool:
    """Whether a panel of `values` shows anything: two distinct numbers at least, not booleans."""
    values = values.dropna()
    return not pd.api.types.is_bool_dtype(values) and values.nunique() >= 2


def _figure(panels: list[Panel], ncols: int, title: str, path: Path) -> None:
    nrows = -(-len(panels) // ncols)
    width, height = 3.6 * ncols, 2.7 * nrows
    figure, axes = plt.subplots(nrows, ncols, figsize=(width, height), squeeze=False)
    # A fixed layout, in inches (tight_layout measures every label: a third of the drawing time).
    figure.subplots_adjust(
        left=0.6 / width,
        right=1 - 0.15 / width,
        bottom=0.55 / height,
        top=1 - 0.65 / height,
        wspace=0.35,
        hspace=0.75,
    )
    for axis in axes.flat[len(panels) :]:
        axis.set_visible(False)
    for axis, (name, draw) in zip(axes.flat, panels, strict=False):
        draw(axis)
        axis.set_title(name, fontsize=9)
        axis.tick_params(labelsize=7)
    figure.suptitle(title, fontsize=10)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": "toolscale"})
    plt.close(figure)
    atomic_write(path, buffer.getvalue())


def reward_panels(attempts: pd.DataFrame) -> list[Panel]:
    """Per domain whose reward_total varies: its distribution for each kind of variant."""
    panels: list[Panel] = []
    if "reward_total" not in attempts:
        return panels
    for domain, frame in attempts.groupby("domain", sort=True):
        if not varies(frame["reward_total"]):
            continue
        kinds = [k for k in KINDS if (frame["kind"] == k).any()]
        data = [frame.loc[frame["kind"] == k, "reward_total"].astype(float) for k in kinds]

        def draw(axis: Any, data: list[pd.Series] = data, kinds: list[str] = kinds) -> None:
            axis.boxplot(data, tick_labels=kinds, showfliers=True, flierprops={"markersize": 2})

        panels.append((f"{domain}: reward_total by kind", draw))
    return panels


def _log_hist(values: pd.Series, verified: pd.Series) -> Callable[[Any], None]:
    positive = values > 0
    low, high = values[positive].min(), values[positive].max()
    bins = np.geomspace(low, high * 1.0001, 25)

    def draw(axis: Any) -> None:
        shown = [values[positive & verified], values[positive & ~verified]]
        axis.hist(shown, bins=bins, stacked=True, label=["verified", "rejected"],
                  color=["#4c72b0", "#dd8452"])  # fmt: skip
        axis.set_xscale("log")
        axis.legend(fontsize=6)

    return draw


def cost_panels(attempts: pd.DataFrame) -> list[Panel]:
    """Per domain: total cost ($) and latency (ms) of every attempt, on log axes."""
    panels: list[Panel] = []
    for domain, frame in attempts.groupby("domain", sort=True):
        verified = frame["verified"].astype(bool)
        for column, label in (("total_cost", "$"), ("total_latency_ms", "ms")):
            if column in frame and varies(frame.loc[frame[column] > 0, column]):
                panels.append((f"{domain}: {column} ({label})", _log_hist(frame[column], verified)))
    return panels


def route_panels(tasks: pd.DataFrame) -> list[Panel]:
    """Per domain with route tables: each route's verified share and mean cost over its tasks."""
    panels: list[Panel] = []
    if "route_table" not in tasks:
        return panels
    for domain, frame in tasks.groupby("domain", sort=True):
        scores = [s for table in frame["route_table"] for s in table if not s["detour"]]
        if not scores:
            continue
        table = pd.DataFrame(scores).groupby("name", sort=True)
        share, cost = table["verified"].mean(), table["total_cost"].mean()
        if varies(share):

            def bars(axis: Any, share: pd.Series = share) -> None:
                axis.barh(share.index, share.values, color="#55a868")
                axis.set_xlim(0, 1)

            panels.append((f"{domain}: verified share per route", bars))
        if varies(cost[cost > 0]):

            def costs(axis: Any, cost: pd.Series = cost) -> None:
                axis.barh(cost.index, cost.values, color="#8172b3")
                axis.set_xscale("log")

            panels.append((f"{domain}: mean $ per route", costs))
    return panels


def rejection_panels(attempts: pd.DataFrame) -> list[Panel]:
    """The failure stages of the rejected rows, per domain (one panel)."""
    rejected = attempts[~attempts["verified"].astype(bool)] if len(attempts) else attempts
    if not len(rejected):
        return []
    counts = rejected.groupby(["domain", "failure_stage"]).size().unstack(fill_value=0)
    counts = counts[[s for s in _STAGES if s in counts.columns]]

    def draw(axis: Any) -> None:
        left = np.zeros(len(counts))
        for stage in counts.columns:
            axis.barh(counts.index, counts[stage].values, left=left, label=stage)
            left += counts[stage].values
        axis.legend(fontsize=6)

    return [("rejected attempts by failure stage", draw)]


def draw(root: Path, stats: CardStats) -> list[dict[str, str]]:
    """Write the figures that have a panel; return their paths (relative to OUT) and titles."""
    attempts = stats.attempts
    figures = [
        ("rewards.png", "reward of every attempt, by kind of variant", 3, reward_panels),
        ("cost_latency.png", "cost and latency of every attempt", 2, cost_panels),
        ("routes.png", "routes played by the oracle", 2, lambda _: route_panels(stats.tasks)),
        ("rejected.png", "rejected attempts", 1, rejection_panels),
    ]
    for name in _RETIRED:
        (root / ASSETS / name).unlink(missing_ok=True)
    written = []
    for name, title, ncols, panels_of in figures:
        panels = panels_of(attempts) if len(attempts) else []
        path = root / ASSETS / name
        if not panels:
            path.unlink(missing_ok=True)  # an old run's figure must not stay linked or pushed
            continue
        _figure(panels, min(ncols, len(panels)), title, path)
        written.append({"path": f"{ASSETS}/{name}", "title": title})
    return written
