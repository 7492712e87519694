"""TRL reward functions, one per reward component, computed by the verifier and labelers of
generation on what the policy really did in the sandbox.

Each function has TRL's signature (`completions`, `environments`, dataset columns, ...) and
returns one float per completion. The verdict of a rollout is computed once (the first function
to ask closes the episode and verifies it) and reused by the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trainer.environment import ToolscaleEnvironment


def final_answer(completion: list[dict[str, Any]]) -> str:
    """The last assistant message's text, without a <think> block."""
    for message in reversed(completion):
        if message.get("role") == "assistant" and not message.get("tool_calls"):
            text = message.get("content") or ""
            return text.split("</think>")[-1].strip()
    return ""


def _verdicts(completions: list, environments: list[ToolscaleEnvironment]) -> list[Any]:
    return [env._judge(final_answer(c)) for c, env in zip(completions, environments, strict=True)]


def reward_outcome(
    completions: list,
    environments: list[ToolscaleEnvironment],
    log_metric: Callable | None = None,
    **_: Any,
) -> list[float]:
    """1.0 when the rollout verifies (format, execution, grounding, outcome), else 0.0."""
    verdicts = _verdicts(completions, environments)
    rewards = [1.0 if v.verified else 0.0 for v in verdicts]
    if log_metric is not None:
        calls = [env.draft.tool_calls for env in environments]
        log_metric("toolscale/success_rate", sum(rewards) / len(rewards))
        log_metric("toolscale/tool_calls", sum(len(c) for c in calls) / len(calls))
        log_metric("toolscale/cost", sum(sum(x.cost for x in c) for c in calls) / len(calls))
    return rewards


def reward_functions(options: Any) -> tuple[list[Callable[..., list[float]]], list[float]]:
    """The reward functions and their weights for the configured variant."""
    return [reward_outcome], [options.w_o]
