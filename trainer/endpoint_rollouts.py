"""Evaluate an orchestrator served behind an OpenAI-compatible endpoint on toolscale tasks.

The endpoint plays each task as generation's LLM teacher plays it
(`toolscale.play.openai_teacher`): the task's system prompt, its instruction and its tools; each
answer's calls (native, or written in the text) run in the task's own sandbox episode, until it
answers without a call or has used `max_turns` answers; a stateful task's user is the scripted
user, or the LLM user `--user_base_url` / `--user_model` name (`trainer.user_seat`). Every
attempt is judged by the dataset's Rubric into the Trace row generation would write, so its
labels mean what a checkpoint's rollout labels mean (`trainer.checkpoint_rollouts`).

The endpoint is asked once before any task (`toolscale.llm.probe`: one short request, one
retry): an endpoint that does not answer, or refuses the key or the model, is a ConfigError, not
a table of failed attempts. A request that fails later, after its retries, fails that attempt
(stage "teacher").
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from toolscale.config.teacher import TeacherOptions
from toolscale.config.teacher_checks import check_teacher
from toolscale.core.errors import ConfigError
from toolscale.core.records import Task
from toolscale.judge.rubric import Rubric
from toolscale.llm.probe import probe
from toolscale.play.factory import open_teacher
from toolscale.play.openai_teacher import OpenAITeacher
from toolscale.sandbox.pool import SandboxPool
from trainer.checkpoint_rollouts import KEPT_LABELS
from trainer.route_mix import rollout_route
from trainer.user_seat import UserArguments


def teacher_options(
    base_url: str,
    model: str,
    api_key_env: str,
    max_turns: int,
    max_tokens: int,
    temperature: float,
    timeout_s: float,
    concurrency: int,
    user: UserArguments | None = None,
) -> TeacherOptions:
    """The LLM teacher options that play the endpoint, checked (a ConfigError names the fix);
    `user` names the LLM user of stateful tasks (none given: the scripted user)."""
    llm = user is not None and user.llm_user()
    options = TeacherOptions(
        base_url=base_url,
        model=model,
        api_key_env=api_key_env,
        max_turns=max_turns,
        max_tokens=max_tokens,
        temperature=temperature,
        request_timeout_s=timeout_s,
        concurrency=concurrency,
        # the policy under test plays the agent, never its own caller
        user="llm" if llm else "scripted",
        user_base_url=user.user_base_url if user is not None and llm else None,
        user_model=user.user_model if user is not None and llm else None,
        user_api_key_env=user.user_api_key_env if user is not None and llm else None,
    )
    check_teacher("openai", options)
    return options


def record_of(trace: Any) -> dict[str, Any]:
    """An attempt's record, with the keys a checkpoint rollout's record has."""
    labels = trace.model_dump()
    return {
        "id": trace.task_id,
        **{k: labels[k] for k in KEPT_LABELS},
        "failure_stage": trace.failure_stage,
        "excluded": "",
        "reward_total": trace.reward_total,
        "completion_tokens": trace.teacher_completion_tokens,
        "final_answer": trace.final_answer,
        "route": rollout_route(labels),
        "tools_called": sorted({c["name"] for c in labels["tool_calls"]}),
    }


async def endpoint_records(
    options: TeacherOptions, tasks: Sequence[Task], rubric: Rubric, workers: int
) -> list[dict[str, Any]]:
    """One judged attempt of the endpoint per task, in order (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="toolscale-evaluate-") as cache:
        run = open_teacher("openai", options, detours=False, cache_dir=Path(cache))
        try:
            roles = {
                "teacher": "--base_url and --model",
                "user": "--user_base_url and --user_model",
            }
            await probe(run.clients, roles)
        except ConfigError:
            await run.aclose()
            raise
        teacher = cast(OpenAITeacher, run.teacher)  # what open_teacher("openai") builds
        slots = asyncio.Semaphore(options.effective_concurrency(False))
        try:
            async with SandboxPool(workers) as pool:

                async def one(task: Task) -> dict[str, Any]:
                    async with slots:
                        draft = await teacher.play(task, pool, 0)
                        return record_of(await rubric.trace(task, draft, teacher.name, pool))

                return list(await asyncio.gather(*(one(t) for t in tasks)))
        finally:
            await run.aclose()
