"""Label attempts: the teacher's own cost, preference compliance and speed, reward components
and total — and ToolOrchestra's reward within the group of attempts at one task.

These are the label columns of `traces` and `rejected`. The metrics they start from come from
`toolscale.judge.metrics`, the verdict from `toolscale.judge.verify`, the formulas from
`toolscale.judge.rewards`;
this module only puts them together, the same way at generation and at validation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

from toolscale.core.records import Message, Task, ToolCall, Trace
from toolscale.economics.preferences import answer_confidence, within_budget
from toolscale.judge.components import Judged, scores, total
from toolscale.judge.rewards import (
    BUILT_IN_NAMES,
    GroupFeatures,
    RewardConfig,
    group_rewards,
)
from toolscale.judge.verify import preference_problems


class Labelled(Protocol):
    """What the labels and its metrics read from an attempt (a Transcript or a Trace)."""

    messages: list[Message]
    tool_calls: list[ToolCall]
    final_answer: str
    teacher_prompt_tokens: int
    teacher_completion_tokens: int


def trace_labels(
    task: Task,
    attempt: Labelled,
    metrics: Mapping[str, Any],
    verified: bool,
    config: RewardConfig,
    teacher_price: tuple[float, float] = (0.0, 0.0),
) -> dict[str, Any]:
    """The label columns of one attempt, from its metrics (`toolscale.judge.metrics.trace_metrics`),
    its verdict, and the teacher's price ($ per 1M prompt and completion tokens; `teacher_cost`
    is what making the attempt cost and is not part of the reward).

    Example, weights 1/1/1, cost form, profile `none`: a verified gold trace (its total cost and
    latency are the task's reference) gives r_outcome 1, r_efficiency -0.16, r_preference 0.5
    (quick), reward_total 1.34; a detour with one more call at 1.5x the cost and 1.25x the
    latency gives 1 - 0.12 - 0.10 + 0.1 = 0.88. The same detour under `json_confidence` with a
    plain answer breaks the format: r_outcome 0, r_preference 0, reward_total -0.22.
    """
    teacher_cost = round(
        (
            attempt.teacher_prompt_tokens * teacher_price[0]
            + attempt.teacher_completion_tokens * teacher_price[1]
        )
        / 1e6,
        12,
    )
    total_cost = metrics["total_cost"]
    problems = preference_problems(task, attempt, metrics)
    quick = (
        verified
        and not problems
        and within_budget(
            task.preference,
            metrics["num_tool_calls"],
            metrics["gold_calls"],
            metrics["total_latency_ms"],
            total_cost,
        )
    )
    judged = Judged(task, metrics, attempt.final_answer, verified, not problems, bool(quick))
    values = scores(judged, config)  # a broken constraint scores as wrong (components.outcome)
    extra = {name: v for name, v in values.items() if name not in BUILT_IN_NAMES}
    return {
        "teacher_cost": teacher_cost,
        "preference_profile": task.preference.profile,
        "preference_compliant": not problems,
        "preference_violations": problems,
        "solved_quickly": quick,
        "stated_confidence": answer_confidence(attempt.final_answer),
        "reward_outcome": values["outcome"],
        "reward_efficiency": values["efficiency"],
        "reward_preference": values["preference"],
        "reward_extra": json.dumps(extra, sort_keys=True) if extra else "{}",
        "reward_total": total(values, config),
        "reward_weights": config.weights_json(),
    }


def group_labels(task: Task, attempts: list[Trace]) -> list[Trace]:
    """The attempts with `reward_group` set: ToolOrchestra's reward over every attempt made at
    `task` in this run (verified or not), with the task's preference vector P."""
    scores = group_rewards([GroupFeatures.of(a) for a in attempts], task.preference.vector)
    return [a.model_copy(update={"reward_group": s}) for a, s in zip(attempts, scores, strict=True)]
