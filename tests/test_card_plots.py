"""The card's plots read at the size they are shown: 720 pixels wide, no label outside the
image, one title that overlaps nothing, one figure per question, a colour per failure stage."""

from __future__ import annotations

from pathlib import Path

import matplotlib.image
import pandas as pd
import pytest
from matplotlib.colors import to_hex

from tests.publishing_data import shared
from toolscale.publish.card import card
from toolscale.publish.card_plots import (
    STAGE_COLOURS,
    WIDTH,
    figure_of,
    figures,
    rejection_panels,
    reward_panels,
)
from toolscale.stats.card_numbers import collect

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dataset() -> Path:
    out = shared()
    card(out)
    return out


def test_every_figure_is_card_wide_with_every_label_inside_and_one_clear_title(dataset):
    drawn = figures(collect(dataset))
    assert [f[0] for f in drawn] == [
        "rewards.png",
        "cost_latency.png",
        "routes.png",
        "rejected.png",
    ]
    for name, title, panels, ncols, row_inches, left in drawn:
        figure = figure_of(title, panels, min(ncols, len(panels)), row_inches, left)
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        frame = figure.bbox
        assert frame.width == WIDTH * 100
        drawn = figure.get_tightbbox(renderer)  # inches: every drawn label, tick and title
        inside = drawn.x0 >= 0 and drawn.y0 >= 0 and drawn.x1 <= WIDTH
        assert inside and drawn.y1 <= frame.height / 100, (name, drawn)  # "_executor" fails
        heading = figure._suptitle.get_window_extent(renderer)
        for axis in figure.axes:
            if axis.get_visible():
                assert not heading.overlaps(axis.get_window_extent(renderer)), name
                assert not heading.overlaps(axis.title.get_window_extent(renderer)), name
        assert figure._suptitle.get_text() == title
    for name in ("rewards.png", "rejected.png"):
        assert matplotlib.image.imread(dataset / "assets" / name).shape[1] == 720


def test_reward_by_kind_is_one_panel_with_a_box_per_family():
    frame = pd.DataFrame(
        {
            "domain": ["a", "a", "b", "b", "m", "m"],
            "kind": ["gold", "detour", "gold", "detour", "gold", "route"],
            "reward_total": [1.0, 0.2, 1.0, 0.3, 1.0, -0.5],
        }
    )
    families = {"a": "stateful", "b": "stateful", "m": "orchestration"}
    (panel,) = reward_panels(frame, families)
    figure = figure_of("t", [panel], 1, 3.0, 0.7)
    labels = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert labels == ["m", "stateful (2 domains)"]
    assert [t.get_text() for t in figure.axes[0].get_xticklabels()] == ["gold", "route", "detour"]
    assert reward_panels(frame.assign(reward_total=1.0), families) == []  # a constant: no plot


def test_each_failure_stage_has_its_own_colour():
    frame = pd.DataFrame(
        {
            "domain": ["a", "a", "b", "b"],
            "verified": [False, False, False, True],
            "failure_stage": ["outcome", "format", "grounding", None],
        }
    )
    (panel,) = rejection_panels(frame)
    figure = figure_of("rejected", [panel], 1, 1.0, 0.5)
    colours = {to_hex(p.get_facecolor()) for p in figure.axes[0].patches if p.get_width() > 0}
    assert colours == {STAGE_COLOURS[s] for s in ("outcome", "format", "grounding")}
    assert figure.axes[0].get_title() == ""  # the figure's title only, once
