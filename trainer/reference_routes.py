"""The reference rows of an evaluation: the oracle and every fixed route, played at each task.

Each task is rebuilt from its (domain, seed, index) as `toolscale validate` rebuilds it (the
run's price schedules, tool dropout and profile spread from run.json, then
`toolscale.oracle.played.with_oracle`) and must equal its stored row, route table included; then
every route it admits is played in the sandbox (once: the rebuild's outcomes are reused) and
judged by the run's Rubric with the oracle route as gold (`oracle.play`, `oracle.scores`): the
machinery that chose the oracle when the data was made. One more attempt is played at every
task: declining (no call, an answer saying the route does not apply), which is what a fixed
route does at a task that does not admit it. A task without routes (a stateful one) has its gold
route only, so every fixed route declines there.

The reference policies:
- `oracle`: the task's oracle route;
- `always R`, for every non-detour route name R among the tasks (calculator, code_executor,
  search, search+calculator, each expert alias, expert-1+search, ...): R where the task admits it,
  else the declined attempt;
- `always cheapest` / `always dearest`: the non-detour route with the lowest / highest total cost
  at each task, right or wrong.
A synthesized or tau2 task has no sampler to rebuild it: evaluate it with the reference rows off.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from toolscale.core.contract import Route
from toolscale.core.errors import ConfigError
from toolscale.core.records import RouteScore, Task
from toolscale.judge.rubric import Rubric
from toolscale.oracle import played as oracle
from toolscale.publish.validate import RunSettings
from toolscale.sample.in_worker import sample_in
from toolscale.sample.stored import is_synthesized
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.stats.routes import route_class
from trainer.table import ORACLE, Scored

DECLINED = "declined"
DECLINE_TEXT = "I cannot answer this question by that route."
BY_COST = (("always cheapest", min), ("always dearest", max))


@dataclass(frozen=True)
class PlayedTask:
    """Every route played at one task, the oracle's first, the declined attempt last; `judged`:
    each route's reward_total judged right and judged wrong under the task (its prices and
    preference), in the order of `routes` (what `trainer.competence` weighs)."""

    task: Task
    routes: tuple[tuple[Route, RouteScore], ...]
    judged: tuple[tuple[float, float], ...] = ()

    def scored(self, route: Route, score: RouteScore) -> Scored:
        return Scored(
            task_id=self.task.id,
            verified=score.verified,
            reward_total=score.reward_total,
            total_cost=score.total_cost,
            total_latency_ms=score.total_latency_ms,
            compliant=score.compliant,
            route=route_class((a.name, a.arguments) for a in route.actions),
            oracle=oracle_class(self.task),
            profile=self.task.preference.profile,
        )

    def admitted(self) -> dict[str, tuple[Route, RouteScore]]:
        """The routes of the task's route table that are no detour, by name (the oracle's among
        them unless it is a detour); none for a task without a route table."""
        detour = {s.name: s.detour for s in self.task.route_table}
        return {r.name: (r, s) for r, s in self.routes if detour.get(r.name) is False}

    def declined(self) -> tuple[Route, RouteScore]:
        return self.routes[-1]


def oracle_class(task: Task) -> str:
    """The route class of a task's gold actions, which are its oracle route's."""
    return route_class((a["name"], a["arguments"]) for a in task.gold_actions)


async def play_task(
    task: Task, settings: RunSettings, rubric: Rubric, pool: SandboxPool
) -> PlayedTask:
    """Rebuild `task`, check it against its row, and play and judge every route it admits."""
    if is_synthesized(task) or task.domain.startswith("tau2:"):
        raise ConfigError(
            f"task {task.id} ({task.domain}) has no sampler to rebuild its routes from; "
            "evaluate it with --reference_rows false"
        )
    try:
        prepared = await sample_in(
            pool,
            task.domain,
            task.seed,
            task.index,
            settings=(settings.economics, settings.profiles),
        )
        item = await oracle.with_oracle(prepared, pool, rubric, settings.detours)
    except SandboxError as exc:
        raise ConfigError(f"cannot rebuild task {task.id}: {exc}") from None
    if item.task != task:
        fields = [k for k in Task.model_fields if getattr(item.task, k) != getattr(task, k)]
        raise ConfigError(
            f"task {task.id} ({task.domain} {task.seed}/{task.index}) differs from its rebuild in "
            f"{', '.join(fields)}: the data was made by other code or settings; run "
            "`toolscale validate` on it, or evaluate with --reference_rows false"
        )
    declined = Route(DECLINED, [], DECLINE_TEXT, detour=True)
    item = replace(item, routes=[*item.routes, declined])
    played = await oracle.play(item, pool, rubric)  # what the rebuild played is not run again
    table = oracle.scores(item.task, played, rubric)
    # every route judged as if right (odds 1) and as if wrong (odds 0): its expected reward then
    right, wrong = (oracle.scores(item.task, played, rubric, {p.route.name: odds for p in played})
                    for odds in (1.0, 0.0))  # fmt: skip
    judged = tuple(
        (float(r.expected_reward or 0.0), float(w.expected_reward or 0.0))
        for r, w in zip(right, wrong, strict=True)
    )
    return PlayedTask(task, tuple((p.route, s) for p, s in zip(played, table, strict=True)), judged)


async def play_tasks(
    tasks: Sequence[Task], settings: RunSettings, workers: int, concurrency: int = 8
) -> list[PlayedTask]:
    """`play_task` for every task, in order, in a sandbox pool of `workers` processes."""
    rubric = Rubric(settings.reward, settings.teacher_price)
    slots = asyncio.Semaphore(concurrency)
    async with SandboxPool(workers) as pool:

        async def one(task: Task) -> PlayedTask:
            async with slots:
                return await play_task(task, settings, rubric, pool)

        return list(await asyncio.gather(*(one(t) for t in tasks)))


def fixed_names(played: Sequence[PlayedTask]) -> list[str]:
    """Every non-detour route name among the tasks, sorted."""
    return sorted({name for p in played for name in p.admitted()})


def reference_attempts(played: Sequence[PlayedTask]) -> dict[str, list[Scored]]:
    """The attempts of the oracle and of every fixed route (see the module docstring)."""
    found: dict[str, list[Scored]] = {ORACLE: [p.scored(*p.routes[0]) for p in played]}
    for name in fixed_names(played):
        found[f"always {name}"] = [p.scored(*p.admitted().get(name, p.declined())) for p in played]
    for label, pick in BY_COST:
        found[label] = [
            p.scored(*pick(p.admitted().values(), key=lambda rs: rs[1].total_cost))
            if p.admitted()
            else p.scored(*p.declined())
            for p in played
        ]
    return found


def summary(played: Sequence[PlayedTask]) -> dict[str, Any]:
    """How many tasks admit each fixed route (the others decline)."""
    return {name: sum(name in p.admitted() for p in played) for name in fixed_names(played)}
