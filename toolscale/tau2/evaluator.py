"""tau2's own verdict on a toolscale attempt: the trace turned into a tau2 trajectory and judged by
tau2's evaluators (its environment check, which replays gold and predicted actions on fresh
environments and compares database hashes, and its communicate check).

It is the reference toolscale's verifier is measured against (toolscale.tau2.agreement) and a
way to score a trained orchestrator's traces with tau2's code. The reward is over the components
toolscale applies without a judge (`checks()`): NL_ASSERTION needs tau2's LLM judge and is left
out (toolscale's own judge, `toolscale.tau2.nl_assertions`, is compared with nothing). It imports
tau2's evaluator modules: main process only, never a sandbox worker.
"""

from __future__ import annotations

import json
from typing import Any

from toolscale.core.records import Message
from toolscale.tau2 import source
from toolscale.tau2.domain import Tau2Domain


def trajectory(messages: list[Message]) -> list[Any]:
    """tau2 messages of a toolscale conversation (the system prompt is not part of tau2's)."""
    message = source.import_module("data_model.message")
    out: list[Any] = []
    for m in messages:
        if m.role == "user":
            out.append(message.UserMessage(role="user", content=m.content))
        elif m.role == "assistant":
            calls = [
                message.ToolCall(
                    id=c.id, name=c.name, arguments=_arguments(c.arguments), requestor="assistant"
                )
                for c in m.tool_calls
            ]
            out.append(
                message.AssistantMessage(
                    role="assistant", content=m.content or None, tool_calls=calls or None
                )
            )
        elif m.role == "tool":
            out.append(
                message.ToolMessage(
                    id=m.tool_call_id or "",
                    role="tool",
                    content=m.content,
                    requestor="assistant",
                    error=m.content.startswith("Error: "),
                )
            )
    return out


def _arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or JSON Python refuses (a 5,000-digit int)
        return {}
    return value if isinstance(value, dict) else {}


def tau2_reward(domain: Tau2Domain, task_id: str, messages: list[Message]) -> float:
    """tau2's reward for the conversation `messages` on task `task_id` of `domain`, over the
    reward components toolscale applies (DB and COMMUNICATE, as the task's basis names them)."""
    tasks = source.import_module("data_model.tasks")
    env_eval = source.import_module("evaluator.evaluator_env").EnvironmentEvaluator
    comm_eval = source.import_module("evaluator.evaluator_communicate").CommunicateEvaluator
    raw = next(t for t in domain.tasks if t.id == task_id)
    task = tasks.Task.model_validate(raw.model_dump())
    loaded = domain.loaded

    def constructor(solo_mode: bool = False, **_: Any) -> Any:
        return loaded.make_env(loaded.world)

    steps = trajectory(messages)
    basis = set(raw.criteria.reward_basis)
    reward = 1.0
    if basis & {"DB", "ENV_ASSERTION"}:
        reward *= env_eval.calculate_reward(constructor, task, steps).reward
    if "COMMUNICATE" in basis:
        reward *= comm_eval.calculate_reward(task, steps).reward
    return reward
