"""Both reward variants log the mean of every reward component, and use the given RewardConfig."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from toolscale.core.preference import PreferenceVector
from toolscale.judge.rewards import RewardConfig
from trainer.reward_functions import LOGGED, reward_functions


def rollout(task: str, verified: bool, cost: float, r_e: float) -> SimpleNamespace:
    """An environment whose labels are already computed (the reward functions reuse them)."""
    labels = {
        "verified": verified,
        "num_tool_calls": 2,
        "calls_per_tool": {"calculator": 2},
        "total_cost": cost,
        "total_latency_ms": 20.0,
        "reward_outcome": 1.0 if verified else 0.0,
        "reward_efficiency": r_e,
        "reward_preference": 0.5 if verified else 0.1,
        "reward_total": (1.0 if verified else 0.0) + r_e + (0.5 if verified else 0.1),
    }
    task = SimpleNamespace(id=task, preference=SimpleNamespace(vector=PreferenceVector(cost=1.0)))
    return SimpleNamespace(_labels=labels, task=task)


ROLLOUTS = [
    rollout("a", True, 0.2, -0.02),
    rollout("a", False, 0.4, -0.04),
    rollout("b", True, 0.2, -0.02),
    rollout("b", True, 0.6, -0.06),
]
EXPECTED = {
    "toolscale/success_rate": 0.75,
    "toolscale/tool_calls": 2.0,
    "toolscale/cost": 0.35,
    "toolscale/reward_outcome": 0.75,
    "toolscale/reward_efficiency": -0.035,
    "toolscale/reward_preference": 0.4,
    "toolscale/reward_total": (1.48 + 0.06 + 1.48 + 1.44) / 4,
}


@pytest.mark.parametrize("variant", ["linear", "toolorchestra"])
def test_every_variant_logs_every_component(variant):
    functions, _ = reward_functions(RewardConfig(), variant)
    logged: dict[str, float] = {}
    for function in functions:
        function(
            completions=[[]] * 4,
            environments=ROLLOUTS,
            log_metric=lambda name, value: logged.setdefault(name, value),
        )
    assert set(logged) == set(LOGGED)
    for name, value in EXPECTED.items():
        assert logged[name] == pytest.approx(value), name


def test_the_group_variant_normalises_within_each_task():
    (reward_group,), weights = reward_functions(RewardConfig(), "toolorchestra")
    # a: correct and cheaper gets outcome 1 + cost 1 (normalised), wrong gets 0;
    # b: both correct, the cheaper one gets cost 1, outcome is constant (0).
    assert reward_group(completions=[[]] * 4, environments=ROLLOUTS) == [2.0, 0.0, 1.0, 0.0]
    assert weights == [1.0]


def test_linear_weights_come_from_the_config():
    _, weights = reward_functions(RewardConfig(w_o=2.0, w_e=0.5, w_p=0.0), "linear")
    assert weights == [2.0, 0.5, 0.0]
