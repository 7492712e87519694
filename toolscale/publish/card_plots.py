"""The data card's PNG plots: histograms of efficiency and reward columns over verified traces.

Plots are drawn with matplotlib's non-interactive Agg backend (no display needed) and written
atomically next to the card, under OUT/assets/, so the Hub renders them from the repository.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: never open a window, never need a display
import matplotlib.pyplot as plt
import pandas as pd

from toolscale.write.output import atomic_write

ASSETS = "assets"


def histograms(frame: pd.DataFrame, columns: list[str], title: str, path: Path) -> None:
    """One histogram per column, three to a row, in one PNG."""
    ncols = min(3, len(columns))
    nrows = -(-len(columns) // ncols)
    width, height = 3.4 * ncols, 2.6 * nrows
    figure, axes = plt.subplots(nrows, ncols, figsize=(width, height), squeeze=False)
    # A fixed layout, in inches (tight_layout measured every label: a third of the drawing time).
    figure.subplots_adjust(
        left=0.45 / width,
        right=1 - 0.15 / width,
        bottom=0.35 / height,
        top=1 - 0.65 / height,
        wspace=0.3,
        hspace=0.55,
    )
    for axis in axes.flat[len(columns) :]:
        axis.set_visible(False)
    for axis, column in zip(axes.flat, columns, strict=False):
        values = frame[column].dropna().astype(float)
        axis.hist(values, bins=min(30, max(1, values.nunique())), color="#4c72b0")
        axis.set_title(column, fontsize=9)
        axis.tick_params(labelsize=7)
    figure.suptitle(title, fontsize=10)
    buffer = io.BytesIO()
    # A fixed Software tag and no date keep the bytes identical for identical data.
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": "toolscale"})
    plt.close(figure)
    atomic_write(path, buffer.getvalue())


def draw(root: Path, traces: pd.DataFrame, efficiency: list[str], rewards: list[str]) -> list[str]:
    """Write the plots that have data; return their paths relative to OUT."""
    written = []
    groups = (("efficiency.png", efficiency, "efficiency of verified traces"),)
    groups += (("rewards.png", rewards, "reward components of verified traces"),)
    for name, columns, title in groups:
        if columns and len(traces):
            histograms(traces, columns, title, root / ASSETS / name)
            written.append(f"{ASSETS}/{name}")
    return written
