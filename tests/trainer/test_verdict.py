"""The evaluation's answer to "did training help?": intervals computed by hand, the small-split
warning, and the line that says yes, no or not shown."""

from __future__ import annotations

import math

import pytest

from trainer.table import Scored
from trainer.verdict import (
    ENOUGH_TASKS,
    paired_gap,
    said_once,
    too_small,
    training_helped,
    wilson,
)


def scored(rewards: list[float], solved: list[bool]) -> list[Scored]:
    return [
        Scored(str(i), ok, r, 0.0, 0.0, True, "calculator", "calculator")
        for i, (r, ok) in enumerate(zip(rewards, solved, strict=True))
    ]


def test_wilson_interval_matches_the_hand_computed_one():
    # p = 0.5, n = 10, z = 1.96: centre 0.5, half 1.96 * sqrt(0.025 + 0.0096) / 1.384 = 0.263
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == pytest.approx(1.0)


def test_the_paired_gap_is_the_mean_per_task_difference_with_its_interval():
    trained = scored([1.0, 0.5, 1.0, 0.0], [True, True, True, False])
    base = scored([0.0, 0.0, 0.5, 0.0], [False] * 4)
    mean, low, high = paired_gap(trained, base)
    # differences 1, 0.5, 0.5, 0: mean 0.5, sd sqrt(0.5 / 3) = 0.408, half 1.96 * 0.408 / 2
    assert mean == pytest.approx(0.5)
    assert high - mean == pytest.approx(1.96 * math.sqrt(0.5 / 3) / 2)
    assert low == pytest.approx(2 * mean - high)


def test_too_few_tasks_warn_with_the_interval_and_enough_do_not():
    warning = too_small(20, 10)
    assert warning is not None and "only 20 tasks" in warning and "[0.30, 0.70]" in warning
    assert too_small(ENOUGH_TASKS, 3) is None


def test_the_verdict_says_yes_only_when_the_interval_clears_zero():
    base = scored([0.0] * 6, [False] * 6)
    better = scored([1.0, 0.9, 1.1, 1.0, 0.95, 1.05], [True] * 6)
    assert training_helped(better, base, "SFT").startswith("Did training help? yes")
    noisy = scored([1.0, -1.0, 1.0, -1.0, 0.5, -0.4], [True, False] * 3)
    assert "not shown" in training_helped(noisy, base, "SFT")
    worse = scored([-1.0, -0.9, -1.1, -1.0, -0.95, -1.05], [False] * 6)
    line = training_helped(worse, base, "SFT")
    assert "no: it made the policy worse" in line and "tasks solved 0 -> 0" in line


def test_a_run_that_evaluates_many_times_says_each_kind_of_warning_once():
    lines: list[str] = []
    warn = said_once(lines.append)
    curve = [too_small(32, solved) for solved in (0, 0, 1, 0, 0, 0)]  # six checkpoints
    for text in [*curve, too_small(100, 5), too_small(8, 0)]:
        if text is not None:
            warn(text)
    assert lines == [curve[0], too_small(8, 0)]  # 100 tasks are enough: no warning
    assert lines[0].startswith("only 32 tasks: a success rate of 0/32")
    again: list[str] = []
    said_once(again.append)(curve[0])  # another run has its own memory: said again
    assert again == [curve[0]]
