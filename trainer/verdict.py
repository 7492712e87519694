"""What an evaluation table says about training: did the trained row beat the base row, by more
than chance, and what each row is. Pure functions over `Scored` attempts; `trainer.evaluate`
puts their lines under the table.

The interval of a success rate is Wilson's 95% score interval; the interval of a gap in mean
reward_total between two policies at the same tasks is the paired one (the mean of the per-task
differences, +- 1.96 standard errors). Worked example: 10 tasks, 5 solved:

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]

so on 10 tasks a 50% success rate says only "between 24% and 76%".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from trainer.table import Scored

Z95 = 1.96
# Below this many tasks the evaluation warns that it cannot tell policies apart.
ENOUGH_TASKS = 100

DEFINITIONS = (
    "Rows: **oracle**: each task's best route by its played reward (known only after playing "
    "every route); **expected oracle**: each task's `expected_route`, the best by expected "
    "reward from what a policy sees (prices, preference, the experts' stated accuracy), the "
    "dataset's default SFT label; **router baseline**: a light ridge router trained on the "
    "training side's tasks (`trainer.router`), the first row a trained orchestrator must beat; "
    "**competence router**: each route's accuracy per task kind (domain, template, difficulty) "
    "learnt from a few dozen training tasks (`--competence_tasks`), then the route of best "
    "expected reward under each task's own prices and preference (`trainer.competence`); "
    "**always R**: route R at every task that admits it (a task without it: no call); **always "
    "cheapest / dearest**: the cheapest / dearest route each task admits; **base**: the "
    "untrained model (`--base_model`); any other row is the evaluated model. Every row is "
    "played in the sandbox, judged by the Rubric and scored with the dataset's reward."
)


def wilson(solved: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% score interval of a success rate of `solved` out of `n` (n > 0)."""
    p = solved / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_gap(
    trained: Sequence[Scored], base: Sequence[Scored], z: float = Z95
) -> tuple[float, float, float]:
    """(mean gap, low, high): trained minus base mean reward_total over the same tasks, with its
    paired 95% interval. Attempts pair by task id.

    >>> a = [Scored(str(i), True, r, 0, 0, True, "c", "c") for i, r in enumerate([1.0, 1.0])]
    >>> b = [Scored(str(i), False, r, 0, 0, True, "c", "c") for i, r in enumerate([0.0, 0.5])]
    >>> paired_gap(a, b)[0]
    0.75
    """
    before = {s.task_id: s.reward_total for s in base}
    gaps = [s.reward_total - before[s.task_id] for s in trained if s.task_id in before]
    if not gaps:
        raise ValueError("no task in common")
    mean = sum(gaps) / len(gaps)
    if len(gaps) < 2:
        return mean, -math.inf, math.inf
    sd = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1))
    half = z * sd / math.sqrt(len(gaps))
    return mean, mean - half, mean + half


def too_small(n: int, solved: int) -> str | None:
    """A warning when `n` tasks are too few to tell policies apart (None when enough)."""
    if n >= ENOUGH_TASKS:
        return None
    low, high = wilson(solved, n)
    return (
        f"only {n} tasks: a success rate of {solved}/{n} measured here lies anywhere in "
        f"[{low:.2f}, {high:.2f}] (95%), so differences between rows inside that say nothing; "
        f"score at least {ENOUGH_TASKS} held-out tasks (a larger --heldout_fraction or dataset)"
    )


def said_once(say: Callable[[str], None]) -> Callable[[str], None]:
    """`say`, but each kind of warning once: for a caller that evaluates many times over (a
    training curve, every checkpoint on the same few tasks), where `too_small` would repeat
    itself. A kind is the text before its first colon ("only 32 tasks"); the set of kinds said
    lives as long as the returned function.

        >>> lines = []
        >>> warn = said_once(lines.append)
        >>> for text in ("only 32 tasks: 0/32", "only 32 tasks: 1/32", "only 8 tasks: 0/8"):
        ...     warn(text)
        >>> lines
        ['only 32 tasks: 0/32', 'only 8 tasks: 0/8']
    """
    said: set[str] = set()

    def once(text: str) -> None:
        kind = text.split(":", 1)[0]
        if kind not in said:
            said.add(kind)
            say(text)

    return once


def training_helped(trained: Sequence[Scored], base: Sequence[Scored], label: str) -> str:
    """One line answering "did training help?" for `label` against the base row."""
    mean, low, high = paired_gap(trained, base)
    solved = (sum(s.verified for s in base), sum(s.verified for s in trained))
    if low > 0:
        answer = "yes: the gap is above its 95% interval's zero"
    elif high < 0:
        answer = "no: it made the policy worse, beyond chance"
    else:
        answer = "not shown: the gap's 95% interval holds 0"
    return (
        f"Did training help? {answer}. {label} minus base, mean reward_total per task: "
        f"{mean:+.3f} (95% interval {low:+.3f} to {high:+.3f}, paired over "
        f"{len(trained)} tasks); tasks solved {solved[0]} -> {solved[1]}."
    )
