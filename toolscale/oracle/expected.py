"""The expected-reward oracle: each route's reward as a policy can expect it, and the best one.

The played oracle (`toolscale.oracle.played`) knows which expert happened to answer right on this
draw; a policy cannot. A route that rests on an expert (`toolscale.sample.odds`) is right with the
chance its expert's skill profile gives, so its expected reward is

    p_right x (its reward judged right) + (1 - p_right) x (its reward judged wrong)

each judged by the run's rubric on the route as played (its cost, latency, calls and the
preference's constraints are the same either way), under the task's prices, preference and gold
route as they stand. Any other route answers the same every time: its expected reward is its
played one. `expected_route` is the best route by expected reward, ties to fewer calls, lower
cost, then the name. Example: expert-3 at p 0.8 scoring 1.32 right and -0.08 wrong expects
0.8 x 1.32 + 0.2 x -0.08 = 1.04, below a search route's certain 1.34.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolscale.core.records import RouteScore


def expected(
    verified: bool, reward: float, odds: float | None, judged: Callable[[bool], float]
) -> dict[str, Any]:
    """`p_right` and `expected_reward` of one played route (`odds`: its chance of being right
    when it rests on an expert, else None; `reward`: its played reward_total; `judged`: its
    reward_total judged right or wrong, by the run's rubric under the task as it stands)."""
    if odds is None:
        return {"p_right": 1.0 if verified else 0.0, "expected_reward": reward}
    # the route as played is one of the two: its reward is known
    right = reward if verified else judged(True)
    wrong = judged(False) if verified else reward
    return {"p_right": odds, "expected_reward": odds * right + (1.0 - odds) * wrong}


def expected_best(table: list[RouteScore]) -> int:
    """The index of the route with the best expected reward (see the module docstring)."""
    return min(
        range(len(table)),
        key=lambda i: (
            -(table[i].expected_reward or 0.0),
            table[i].num_tool_calls,
            table[i].total_cost,
            table[i].name,
        ),
    )
