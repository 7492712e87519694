"""Playing the panel: its tasks (every template of a domain in turn), each agent played by the
real `OpenAITeacher` against the scripted user or the LLM user simulator, and judged by the real
`Rubric` the way generation judges a teacher's attempts.

`panel_tasks(domain, n)` draws task i of template i mod the domain's templates (a domain that
samples no template by name is sampled by index); an orchestration domain's odd tasks ask for a
JSON answer (the `json_confidence` profile), its others draw their profile as a run does. A task
whose gold route does not build, or whose instruction another task has, is left out.
`play(items, agent, user)` gives one `Result` per task the agent applies to."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from tests.panel.agent import NEGATIVES, negative_applies
from tests.panel.compat import DEFAULT_SPREAD
from tests.panel.endpoints import AgentEndpoint, UserEndpoint
from toolscale.core.registry import get_domain
from toolscale.judge.rewards import RewardConfig
from toolscale.judge.rubric import Rubric
from toolscale.play.openai_teacher import OpenAITeacher
from toolscale.play.transcript import Transcript
from toolscale.play.usersim import UserSimulator
from toolscale.sample.tasks import GoldError, SampledTask, build_task, with_preference
from toolscale.sandbox.pool import SandboxPool

USERS = ("scripted", "llm")
# With a caller's detours (a detail read back, asked again) a conversation can run past
# `--max-turns`'s default of 12; the panel measures the judge and the users, not that limit.
MAX_TURNS = 40


@dataclass(frozen=True)
class Result:
    domain: str
    template: str
    verified: bool
    stage: str | None
    reasons: list[str]
    transcript: Transcript


def panel_tasks(domain: str, n: int, seed: int = 0) -> list[SampledTask]:
    plugin = get_domain(domain)
    templates = list(plugin.templates)
    items: dict[str, SampledTask] = {}
    for i in range(n):
        try:
            try:
                item = build_task(plugin, seed, i, 15.0, template=templates[i % len(templates)])
            except NotImplementedError:
                item = build_task(plugin, seed, i, 15.0)
        except GoldError:
            continue
        json_task = plugin.family == "orchestration" and i % 2 == 1
        item = with_preference(item, {"json_confidence": 1.0} if json_task else DEFAULT_SPREAD)
        items.setdefault(item.task.instruction, item)
    return list(items.values())


def applies(item: SampledTask, agent: str) -> bool:
    return agent not in NEGATIVES or negative_applies(item, agent)


async def play(
    items: list[SampledTask], agent: str, user: str, pool: SandboxPool, concurrency: int = 8
) -> list[Result]:
    """Each task `agent` applies to, played against `user` ("scripted" or "llm") and judged."""
    played = [item for item in items if applies(item, agent)]
    simulator = UserSimulator(UserEndpoint(played)) if user == "llm" else None
    teacher = OpenAITeacher(
        AgentEndpoint(played, agent),
        name=f"panel-{agent}",
        max_turns=MAX_TURNS,
        concurrency=concurrency,
        user=simulator,
    )
    rubric = Rubric(RewardConfig())

    async def one(item: SampledTask) -> Result:
        [draft] = await teacher.attempts(item, pool)
        verdict = await rubric.verdict(item.task, draft, pool)
        task = item.task
        return Result(
            task.domain,
            task.template,
            verdict.verified,
            verdict.failure_stage,
            verdict.reasons,
            draft,
        )

    return list(await asyncio.gather(*(one(item) for item in played)))
