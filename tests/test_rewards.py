"""The reward formulas, against values computed by hand, and their edge cases."""

from __future__ import annotations

import itertools
import json
from types import SimpleNamespace

import pytest

from toolscale.core.errors import ConfigError
from toolscale.core.preference import PreferenceVector
from toolscale.judge.rewards import (
    GroupFeatures,
    RewardConfig,
    efficiency_reward,
    group_rewards,
    outcome_reward,
    parse_reward_config,
    preference_reward,
    row_total,
    total_reward,
)

DEFAULT = RewardConfig()
TOKENS = RewardConfig(efficiency="tokens")
# A gold route of $0.0002 and 1200 ms: the reference every cost-form example is measured against.
REF = (0.0002, 1200.0)


def attempt(verified: bool, cost: float, latency: float = 0.0, **calls: int) -> GroupFeatures:
    return GroupFeatures(calls, verified, cost, latency)


def test_outcome_is_one_only_for_a_verified_attempt():
    assert (outcome_reward(True), outcome_reward(False)) == (1.0, 0.0)


def test_a_broken_constraint_scores_as_a_wrong_outcome():
    assert outcome_reward(True, compliant=False) == 0.0
    assert outcome_reward(False, compliant=False) == 0.0


def test_a_broken_constraint_never_outscores_a_compliant_correct_attempt_in_total():
    # The dearest compliant correct attempt: r_e at its floor -0.8, slow: 1 - 0.8 + 0.1 = 0.3.
    # The cheapest broken one: free (r_e 0), yet outcome 0 and preference 0: 0 + 0 + 0 = 0.
    # Before, the broken one scored 1 + 0 + 0 = 1.0, above the compliant 0.3.
    w = DEFAULT.weights()
    compliant = total_reward(outcome_reward(True), -0.8, preference_reward(False, True, DEFAULT), w)
    broken = total_reward(
        outcome_reward(True, False), 0.0, preference_reward(True, False, DEFAULT), w
    )
    assert (compliant, broken) == (pytest.approx(0.3), 0.0)


def test_the_default_form_is_cost_relative_to_gold():
    assert (DEFAULT.efficiency, DEFAULT.per_cost, DEFAULT.per_latency, DEFAULT.cap) == (
        "cost",
        0.08,
        0.08,
        5.0,
    )


def test_efficiency_token_form_by_hand():
    # 3 calls, no tokens: -0.01 * 3; one expert call of 120 tokens: -0.01 - 0.0001 * 120.
    # The token form reads neither the cost, the latency nor the reference.
    assert efficiency_reward(3, 0, 99.0, 99.0, *REF, TOKENS) == pytest.approx(-0.03, abs=1e-12)
    assert efficiency_reward(1, 120, 0.0, 0.0, *REF, TOKENS) == pytest.approx(-0.022, abs=1e-12)


def test_zero_tokens_and_zero_calls_cost_nothing():
    assert efficiency_reward(0, 0, 0.0, 0.0, *REF, TOKENS) == 0.0
    assert efficiency_reward(0, 0, 0.0, 0.0, *REF, DEFAULT) == 0.0
    # A free gold route (reference 0) and a free attempt: ratio 0, not a division by zero.
    assert efficiency_reward(0, 0, 0.0, 0.0, 0.0, 0.0, DEFAULT) == 0.0


def test_efficiency_cost_form_by_hand():
    # The gold route itself: ratios 1 and 1 -> -0.08 * 1 - 0.08 * 1 = -0.16.
    assert efficiency_reward(3, 500, *REF, *REF, DEFAULT) == pytest.approx(-0.16, abs=1e-12)
    # 1.5x the cost ($0.0003) and 2x the latency (2400 ms): -0.08 * 1.5 - 0.08 * 2 = -0.28.
    assert efficiency_reward(4, 0, 0.0003, 2400.0, *REF, DEFAULT) == pytest.approx(-0.28, abs=1e-12)
    # Half the cost, a quarter of the latency: -0.08 * 0.5 - 0.08 * 0.25 = -0.06.
    assert efficiency_reward(1, 0, 0.0001, 300.0, *REF, DEFAULT) == pytest.approx(-0.06, abs=1e-12)


def test_cost_form_ratios_are_capped():
    # An expert at 30x the cost ($0.006) and 20x the latency (24000 ms): each ratio is capped at
    # 5 -> -0.08 * 5 - 0.08 * 5 = -0.8.
    assert efficiency_reward(1, 0, 0.006, 24000.0, *REF, DEFAULT) == pytest.approx(-0.8)
    # Any cost against a free gold route is off the scale, so capped too: -0.08 * 5 - 0.08 * 1.
    assert efficiency_reward(1, 0, 0.001, 1200.0, 0.0, 1200.0, DEFAULT) == pytest.approx(-0.48)
    # cap 2, per_cost 0.5, per_latency 0: 10x the cost -> -0.5 * 2 = -1.0.
    config = RewardConfig(per_cost=0.5, per_latency=0.0, cap=2.0)
    assert efficiency_reward(1, 0, 0.002, 99999.0, *REF, config) == pytest.approx(-1.0)


def test_a_correct_compliant_attempt_always_outscores_a_wrong_one():
    # With the defaults r_efficiency >= -(0.08 + 0.08) * 5 = -0.8, so verified and compliant
    # (>= 1 - 0.8 + 0.1 = 0.3) beats any wrong attempt (<= 0 - 0 + 0.1 = 0.1).
    worst = min(
        efficiency_reward(9, 9999, cost, latency, *REF, DEFAULT)
        for cost in (0.0, 0.0002, 0.01, 1e6)
        for latency in (0.0, 1200.0, 1e9)
    )
    assert worst == pytest.approx(-0.8)
    correct = total_reward(1.0, worst, preference_reward(False, True, DEFAULT), DEFAULT.weights())
    wrong = total_reward(0.0, 0.0, preference_reward(False, True, DEFAULT), DEFAULT.weights())
    assert correct == pytest.approx(0.3) and wrong == pytest.approx(0.1)


def test_more_calls_or_tokens_never_raise_efficiency():
    grid = list(itertools.product(range(5), (0, 10, 500)))
    for (c1, t1), (c2, t2) in itertools.product(grid, grid):
        if c1 >= c2 and t1 >= t2:
            assert efficiency_reward(c1, t1, 0, 0, *REF, TOKENS) <= efficiency_reward(
                c2, t2, 0, 0, *REF, TOKENS
            )


def test_more_cost_or_latency_never_raises_efficiency():
    grid = list(itertools.product((0.0, 0.0001, 0.0002, 0.0009, 0.01), (0.0, 600.0, 5000.0, 1e7)))
    for (c1, l1), (c2, l2) in itertools.product(grid, grid):
        if c1 >= c2 and l1 >= l2:
            assert efficiency_reward(0, 0, c1, l1, *REF, DEFAULT) <= efficiency_reward(
                0, 0, c2, l2, *REF, DEFAULT
            )


def test_preference_reward_quick_slow_violated():
    assert preference_reward(True, True, DEFAULT) == 0.5
    assert preference_reward(False, True, DEFAULT) == 0.1
    # A forbidden tool used (not compliant) scores 0 even when quick.
    assert preference_reward(True, False, DEFAULT) == 0.0


def test_total_by_hand_and_from_a_row():
    assert total_reward(1.0, -0.03, 0.5, DEFAULT.weights()) == pytest.approx(1.47)
    # The gold trace under the cost form: 1 - 0.16 + 0.5 = 1.34.
    assert total_reward(1.0, -0.16, 0.5, DEFAULT.weights()) == pytest.approx(1.34)
    weights = {"w_o": 2.0, "w_e": 10.0, "w_p": 0.5}
    assert total_reward(1.0, -0.03, 0.1, weights) == pytest.approx(2.0 - 0.3 + 0.05)
    row = {
        "reward_outcome": 1.0,
        "reward_efficiency": -0.03,
        "reward_preference": 0.1,
        "reward_weights": json.dumps(weights),
    }
    assert row_total(row) == pytest.approx(1.75, abs=1e-12)


def test_group_reward_worked_example():
    # P = outcome 1, cost 1. outcome [1, 1, 0]; -cost [-0.3, -0.5, -0.1] -> [0.5, 0, 1].
    group = [attempt(True, 0.3), attempt(True, 0.5), attempt(False, 0.1)]
    rewards = group_rewards(group, PreferenceVector(outcome=1.0, cost=1.0))
    assert rewards == pytest.approx([1.5, 1.0, 0.0])


def test_group_reward_every_attempt_identical_is_zero():
    group = [attempt(True, 0.3, 30.0, calculator=3)] * 4
    vector = PreferenceVector(tools={"calculator": 1.0}, outcome=1.0, cost=1.0, latency=1.0)
    assert group_rewards(group, vector) == [0.0, 0.0, 0.0, 0.0]


def test_group_reward_every_attempt_wrong_is_zero():
    group = [attempt(False, 0.3, calculator=3), attempt(False, 0.1, calculator=1)]
    assert group_rewards(group, PreferenceVector(outcome=1.0, cost=1.0)) == [0.0, 0.0]


def test_group_reward_a_forbidden_tool_used_is_negative():
    # P forbids ask_expert (weight -1); both correct, so outcome is constant and contributes 0.
    group = [attempt(True, 0.3, calculator=3), attempt(True, 0.0001, ask_expert=1)]
    rewards = group_rewards(group, PreferenceVector(tools={"ask_expert": -1.0}))
    assert rewards == [0.0, -1.0]


def test_group_reward_a_broken_constraint_is_scored_as_incorrect():
    # P = outcome 1, cost 1. A (compliant, correct, $0.5), B (correct but broke its format,
    # $0.1), C (wrong, $0.3). B counts as incorrect: outcome [1, 0, 0]; -cost [-0.5, -0.1, -0.3]
    # -> [0, 1, 0.5]; rewards [1 + 0, 0, 0]. Before, B scored 1 + 1 = 2 and A 1 + 0 = 1.
    broken = GroupFeatures({}, True, 0.1, 0.0, compliant=False)
    group = [attempt(True, 0.5), broken, attempt(False, 0.3)]
    vector = PreferenceVector(outcome=1.0, cost=1.0)
    assert group_rewards(group, vector) == pytest.approx([1.0, 0.0, 0.0])
    # Only it and one compliant correct attempt: outcome [1, 0] -> 1 for the compliant one.
    assert group_rewards([broken, attempt(True, 0.9)], vector) == pytest.approx([0.0, 1.0])


def test_group_reward_latency_direction_and_empty_group():
    group = [attempt(True, 0.0, 2000.0), attempt(True, 0.0, 30.0), attempt(True, 0.0, 1015.0)]
    assert group_rewards(group, {"outcome": 1.0, "latency": 2.0}) == pytest.approx([0, 2, 1])
    assert group_rewards([], PreferenceVector()) == []


def test_group_features_from_a_row_and_from_an_object():
    row = {
        "calls_per_tool": '{"search":2}',
        "verified": True,
        "total_cost": 2.0,
        "total_latency_ms": 1000.0,
    }
    obj = SimpleNamespace(
        calls_per_tool={"search": 2}, verified=True, total_cost=2.0, total_latency_ms=1000.0
    )
    assert GroupFeatures.of(row) == GroupFeatures.of(obj) == attempt(True, 2.0, 1000.0, search=2)
    broken = {**row, "preference_compliant": False}
    assert not GroupFeatures.of(broken).correct and GroupFeatures.of(broken).verified


def test_parse_reward_config():
    config = parse_reward_config("w_o=2,w_e=0.5", "efficiency=tokens,per_latency=0.02,cap=3")
    assert (config.w_o, config.w_e, config.w_p) == (2.0, 0.5, 1.0)
    assert (config.efficiency, config.per_latency, config.cap) == ("tokens", 0.02, 3.0)
    assert json.loads(config.weights_json()) == {"w_o": 2.0, "w_e": 0.5, "w_p": 1.0}
    assert parse_reward_config() == RewardConfig()


@pytest.mark.parametrize(
    ("weights", "options", "message"),
    [
        ("w_x=1", "", "unknown key 'w_x'"),
        ("w_o=high", "", "must be a number"),
        ("", "w_o=1", "unknown key 'w_o' in --reward-options"),
        ("", "efficiency=speed", "efficiency must be one of"),
        ("", "per_second=0.02", "unknown key 'per_second'"),
        ("", "per_cost=-0.1", "per_cost must be a number >= 0"),
        ("w_e=-1", "", "w_e must be a number >= 0"),
        ("", "cap=0", "cap must be > 0"),
    ],
)
def test_bad_reward_config_is_a_config_error(weights, options, message):
    with pytest.raises(ConfigError, match=message):
        parse_reward_config(weights, options)
