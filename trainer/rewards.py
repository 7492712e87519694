"""TRL reward functions, one per reward component, computed by generation's rubric
(`toolscale.judge.rubric`: verifier, metrics, labels) on what the policy really did in the sandbox.

Each function has TRL's signature (`completions`, `environments`, `completion_ids`, dataset
columns, ...) and returns one float per completion. A rollout is closed, verified and labelled
once (by the first function that asks) and the others reuse its labels. The policy's own
completion tokens (tool results included, as TRL counts them) stand in for the teacher's tokens,
so r_efficiency charges the policy for what it writes and reads.

Variants: `linear` gives three functions (r_outcome, r_efficiency, r_preference) weighted
w_o / w_e / w_p by TRL, so their weighted sum is the dataset's `reward_total`; `toolorchestra`
gives one function, ToolOrchestra's group-normalised reward over the rollouts of each task (it
needs every rank to hold whole groups: `trainer.group_filter` checks that). Under both, the mean
of every component, reward_total, success rate, tool calls and cost is logged as `toolscale/...`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from toolscale.judge.rewards import GroupFeatures, RewardConfig, group_rewards
from toolscale.judge.rubric import Rubric
from trainer.environment import ToolscaleEnvironment

RewardFunction = Callable[..., list[float]]


def final_answer(completion: list[dict[str, Any]]) -> str:
    """The last assistant message's text, without a <think> block."""
    for message in reversed(completion):
        if message.get("role") == "assistant" and not message.get("tool_calls"):
            text = message.get("content") or ""
            return text.split("</think>")[-1].strip()
    return ""


def rollout_labels(
    completion: list[dict[str, Any]],
    environment: ToolscaleEnvironment,
    tokens: int,
    config: RewardConfig,
) -> dict[str, Any]:
    """Verdict, metrics and labels of one rollout, computed once and kept on its environment."""
    cached = getattr(environment, "_labels", None)
    if cached is not None:
        return cached
    verdict = environment._judge(final_answer(completion))
    draft = environment.draft
    draft.teacher_completion_tokens = tokens
    scored = Rubric(config).score(environment.task, draft, verdict.verified)
    environment._labels = {**scored, "verified": verdict.verified}
    return environment._labels


def _all_labels(
    config: RewardConfig, completions: list, environments: list, completion_ids: list | None
) -> list[dict[str, Any]]:
    ids = completion_ids or [[] for _ in completions]
    return [
        rollout_labels(c, env, len(t), config)
        for c, env, t in zip(completions, environments, ids, strict=True)
    ]


LOGGED = {  # metric name: label, averaged over the batch and logged under every variant
    "toolscale/success_rate": "verified",
    "toolscale/tool_calls": "num_tool_calls",
    "toolscale/cost": "total_cost",
    "toolscale/reward_outcome": "reward_outcome",
    "toolscale/reward_efficiency": "reward_efficiency",
    "toolscale/reward_preference": "reward_preference",
    "toolscale/reward_total": "reward_total",
}


class Dump(Protocol):
    """Receives each batch's rollouts and labels (see trainer.rollout_dump)."""

    def __call__(
        self, step: int, completions: list, environments: list, labels: list[dict[str, Any]]
    ) -> None: ...


def _dump(dump: Dump | None, state: Any, completions, environments, labels) -> None:
    if dump is not None:
        # Rollouts are made for the step about to run; metrics.jsonl numbers it state + 1.
        step = (state.global_step if state is not None else 0) + 1
        dump(step, completions, environments, labels)


def _log(log_metric: Callable | None, labels: list[dict[str, Any]]) -> None:
    if log_metric is None or not labels:
        return
    for name, key in LOGGED.items():
        log_metric(name, sum(float(x[key]) for x in labels) / len(labels))


def linear_rewards(config: RewardConfig, dump: Dump | None = None) -> list[RewardFunction]:
    """r_outcome, r_efficiency, r_preference as three TRL reward functions."""

    def reward_outcome(
        completions, environments, completion_ids=None, log_metric=None, trainer_state=None, **_
    ):
        labels = _all_labels(config, completions, environments, completion_ids)
        _log(log_metric, labels)
        _dump(dump, trainer_state, completions, environments, labels)
        return [x["reward_outcome"] for x in labels]

    def reward_efficiency(completions, environments, completion_ids=None, **_):
        labels = _all_labels(config, completions, environments, completion_ids)
        return [x["reward_efficiency"] for x in labels]

    def reward_preference(completions, environments, completion_ids=None, **_):
        labels = _all_labels(config, completions, environments, completion_ids)
        return [x["reward_preference"] for x in labels]

    return [reward_outcome, reward_efficiency, reward_preference]


def group_reward(config: RewardConfig, dump: Dump | None = None) -> RewardFunction:
    """ToolOrchestra's reward over the rollouts of each task in the batch (its group)."""

    def reward_group(
        completions, environments, completion_ids=None, log_metric=None, trainer_state=None, **_
    ):
        labels = _all_labels(config, completions, environments, completion_ids)
        _log(log_metric, labels)
        _dump(dump, trainer_state, completions, environments, labels)
        groups: dict[str, list[int]] = {}
        for i, env in enumerate(environments):
            groups.setdefault(env.task.id, []).append(i)
        rewards = [0.0] * len(environments)
        for members in groups.values():
            task = environments[members[0]].task
            features = [GroupFeatures.of(labels[i]) for i in members]
            for i, score in zip(
                members, group_rewards(features, task.preference.vector), strict=True
            ):
                rewards[i] = score
        return rewards

    return reward_group


def reward_functions(
    config: RewardConfig, variant: str = "linear", dump: Dump | None = None
) -> tuple[list[RewardFunction], list[float]]:
    """The reward functions and their TRL weights for a reward config and variant; `dump`, if
    given, receives every batch's rollouts and labels."""
    if variant == "toolorchestra":
        return [group_reward(config, dump)], [1.0]
    return linear_rewards(config, dump), [config.w_o, config.w_e, config.w_p]
