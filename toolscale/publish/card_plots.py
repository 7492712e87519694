"""The data card's PNG plots, one figure per question: how reward differs by kind of variant,
what attempts cost and how long they take per domain, how each route does, why attempts failed.

Each figure is 720 pixels wide (7.2 inches at 100 dpi), the width a card shows it at without
scaling, with its height and left margin computed from what it holds (rows, the longest label),
so nothing is clipped or shrunk to illegibility; one title per figure. A panel is drawn only when
its values vary (no plot of a constant, no histogram of a boolean), and a figure only when it has
a panel. Plots are drawn with matplotlib's non-interactive Agg backend (no display needed) and
written atomically under OUT/assets/, so the Hub renders them from the repository; a fixed
Software tag and no date keep the bytes identical for identical data.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
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
WIDTH = 7.2  # inches: 720 pixels at 100 dpi
_RETIRED = ("efficiency.png",)  # figures of earlier versions: removed so they are not pushed
# One colour per failure stage and per family, fixed, so figures of two runs compare.
STAGE_COLOURS = {
    "teacher": "#8c8c8c",
    "format": "#dd8452",
    "execution": "#c44e52",
    "grounding": "#8172b3",
    "outcome": "#4c72b0",
    "judge": "#55a868",
}
FAMILY_COLOURS = {"stateful": "#4c72b0", "orchestration": "#dd8452"}
VERIFIED_COLOURS = {"verified": "#4c72b0", "rejected": "#dd8452"}
Panel = tuple[str, Callable[[Any], None]]  # (title, draw it on an axis)


def varies(values: pd.Series) -> bool:
    """Whether a panel of `values` shows anything: two distinct numbers at least, not booleans."""
    values = values.dropna()
    return not pd.api.types.is_bool_dtype(values) and values.nunique() >= 2


def label_inches(labels: Sequence[str], fontsize: float = 8) -> float:
    """The width a column of tick labels needs: about 0.6 em per character, plus padding."""
    longest = max((len(str(label)) for label in labels), default=0)
    return 0.25 + longest * 0.6 * fontsize / 72


def figure_of(title: str, panels: list[Panel], ncols: int, row_inches: float, left: float) -> Any:
    """A figure of `panels` in rows of `ncols`, each row `row_inches` high, `left` inches left
    of each panel for its tick labels."""
    nrows = -(-len(panels) // ncols)
    # inches: the title above (and the panels' own titles), the x tick labels below
    top, bottom = 0.45 + 0.25 * any(name for name, _ in panels), 0.5
    height = nrows * row_inches + top + bottom + 0.35 * (nrows - 1)
    figure, axes = plt.subplots(nrows, ncols, figsize=(WIDTH, height), squeeze=False)
    # A fixed layout, in inches (tight_layout measures every label: a third of the drawing time).
    gap = left if ncols > 1 else 0.0  # the next panel's labels sit in the gap
    figure.subplots_adjust(
        left=left / WIDTH,
        right=1 - 0.2 / WIDTH,
        bottom=bottom / height,
        top=1 - top / height,
        wspace=gap / ((WIDTH - left - 0.2 - gap * (ncols - 1)) / ncols) if ncols > 1 else 0.2,
        hspace=0.35 / row_inches + 0.25,
    )
    for axis in axes.flat[len(panels) :]:
        axis.set_visible(False)
    for axis, (name, draw) in zip(axes.flat, panels, strict=False):
        draw(axis)
        if name:
            axis.set_title(name, fontsize=9)
        axis.tick_params(labelsize=8)
    figure.suptitle(title, fontsize=10, y=1 - 0.12 / height, va="top")
    return figure


def _save(figure: Any, path: Path) -> None:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": "toolscale"})
    plt.close(figure)
    atomic_write(path, buffer.getvalue())


def _boxes(
    axis: Any, groups: dict[str, list[pd.Series]], labels: list[str], colours: dict[str, str]
) -> None:
    """Side-by-side boxes: for each label (a tick), one box per group, in the group's colour."""
    width = 0.8 / max(len(groups), 1)
    for g, (group, series) in enumerate(groups.items()):
        offset = (g - (len(groups) - 1) / 2) * width
        kept = [(i, s) for i, s in enumerate(series) if len(s)]
        if not kept:
            continue
        parts = axis.boxplot(
            [s for _, s in kept],
            positions=[i + offset for i, _ in kept],
            widths=width * 0.85,
            patch_artist=True,
            flierprops={"markersize": 2},
            medianprops={"color": "black"},
        )
        for box in parts["boxes"]:
            box.set_facecolor(colours.get(group, "#999999"))
        axis.plot([], [], color=colours.get(group, "#999999"), linewidth=6, label=group)
    axis.set_xticks(range(len(labels)), labels)
    axis.legend(fontsize=7, loc="lower left")


def reward_panels(attempts: pd.DataFrame, families: dict[str, str] | None = None) -> list[Panel]:
    """One panel: `reward_total` by kind of variant, one box per family of domains (stateful
    domains share their kinds' distributions; one panel per domain repeated them), or none when
    it never varies."""
    if "reward_total" not in attempts or not varies(attempts["reward_total"]):
        return []
    families = families or {}
    family = attempts["domain"].map(lambda d: families.get(d, d))
    kinds = [k for k in KINDS if (attempts["kind"] == k).any()]
    groups: dict[str, list[pd.Series]] = {}
    for name in sorted(family.unique()):
        mine = attempts[family == name]
        domains = sorted(mine["domain"].unique())
        label = f"{name} ({len(domains)} domains)" if len(domains) > 1 else domains[0]
        groups[label] = [mine.loc[mine["kind"] == k, "reward_total"].astype(float) for k in kinds]
    colours = {label: FAMILY_COLOURS.get(label.split(" (")[0], "#55a868") for label in groups}

    def draw(axis: Any) -> None:
        _boxes(axis, groups, kinds, colours)
        axis.set_ylabel("reward_total", fontsize=8)

    return [("", draw)]


def cost_panels(attempts: pd.DataFrame) -> list[Panel]:
    """Two panels: total cost ($) and latency (ms) of every attempt per domain, log axes,
    verified and rejected apart."""
    panels: list[Panel] = []
    domains = sorted(attempts["domain"].unique())
    verified = attempts["verified"].astype(bool)
    for column, unit in (("total_cost", "$"), ("total_latency_ms", "ms")):
        if column not in attempts or not varies(attempts.loc[attempts[column] > 0, column]):
            continue
        positive = attempts[column] > 0
        groups = {
            name: [
                attempts.loc[(attempts["domain"] == d) & positive & mask, column].astype(float)
                for d in domains
            ]
            for name, mask in (("verified", verified), ("rejected", ~verified))
        }

        def draw(axis: Any, groups: dict[str, list[pd.Series]] = groups) -> None:
            _horizontal(axis, groups, domains)
            axis.set_xscale("log")

        panels.append((f"{column} ({unit})", draw))
    return panels


def _horizontal(axis: Any, groups: dict[str, list[pd.Series]], labels: list[str]) -> None:
    """Horizontal boxes, one row per label (top to bottom), one box per group in the row."""
    height = 0.8 / len(groups)
    for g, (group, series) in enumerate(groups.items()):
        offset = (g - (len(groups) - 1) / 2) * height
        kept = [(i, s) for i, s in enumerate(series) if len(s)]
        if not kept:
            continue
        parts = axis.boxplot(
            [s for _, s in kept],
            positions=[len(labels) - 1 - i - offset for i, _ in kept],
            widths=height * 0.85,
            vert=False,
            patch_artist=True,
            flierprops={"markersize": 2},
            medianprops={"color": "black"},
        )
        for box in parts["boxes"]:
            box.set_facecolor(VERIFIED_COLOURS[group])
        axis.plot([], [], color=VERIFIED_COLOURS[group], linewidth=6, label=group)
    axis.set_yticks(range(len(labels)), list(reversed(labels)))
    axis.set_ylim(-0.6, len(labels) - 0.4)
    axis.legend(fontsize=7, loc="best")


def route_tables(tasks: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per domain with route tables: each route's verified share and mean cost over its tasks."""
    found: dict[str, pd.DataFrame] = {}
    if "route_table" not in tasks:
        return found
    for domain, frame in tasks.groupby("domain", sort=True):
        scores = [s for table in frame["route_table"] for s in table if not s["detour"]]
        if scores:
            table = pd.DataFrame(scores).groupby("name", sort=True)
            found[str(domain)] = pd.DataFrame(
                {"verified": table["verified"].mean(), "cost": table["total_cost"].mean()}
            )
    return found


def route_panels(tables: dict[str, pd.DataFrame]) -> list[Panel]:
    """Per domain: a row of two panels, each route's verified share and its mean $ (log)."""
    panels: list[Panel] = []
    for domain, table in tables.items():
        share, cost = table["verified"], table["cost"]
        if not varies(share) and not varies(cost[cost > 0]):
            continue

        def bars(axis: Any, share: pd.Series = share) -> None:
            axis.barh(share.index, share.values, color="#55a868")
            axis.set_xlim(0, 1)

        def costs(axis: Any, cost: pd.Series = cost) -> None:
            axis.barh(cost.index, cost.values, color="#8172b3")
            if (cost > 0).all():
                axis.set_xscale("log")

        panels += [(f"{domain}: verified share", bars), (f"{domain}: mean $", costs)]
    return panels


def rejection_panels(attempts: pd.DataFrame) -> list[Panel]:
    """One panel: the rejected attempts per domain, stacked by failure stage, a colour each."""
    rejected = attempts[~attempts["verified"].astype(bool)] if len(attempts) else attempts
    if not len(rejected):
        return []
    counts = rejected.groupby(["domain", "failure_stage"]).size().unstack(fill_value=0)
    counts = counts[[s for s in STAGE_COLOURS if s in counts.columns]].iloc[::-1]

    def draw(axis: Any) -> None:
        left = np.zeros(len(counts))
        for stage in counts.columns:
            values = counts[stage].to_numpy()
            axis.barh(counts.index, values, left=left, label=stage, color=STAGE_COLOURS[stage])
            left += values
        axis.legend(fontsize=7, loc="lower right", title="failure stage", title_fontsize=7)
        axis.set_xlabel("rejected attempts", fontsize=8)

    return [("", draw)]


Figure = tuple[str, str, list[Panel], int, float, float]  # file, title, panels, layout


def figures(stats: CardStats) -> list[Figure]:
    """Each figure with a panel: (file, title, panels, columns, inches per row, left margin)."""
    attempts = stats.attempts
    if not len(attempts):
        return []
    families = {d["domain"]: d["family"] for d in stats.domains}
    domains = sorted(attempts["domain"].unique())
    tables = route_tables(stats.tasks)
    routes = [name for t in tables.values() for name in t.index]
    most = max((len(t) for t in tables.values()), default=1)
    found: list[Figure] = [
        ("rewards.png", "reward_total of every attempt, by kind of variant",
         reward_panels(attempts, families), 1, 3.2, 0.7),
        ("cost_latency.png", "cost and latency of every attempt, per domain",
         cost_panels(attempts), 2, 0.32 * len(domains) + 0.3, label_inches(domains)),
        ("routes.png", "each route the oracle played: verified share and mean cost",
         route_panels(tables), 2, 0.22 * most + 0.3, label_inches(routes)),
        ("rejected.png", "rejected attempts per domain, by failure stage",
         rejection_panels(attempts), 1, 0.25 * len(domains) + 0.3, label_inches(domains)),
    ]  # fmt: skip
    return [f for f in found if f[2]]


def draw(root: Path, stats: CardStats) -> list[dict[str, str]]:
    """Write the figures that have a panel, remove the others; return their paths (relative to
    OUT) and titles."""
    for name in _RETIRED:
        (root / ASSETS / name).unlink(missing_ok=True)
    drawn = figures(stats)
    for name in ("rewards.png", "cost_latency.png", "routes.png", "rejected.png"):
        if name not in [f[0] for f in drawn]:  # an old run's figure must not stay linked
            (root / ASSETS / name).unlink(missing_ok=True)
    written = []
    for name, title, panels, ncols, row_inches, left in drawn:
        _save(
            figure_of(title, panels, min(ncols, len(panels)), row_inches, left),
            root / ASSETS / name,
        )
        written.append({"path": f"{ASSETS}/{name}", "title": title})
    return written
