"""TRL reward functions, one per reward component, computed by generation's rubric
(`toolscale.judge.rubric`: verifier, metrics, labels) on what the policy really did in the sandbox.

Each function has TRL's signature (`completions`, `environments`, `completion_ids`, dataset
columns, ...) and returns one float per completion. A rollout is judged once (by the first
function that asks) into the Trace row generation would write for the same conversation
(`trainer.environment.ToolscaleEnvironment._judge`); the others reuse its labels. The policy is
charged as a teacher is: its written text (tool-calling turns included) and every tool result and
user reply it read, estimated from the characters (`toolscale.judge.metrics`); TRL's token count
is recorded as `teacher_completion_tokens`. A rollout without a final answer fails as a teacher's
attempt without one does. A rollout with a crashed tool, or a call that timed out twice, gets no
reward (None: TRL leaves it out of the group baseline and gives it no advantage) and is counted
in `toolscale/excluded`.

Variants: `linear` gives one function per reward component (r_outcome, r_efficiency,
r_preference, then each extra one of the config, `toolscale.judge.components`) weighted w_o / w_e /
w_p / w_<name> by TRL, so their weighted sum is the dataset's `reward_total`; `toolorchestra`
gives one function, ToolOrchestra's group-normalised reward over the rollouts of each task (it
needs every rank to hold whole groups: `trainer.group_filter` checks that). Under both, the mean
of every component, reward_total, success rate, tool calls and cost is logged as `toolscale/...`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from toolscale.judge.rewards import GroupFeatures, RewardConfig, group_rewards
from toolscale.play.rollout import final_text
from trainer.environment import ToolscaleEnvironment

RewardFunction = Callable[..., list[float | None]]


def final_answer(completion: list[dict[str, Any]]) -> str:
    """The rollout's final answer: its last message's text (without a <think> block) when that
    message calls no tool, else "" (the rollout stopped with calls pending)."""
    last = next((m for m in reversed(completion) if m.get("role") == "assistant"), None)
    if last is None or last.get("tool_calls") or completion[-1].get("role") != "assistant":
        return ""
    return final_text(last.get("content") or "")


def rollout_labels(
    completion: list[dict[str, Any]],
    environment: ToolscaleEnvironment,
    tokens: int,
    config: RewardConfig,
) -> dict[str, Any]:
    """The rollout's Trace columns (verdict, metrics, labels) and `excluded` (why it gets no
    reward, "" when it gets one), computed once and kept on its environment."""
    cached = getattr(environment, "_labels", None)
    if cached is not None:
        return cached
    trace = environment._judge(completion, tokens, config)
    excluded = environment.excluded
    if excluded:
        print(f"toolscale: rollout of task {trace.task_id} left out: {excluded}", file=sys.stderr)
    environment._labels = {**trace.model_dump(), "excluded": excluded}
    return environment._labels


def _all_labels(
    config: RewardConfig, completions: list, environments: list, completion_ids: list | None
) -> list[dict[str, Any]]:
    ids = completion_ids or [[] for _ in completions]
    return [
        rollout_labels(c, env, len(t), config)
        for c, env, t in zip(completions, environments, ids, strict=True)
    ]


def _kept(labels: list[dict[str, Any]], key: str) -> list[float | None]:
    return [None if x.get("excluded") else x[key] for x in labels]


LOGGED = {  # metric name: label, averaged over the batch and logged under every variant
    "toolscale/success_rate": "verified",
    "toolscale/tool_calls": "num_tool_calls",
    "toolscale/cost": "total_cost",
    "toolscale/reward_outcome": "reward_outcome",
    "toolscale/reward_efficiency": "reward_efficiency",
    "toolscale/reward_preference": "reward_preference",
    "toolscale/reward_total": "reward_total",
    "toolscale/excluded": "excluded",
}


class Dump(Protocol):
    """Receives each batch's rollouts and labels (trainer.rollout_dump, trainer.route_mix)."""

    def __call__(
        self, step: int, completions: list, environments: list, labels: list[dict[str, Any]]
    ) -> None: ...


def _dump(
    dumps: Sequence[Dump],
    state: Any,
    completions: list,
    environments: list,
    labels: list[dict[str, Any]],
) -> None:
    # Rollouts are made for the step about to run; metrics.jsonl numbers it state + 1.
    step = (state.global_step if state is not None else 0) + 1
    for dump in dumps:
        dump(step, completions, environments, labels)


def _extra(labels: dict[str, Any], name: str) -> float:
    value: float = json.loads(labels.get("reward_extra") or "{}")[name]
    return value


def _log(log_metric: Callable | None, labels: list[dict[str, Any]], config: RewardConfig) -> None:
    if log_metric is None or not labels:
        return
    for name, key in LOGGED.items():
        values = [bool(x.get(key)) if key == "excluded" else x[key] for x in labels]
        log_metric(name, sum(float(v) for v in values) / len(values))
    for name, _, _ in config.components:
        log_metric(f"toolscale/reward_{name}", sum(_extra(x, name) for x in labels) / len(labels))


def _extra_reward(config: RewardConfig, name: str) -> RewardFunction:
    """The TRL reward function of the extra component `name` (named reward_<name> in TRL's log)."""

    def reward(
        completions: list, environments: list, completion_ids: list | None = None, **_: Any
    ) -> list[float | None]:
        labels = _all_labels(config, completions, environments, completion_ids)
        return [None if x.get("excluded") else _extra(x, name) for x in labels]

    reward.__name__ = f"reward_{name}"
    return reward


def linear_rewards(config: RewardConfig, dumps: Sequence[Dump] = ()) -> list[RewardFunction]:
    """r_outcome, r_efficiency, r_preference and each extra component as TRL reward functions."""

    def reward_outcome(
        completions: list[list[dict[str, Any]]],
        environments: list[ToolscaleEnvironment],
        completion_ids: list[list[int]] | None = None,
        log_metric: Callable[[str, float], None] | None = None,
        trainer_state: Any = None,
        **_: Any,
    ) -> list[float | None]:
        labels = _all_labels(config, completions, environments, completion_ids)
        _log(log_metric, labels, config)
        _dump(dumps, trainer_state, completions, environments, labels)
        return _kept(labels, "reward_outcome")

    def reward_efficiency(
        completions: list[list[dict[str, Any]]],
        environments: list[ToolscaleEnvironment],
        completion_ids: list[list[int]] | None = None,
        **_: Any,
    ) -> list[float | None]:
        labels = _all_labels(config, completions, environments, completion_ids)
        return _kept(labels, "reward_efficiency")

    def reward_preference(
        completions: list[list[dict[str, Any]]],
        environments: list[ToolscaleEnvironment],
        completion_ids: list[list[int]] | None = None,
        **_: Any,
    ) -> list[float | None]:
        labels = _all_labels(config, completions, environments, completion_ids)
        return _kept(labels, "reward_preference")

    extra = [_extra_reward(config, name) for name, _, _ in config.components]
    return [reward_outcome, reward_efficiency, reward_preference, *extra]


def group_reward(config: RewardConfig, dumps: Sequence[Dump] = ()) -> RewardFunction:
    """ToolOrchestra's reward over the rollouts of each task in the batch (its group)."""

    def reward_group(
        completions: list[list[dict[str, Any]]],
        environments: list[ToolscaleEnvironment],
        completion_ids: list[list[int]] | None = None,
        log_metric: Callable[[str, float], None] | None = None,
        trainer_state: Any = None,
        **_: Any,
    ) -> list[float | None]:
        labels = _all_labels(config, completions, environments, completion_ids)
        _log(log_metric, labels, config)
        _dump(dumps, trainer_state, completions, environments, labels)
        groups: dict[str, list[int]] = {}
        for i, env in enumerate(environments):
            groups.setdefault(env.task.id, []).append(i)
        rewards: list[float | None] = [None] * len(environments)
        for members in groups.values():
            members = [i for i in members if not labels[i].get("excluded")]
            if not members:
                continue
            task = environments[members[0]].task
            features = [GroupFeatures.of(labels[i]) for i in members]
            for i, score in zip(
                members, group_rewards(features, task.preference.vector), strict=True
            ):
                rewards[i] = score
        return rewards

    return reward_group


def reward_functions(
    config: RewardConfig, variant: str = "linear", dumps: Sequence[Dump] = ()
) -> tuple[list[RewardFunction], list[float]]:
    """The reward functions and their TRL weights for a reward config and variant; each of
    `dumps` receives every batch's rollouts and labels (the rollout dump, the route mix)."""
    if variant == "toolorchestra":
        return [group_reward(config, dumps)], [1.0]
    return linear_rewards(config, dumps), list(config.weights().values())
