"""The multi-objective reward: its three components, their weighted total, and the ToolOrchestra
group-normalised reward. The dataset labels and the trainer import these very functions.

    r_outcome    = 1.0 if the attempt verified (final state and answer correct) else 0.0
    r_efficiency = -per_call * num_tool_calls - per_token * num_tokens              ("tokens")
                 | -per_cost * total_cost - per_second * total_latency_ms / 1000    ("cost")
    r_preference = violated (0.0) if a hard constraint of the profile is broken, else
                   quick (0.5) if solved quickly, else slow (0.1)
    R            = w_o * r_outcome + w_e * r_efficiency + w_p * r_preference

Signs: r_efficiency is never positive (more calls, tokens, cost or latency make it more
negative); r_outcome and r_preference are never negative. Every function takes plain numbers,
so it works on a dataset row, an in-memory Trace or a trainer rollout alike. Nothing here decides
what is correct: the verifier does, and `toolscale.labels` feeds its verdict in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from toolscale.errors import ConfigError
from toolscale.preferences import PreferenceVector

EFFICIENCY_FORMS = ("tokens", "cost")


@dataclass(frozen=True)
class RewardConfig:
    """Weights and coefficients of the reward; saved in run.json, weights also on every row."""

    w_o: float = 1.0
    w_e: float = 1.0
    w_p: float = 1.0
    efficiency: str = "tokens"
    per_call: float = 0.01
    per_token: float = 0.0001
    per_cost: float = 0.01
    per_second: float = 0.01
    quick: float = 0.5
    slow: float = 0.1
    violated: float = 0.0

    def __post_init__(self) -> None:
        if self.efficiency not in EFFICIENCY_FORMS:
            raise ConfigError(
                f"efficiency must be one of {EFFICIENCY_FORMS}, not {self.efficiency!r}"
            )

    def weights(self) -> dict[str, float]:
        return {"w_o": self.w_o, "w_e": self.w_e, "w_p": self.w_p}

    def weights_json(self) -> str:
        """The `reward_weights` column: `{"w_e": ..., "w_o": ..., "w_p": ...}`."""
        return json.dumps(self.weights(), sort_keys=True)


def parse_reward_config(weights: str = "", options: str = "") -> RewardConfig:
    """Build a RewardConfig from `--reward-weights "w_o=1,w_e=0.5,w_p=1"` and
    `--reward-options "efficiency=cost,per_second=0.02"` (any other field by name).

    Raises:
        ConfigError: an unknown key, a value that is not a number, or an unknown efficiency form.
    """
    values: dict[str, Any] = {}
    known = {f.name for f in fields(RewardConfig)}
    for flag, text, allowed in (
        ("--reward-weights", weights, {"w_o", "w_e", "w_p"}),
        ("--reward-options", options, known - {"w_o", "w_e", "w_p"}),
    ):
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, value = (s.strip() for s in part.partition("="))
            if key not in allowed:
                raise ConfigError(f"unknown key {key!r} in {flag}; use one of {sorted(allowed)}")
            if key == "efficiency":
                values[key] = value  # checked by RewardConfig itself
                continue
            try:
                values[key] = float(value)
            except ValueError:
                raise ConfigError(f"{flag}: {key} must be a number, not {value!r}") from None
    return RewardConfig(**values)


def outcome_reward(verified: bool) -> float:
    """1.0 for a verified attempt, else 0.0 (a failed format, execution, grounding or outcome)."""
    return 1.0 if verified else 0.0


def efficiency_reward(
    num_tool_calls: int,
    num_tokens: int,
    total_cost: float,
    total_latency_ms: float,
    config: RewardConfig,
) -> float:
    """Never positive. Tokens form: 3 calls and 0 tokens give -0.01 * 3 = -0.03; one expert call
    of 120 tokens gives -0.01 - 0.0001 * 120 = -0.022. Cost form: cost 2.1 and 1010 ms give
    -0.01 * 2.1 - 0.01 * 1.01 = -0.0311."""
    if config.efficiency == "cost":
        return -config.per_cost * total_cost - config.per_second * total_latency_ms / 1000.0
    return -config.per_call * num_tool_calls - config.per_token * num_tokens


def preference_reward(solved_quickly: bool, compliant: bool, config: RewardConfig) -> float:
    """0.0 when a hard constraint is broken (forbidden tool, answer format); else 0.5 if the
    attempt was solved quickly (correct, no more calls than gold, within the profile's budgets)
    and 0.1 otherwise — a slow or wrong but compliant attempt."""
    if not compliant:
        return config.violated
    return config.quick if solved_quickly else config.slow


def total_reward(
    r_outcome: float, r_efficiency: float, r_preference: float, weights: Mapping[str, float]
) -> float:
    """w_o * r_outcome + w_e * r_efficiency + w_p * r_preference. With weights 1, 1, 1 a verified
    gold trace with 3 calls and no tokens that was quick scores 1 - 0.03 + 0.5 = 1.47."""
    return (
        weights["w_o"] * r_outcome + weights["w_e"] * r_efficiency + weights["w_p"] * r_preference
    )


def row_total(row: Mapping[str, Any]) -> float:
    """`reward_total` recomputed from a row's stored components and `reward_weights` JSON."""
    return total_reward(
        row["reward_outcome"],
        row["reward_efficiency"],
        row["reward_preference"],
        json.loads(row["reward_weights"]),
    )


@dataclass(frozen=True)
class GroupFeatures:
    """What the group reward reads from one attempt: calls per tool, correctness, cost, latency."""

    calls_per_tool: Mapping[str, int]
    verified: bool
    total_cost: float
    total_latency_ms: float

    @classmethod
    def of(cls, attempt: Mapping[str, Any] | Any) -> GroupFeatures:
        """From a dataset row (calls_per_tool as JSON text) or an object with those attributes."""
        get = attempt.get if isinstance(attempt, Mapping) else lambda k: getattr(attempt, k)
        calls = get("calls_per_tool")
        return cls(
            calls_per_tool=json.loads(calls) if isinstance(calls, str) else dict(calls),
            verified=bool(get("verified")),
            total_cost=float(get("total_cost")),
            total_latency_ms=float(get("total_latency_ms")),
        )


def _min_max(column: list[float]) -> list[float]:
    low, high = min(column), max(column)
    if high == low:  # a constant feature carries no signal within the group
        return [0.0] * len(column)
    return [(x - low) / (high - low) for x in column]


def group_rewards(
    attempts: Sequence[GroupFeatures], vector: PreferenceVector | Mapping[str, Any]
) -> list[float]:
    """ToolOrchestra's reward for a group of attempts at one task.

    Each attempt gets M = [calls of each tool in P, outcome, -cost, -latency]; each feature is
    min-max normalised within the group (a constant feature becomes 0); reward = M_norm . P for a
    correct attempt and 0 for a wrong one.

    Example, P = outcome 1, cost 1; attempts A (correct, cost 0.3), B (correct, cost 0.5),
    C (wrong, cost 0.1): outcome -> [1, 1, 0]; -cost = [-0.3, -0.5, -0.1] -> [0.5, 0, 1];
    rewards [1 + 0.5, 1 + 0, 0] = [1.5, 1.0, 0.0]. If all three were correct and equally
    cheap, every feature would be constant and every reward 0 (GRPO drops such a group).
    """
    if not attempts:
        return []
    p = vector if isinstance(vector, PreferenceVector) else PreferenceVector(**vector)
    columns: list[tuple[float, list[float]]] = [
        (weight, [float(a.calls_per_tool.get(tool, 0)) for a in attempts])
        for tool, weight in sorted(p.tools.items())
    ]
    columns.append((p.outcome, [1.0 if a.verified else 0.0 for a in attempts]))
    columns.append((p.cost, [-a.total_cost for a in attempts]))
    columns.append((p.latency, [-a.total_latency_ms for a in attempts]))
    normalised = [(weight, _min_max(values)) for weight, values in columns]
    return [
        sum(weight * values[i] for weight, values in normalised) if a.verified else 0.0
        for i, a in enumerate(attempts)
    ]
