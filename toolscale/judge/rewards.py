"""The multi-objective reward: its three components, their weighted total, and the ToolOrchestra
group-normalised reward. The dataset labels and the trainer import these very functions.

    r_outcome    = 1.0 if the attempt verified (final state and answer correct) and kept the
                   hard constraints of its user's preference, else 0.0
    r_efficiency = -per_cost * min(total_cost / reference_cost, cap)
                   -per_latency * min(total_latency_ms / reference_latency_ms, cap)  ("cost")
                 | -per_call * num_tool_calls - per_token * num_tokens              ("tokens")
    r_preference = violated (0.0) if a hard constraint of the profile is broken, else
                   quick (0.5) if solved quickly, else slow (0.1)
    R            = w_o * r_outcome + w_e * r_efficiency + w_p * r_preference (+ w_x * r_x for
                   each extra component x a user adds: toolscale.judge.components)

The reference is the task's gold route priced under the task's own table, so the cost form is
the same whatever the schedule's scale (the seed's table in dollars and a 2025 price list give
the same reward to the same route choice). Signs: r_efficiency is never positive (more calls,
tokens, cost or latency make it more negative); r_outcome and r_preference are never negative.
With the defaults, r_efficiency >= -(per_cost + per_latency) * cap = -0.8, so a correct attempt
that keeps the profile's constraints (>= 1 + 0.1 - 0.8) always outscores a wrong one (<= 0.1).

A broken hard constraint (a forbidden tool, the answer format, over the budget) is scored as a
wrong answer, as ToolOrchestra scores an incorrect rollout: r_outcome 0 and r_preference
`violated` (so <= 0 in total with the defaults), and 0 in the group reward, where it also counts
as incorrect in the outcome feature. So it never outscores a compliant correct attempt of its
task, in `reward_total` (>= 0.3 against <= 0) or in `reward_group` (a group that holds one gives
every compliant correct attempt its outcome weight, >= 1, against 0).
Every function takes plain numbers, so it works on a dataset row, an in-memory Trace or a
trainer rollout alike. Nothing here decides what is correct: the verifier does, and
`toolscale.judge.labels` feeds its verdict in.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.core.preference import PreferenceVector

EFFICIENCY_FORMS = ("tokens", "cost")
BUILT_IN_NAMES = ("outcome", "efficiency", "preference")


@dataclass(frozen=True)
class RewardConfig:
    """Weights and coefficients of the reward; saved in run.json, weights also on every row."""

    w_o: float = 1.0
    w_e: float = 1.0
    w_p: float = 1.0
    efficiency: str = "cost"
    per_call: float = 0.01
    per_token: float = 0.0001
    per_cost: float = 0.08
    per_latency: float = 0.08
    cap: float = 5.0
    quick: float = 0.5
    slow: float = 0.1
    violated: float = 0.0
    # Extra components (toolscale.judge.components): (name, "module:function", weight) each.
    components: tuple[tuple[str, str, float], ...] = ()

    def __post_init__(self) -> None:
        if self.efficiency not in EFFICIENCY_FORMS:
            raise ConfigError(
                f"efficiency must be one of {EFFICIENCY_FORMS}, not {self.efficiency!r}"
            )
        # run.json and YAML give lists; the config is hashable and compares equal either way
        extra = tuple((str(n), str(path), float(w)) for n, path, w in self.components)
        object.__setattr__(self, "components", extra)
        names = [name for name, _, _ in extra]
        for name, path, weight in extra:
            if not name.isidentifier() or name in BUILT_IN_NAMES or names.count(name) > 1:
                raise ConfigError(
                    f"reward component name {name!r} must be a new identifier (not one of "
                    f"{BUILT_IN_NAMES}, and given once)"
                )
            if ":" not in path or not weight >= 0:
                raise ConfigError(
                    f"reward component {name}: write name=module:function@weight with a weight "
                    f">= 0 (got {path!r} @ {weight})"
                )
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("efficiency", "components"):
                continue
            if not (isinstance(value, int | float) and value >= 0):
                raise ConfigError(f"reward option {f.name} must be a number >= 0, not {value!r}")
        if self.cap <= 0:
            raise ConfigError(f"reward option cap must be > 0 (got {self.cap})")

    def as_json(self) -> dict[str, Any]:
        """The config as run.json holds it (extra components as lists, as JSON reads them back),
        so that a resumed run compares equal to what it wrote."""
        values = asdict(self)
        values["components"] = [list(c) for c in self.components]
        return values

    def weights(self) -> dict[str, float]:
        """Each component's weight by its key: w_o, w_e, w_p, then `w_<name>` of each extra."""
        extra = {f"w_{name}": weight for name, _, weight in self.components}
        return {"w_o": self.w_o, "w_e": self.w_e, "w_p": self.w_p, **extra}

    def weights_json(self) -> str:
        """The `reward_weights` column: `{"w_e": ..., "w_o": ..., "w_p": ...}` (and extras')."""
        return self._weights_text

    @functools.cached_property
    def _weights_text(self) -> str:  # on every row: written once per config
        return json.dumps(self.weights(), sort_keys=True)


def parse_components(text: str) -> tuple[tuple[str, str, float], ...]:
    """`--reward-components "brevity=my_rewards:brevity@0.5,..."`: (name, function, weight)."""
    parsed = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, rest = (s.strip() for s in part.partition("="))
        path, _, weight = (s.strip() for s in rest.rpartition("@"))
        try:
            parsed.append((name, path, float(weight)))
        except ValueError:
            raise ConfigError(
                f"--reward-components: write name=module:function@weight, not {part!r}"
            ) from None
    return tuple(parsed)


def parse_reward_config(weights: str = "", options: str = "", components: str = "") -> RewardConfig:
    """Build a RewardConfig from `--reward-weights "w_o=1,w_e=0.5,w_p=1"`,
    `--reward-options "efficiency=tokens,per_call=0.02"` (any other field by name) and
    `--reward-components "brevity=my_rewards:brevity@0.5"` (toolscale.judge.components).

    Raises:
        ConfigError: an unknown key, a value that is not a number, or an unknown efficiency form.
    """
    values: dict[str, Any] = {}
    known = {f.name for f in fields(RewardConfig)} - {"components"}
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
    return RewardConfig(**values, components=parse_components(components))


def outcome_reward(verified: bool, compliant: bool = True) -> float:
    """1.0 for a verified attempt that keeps its preference's hard constraints, else 0.0 (a
    failed format, execution, grounding or outcome, or a broken constraint: a correct answer the
    user did not ask for in that way is scored as a wrong one)."""
    return 1.0 if verified and compliant else 0.0


def _ratio(value: float, reference: float) -> float:
    if reference > 0:
        return value / reference
    return 0.0 if value <= 0 else float("inf")


def efficiency_reward(
    num_tool_calls: int,
    num_tokens: int,
    total_cost: float,
    total_latency_ms: float,
    reference_cost: float,
    reference_latency_ms: float,
    config: RewardConfig,
) -> float:
    """Never positive. Cost form (default): cost and latency relative to the gold route's, each
    capped. With defaults (0.08, 0.08, cap 5): the gold route itself gives -0.08 - 0.08 = -0.16;
    a route at 1.5x the gold cost and 2x its latency gives -0.12 - 0.16 = -0.28; an expert at
    30x the cost and 20x the latency gives -0.4 - 0.4 = -0.8. Tokens form: 3 calls and 0 tokens
    give -0.01 * 3 = -0.03; 2 calls and 120 tokens give -0.02 - 0.0001 * 120 = -0.032."""
    if config.efficiency == "cost":
        cost = min(_ratio(total_cost, reference_cost), config.cap)
        latency = min(_ratio(total_latency_ms, reference_latency_ms), config.cap)
        return -config.per_cost * cost - config.per_latency * latency
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
    """w_o * r_outcome + w_e * r_efficiency + w_p * r_preference. With weights 1, 1, 1 a verified,
    quick gold trace (r_efficiency -0.16 in the cost form) scores 1 - 0.16 + 0.5 = 1.34."""
    return (
        weights["w_o"] * r_outcome + weights["w_e"] * r_efficiency + weights["w_p"] * r_preference
    )


def row_total(row: Mapping[str, Any]) -> float:
    """`reward_total` recomputed from a row's stored components (the three columns and the
    `reward_extra` JSON of any extra ones) and its `reward_weights` JSON."""
    weights = json.loads(row["reward_weights"])
    extra = json.loads(row.get("reward_extra") or "{}")
    return total_reward(
        row["reward_outcome"], row["reward_efficiency"], row["reward_preference"], weights
    ) + sum(weights[f"w_{name}"] * value for name, value in extra.items())


@dataclass(frozen=True)
class GroupFeatures:
    """What the group reward reads from one attempt: calls per tool, correctness, cost, latency,
    and whether it kept its preference's hard constraints (`compliant`; an attempt that broke
    one is scored as an incorrect one)."""

    calls_per_tool: Mapping[str, int]
    verified: bool
    total_cost: float
    total_latency_ms: float
    compliant: bool = True

    @property
    def correct(self) -> bool:
        return self.verified and self.compliant

    @classmethod
    def of(cls, attempt: Mapping[str, Any] | Any) -> GroupFeatures:
        """From a dataset row (calls_per_tool as JSON text) or an object with those attributes
        (`preference_compliant`, when it has one)."""
        if isinstance(attempt, Mapping):
            get: Callable[[str], Any] = attempt.get  # a row holds every key read here
            compliant = attempt.get("preference_compliant", True)
        else:
            get = lambda k: getattr(attempt, k)  # noqa: E731
            compliant = getattr(attempt, "preference_compliant", True)
        calls = get("calls_per_tool")
        return cls(
            calls_per_tool=json.loads(calls) if isinstance(calls, str) else dict(calls),
            verified=bool(get("verified")),
            total_cost=float(get("total_cost")),
            total_latency_ms=float(get("total_latency_ms")),
            compliant=bool(compliant),
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
    correct attempt and 0 for a wrong one. An attempt that broke a hard constraint of the
    preference is not correct here (outcome 0, reward 0), whatever its verdict.

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
    columns.append((p.outcome, [1.0 if a.correct else 0.0 for a in attempts]))
    columns.append((p.cost, [-a.total_cost for a in attempts]))
    columns.append((p.latency, [-a.total_latency_ms for a in attempts]))
    normalised = [(weight, _min_max(values)) for weight, values in columns]
    return [
        sum(weight * values[i] for weight, values in normalised) if a.correct else 0.0
        for i, a in enumerate(attempts)
    ]
