"""The reward as an open list of named, weighted components, each one function of a judged attempt.

Three are built in, each with its weight in `RewardConfig`: `outcome` (w_o), `efficiency` (w_e)
and `preference` (w_p), the formulas of `toolscale.judge.rewards`; their values are the rows'
`reward_outcome`, `reward_efficiency` and `reward_preference` columns. A user adds one with one
function and one line of the run config (`--reward-components`, docs/rewards.md):

    reward_components: "brevity=my_rewards:brevity@0.5"

where `my_rewards.brevity(judged: Judged, config: RewardConfig) -> float` is importable (in the
sandbox workers too: it is imported by name, like a domain). Its value is kept in the row's
`reward_extra` JSON column under its name, its weight in `reward_weights` as `w_brevity`, and
`reward_total` is the weighted sum over the whole list; the trainer gets one TRL reward function
per component, logged under its name. ToolOrchestra's group reward (`reward_group`) reads the
built-in features only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.core.records import Task
from toolscale.judge.rewards import (
    RewardConfig,
    efficiency_reward,
    outcome_reward,
    preference_reward,
)


@dataclass(frozen=True)
class Judged:
    """What a component reads of one judged attempt: its task, metrics
    (`toolscale.judge.metrics.trace_metrics`), final answer, verdict, whether it kept its
    preference's hard constraints, and whether it was solved quickly."""

    task: Task
    metrics: Mapping[str, Any]
    final_answer: str
    verified: bool
    compliant: bool
    quick: bool


ComponentFunction = Callable[[Judged, RewardConfig], float]


@dataclass(frozen=True)
class Component:
    """One term of `reward_total`: `weight * function(judged, config)`."""

    name: str
    weight_key: str  # its key in the row's `reward_weights`
    weight: float
    function: ComponentFunction


def outcome(judged: Judged, config: RewardConfig) -> float:
    return outcome_reward(judged.verified, judged.compliant)  # a broken constraint is wrong


def efficiency(judged: Judged, config: RewardConfig) -> float:
    m = judged.metrics
    return efficiency_reward(
        m["num_tool_calls"],
        m["num_tokens"],
        m["total_cost"],
        m["total_latency_ms"],
        judged.task.reference_cost,
        judged.task.reference_latency_ms,
        config,
    )


def preference(judged: Judged, config: RewardConfig) -> float:
    return preference_reward(judged.quick, judged.compliant, config)


BUILT_IN: tuple[tuple[str, str, ComponentFunction], ...] = (
    ("outcome", "w_o", outcome),
    ("efficiency", "w_e", efficiency),
    ("preference", "w_p", preference),
)


def load(path: str) -> ComponentFunction:
    """The function `module:name` names (ConfigError when it cannot be imported or called)."""
    module, _, name = path.partition(":")
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ConfigError(
            f"reward component function {path!r} cannot be imported ({exc}); write "
            "module:function with the module importable here (docs/rewards.md)"
        ) from None
    if not callable(found):
        raise ConfigError(f"reward component {path!r} is not a function")
    function: ComponentFunction = found
    return function


def components(config: RewardConfig) -> list[Component]:
    """The reward's components in order: the three built in, then the config's extra ones."""
    built = [Component(name, key, getattr(config, key), fn) for name, key, fn in BUILT_IN]
    extra = [Component(n, f"w_{n}", w, load(path)) for n, path, w in config.components]
    return built + extra


def scores(judged: Judged, config: RewardConfig) -> dict[str, float]:
    """Each component's value by name, in order."""
    values = {}
    for component in components(config):
        value = component.function(judged, config)
        if not isinstance(value, int | float):
            raise TypeError(f"reward component {component.name} returned {value!r}, not a number")
        values[component.name] = float(value)
    return values


def total(values: Mapping[str, float], config: RewardConfig) -> float:
    """`reward_total`: each value times its weight (`outcome` by w_o, an extra `x` by w_x). With
    weights 1, 1, 1 and no extras a verified, quick gold trace scores 1 - 0.16 + 0.5 = 1.34; an
    extra `brevity` of 0.2 at weight 0.5 adds 0.1."""
    # By the weights' keys, not `components(config)`: no second import of the extra functions
    # per attempt. `values` is in the components' order (`scores`), as the weights are.
    weights = config.weights()
    keys = [key for _, key, _ in BUILT_IN] + [f"w_{name}" for name, _, _ in config.components]
    return sum(weights[key] * values[name] for key, name in zip(keys, values, strict=True))
