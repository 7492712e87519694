"""Budgets a user states: "keep it under 1 cent", "I need it within 5 seconds".

A `cheap` or `hurry` user of a task whose domain offers routes states an amount rather than
leaving the budget implied (by default the gold route's cost or latency, with twice that allowed):
one round amount of money or time, said the way a person says it, that binds exactly
(`Preference.budget_stated`). The amount is drawn, from the task's own budget RNG, among the round
amounts that separate the task's routes: at least one route clearly fits (at most the amount over
MARGIN) and at least one is clearly over (above the amount times MARGIN), and no route is within
MARGIN of it either way, so that a route a policy can price from the table is in or out, never
on the edge. A route that fits must have answered right as played: like a task no route solves,
a budget no right answer keeps would teach nothing (every attempt would score as wrong). Which
routes fit is a fact of the price table and the routes, which the oracle knows once it has played
them (`toolscale.sample.budgets` applies it there). This module prices nothing and plays nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from toolscale.core.preference import Preference

MARGIN = 1.1
BELOW_GOLD_SHARE = 1.0  # how often a stated budget rules out the gold route (when one can)
# (amount in $, how a user says it)
MONEY: tuple[tuple[float, str], ...] = (
    (0.0001, "a hundredth of a cent"),
    (0.0002, "0.02 cents"),
    (0.0005, "0.05 cents"),
    (0.001, "a tenth of a cent"),
    (0.002, "0.2 cents"),
    (0.005, "half a cent"),
    (0.01, "1 cent"),
    (0.02, "2 cents"),
    (0.05, "5 cents"),
    (0.1, "10 cents"),
)
# (amount in ms, how a user says it)
TIME: tuple[tuple[float, str], ...] = (
    (500.0, "half a second"),
    (1000.0, "1 second"),
    (2000.0, "2 seconds"),
    (3000.0, "3 seconds"),
    (5000.0, "5 seconds"),
    (10000.0, "10 seconds"),
    (20000.0, "20 seconds"),
    (30000.0, "30 seconds"),
    (60000.0, "a minute"),
    (120000.0, "2 minutes"),
)
SAYINGS = {
    "cheap": (
        "Please keep it under {amount}.",
        "I can't spend more than {amount} on this.",
        "My budget for this is {amount}, no more.",
        "Keep the whole thing under {amount}, please.",
    ),
    "hurry": (
        "I need the answer within {amount}.",
        "I can only wait {amount} for this.",
        "Please have it done in under {amount}.",
        "I've got {amount}, no longer.",
    ),
}


def budget_rng(domain: str, seed: int, index: int) -> random.Random:
    """The task's budget RNG, apart from its item, price and preference RNGs."""
    return random.Random(f"{domain}:{seed}:{index}:budget")


def separating(
    ladder: Sequence[tuple[float, str]],
    values: Sequence[float],
    solved: Sequence[bool] | None = None,
) -> list[int]:
    """The indices of the amounts of `ladder` that separate `values` (see the module docstring);
    with `solved` (whether each route answered right as played), a route that fits must be one
    that did, so that the task stays solvable within the budget.

    Example: route costs [0.0002, 0.003, 0.01] are separated by 0.0005, 0.001, 0.002 and 0.005
    (0.0002 and 0.01 are costs themselves, 0.02 leaves none over, 0.0001 none within).
    """
    found = []
    right = values if solved is None else [v for v, ok in zip(values, solved, strict=True) if ok]
    for i, (amount, _) in enumerate(ladder):
        fits = any(v * MARGIN <= amount for v in right)
        over = any(v >= amount * MARGIN for v in values)
        edge = any(amount / MARGIN < v < amount * MARGIN for v in values)
        if fits and over and not edge:
            found.append(i)
    return found


def stated(
    preference: Preference,
    costs: Sequence[float],
    latencies: Sequence[float],
    rng: random.Random,
    solved: Sequence[bool] | None = None,
    gold: tuple[float, float] | None = None,
) -> Preference | None:
    """`preference` (a `cheap` or `hurry` one) with a budget the user states, drawn from `rng`
    among the amounts that separate the routes' `costs` (cheap) or `latencies` (hurry), a route
    that fits being one of the `solved` ones when given; None for another profile, or when no
    amount separates them. With `gold` (the gold route's cost and latency), an amount the gold
    route is clearly over is drawn with probability BELOW_GOLD_SHARE when there is one: the
    gold route is often the best one, which such a budget rules out."""
    if preference.profile not in SAYINGS:
        return None
    cheap = preference.profile == "cheap"
    ladder, values = (MONEY, costs) if cheap else (TIME, latencies)
    options = separating(ladder, values, solved)
    if not options:
        return None
    below: list[int] = []
    if gold is not None:
        gold_value = gold[0] if cheap else gold[1]
        below = [i for i in options if ladder[i][0] * MARGIN <= gold_value]
    if below and rng.random() < BELOW_GOLD_SHARE:
        options = below
    amount, said = ladder[rng.choice(options)]
    sentence = rng.choice(SAYINGS[preference.profile]).format(amount=said)
    limit = ("max_cost", "max_latency_ms") if cheap else ("max_latency_ms", "max_cost")
    update = {"instruction": sentence, "budget_stated": True, limit[0]: amount, limit[1]: None}
    return preference.model_copy(update=update)
