"""The oracle route of a task: play every route it admits, judge each, make the best the gold.

A task whose domain offers routes (`TaskSpec.routes`: each tool, each expert alias, the
combinations the task admits, and the detours) gets every route that can be best played through
the sandbox once, as the reference teacher plays them (`toolscale.play.reference.route_draft`:
its outcomes are the verifier's grounding, and the reference teacher reuses them), judged by the
verifier and labelled by the run's rubric (`toolscale.judge.rubric`: the reward functions
themselves, under the task's own prices and preference). A detour is never best (a mistake then
corrected, another route's calls and more, or an answer wrong by construction:
`toolscale.core.contract.Route`), so the detours are played, and get rows in the route table,
only under `--detours`. The best route is the highest
`reward_total` among the verified routes that keep the preference's hard constraints (among the
verified ones when none keeps them; the task's own gold when none verifies), ties going to fewer
calls, then lower cost, then the name.

Before scoring, the user's limits are fitted to the routes as played (`toolscale.sample.budgets`:
a `cheap` or `hurry` user states a budget that separates them, a forbidden tool leaves a right
answer). The reward measures cost and latency against the task's gold route,
and "quick" against its number of calls, so the oracle is found by rounds: score every route against
the domain's gold, make the best the gold (its actions, its cost and latency as the reference),
score again, until the best route stays the same (at most MAX_ROUNDS). The task then stores
`oracle_route`, `oracle_reward` and `route_table` (every route's score with the oracle as gold, and
its expected reward from the experts' skill profiles, `toolscale.oracle.expected`, with the
expected best as gold, found by the same rounds), `expected_route` (the best by expected reward:
the ex-ante oracle, where `oracle_route` is the ex-post upper bound),
and its gold actions are the oracle route's, so the reference teacher's gold trace is the oracle
route. `toolscale validate` rebuilds each task through this function and compares, which re-checks
the oracle fields. This module decides nothing about correctness (the verifier does) nor about
reward (toolscale.judge.rewards does).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from toolscale.core.contract import Action, Route
from toolscale.core.records import RouteScore, Task
from toolscale.core.task_state import state_json
from toolscale.judge.metrics import trace_metrics
from toolscale.judge.rubric import Rubric
from toolscale.judge.verify import Verdict
from toolscale.oracle.expected import expected, expected_best
from toolscale.play.reference import relayed, route_draft
from toolscale.play.transcript import Transcript
from toolscale.sample.budgets import Played, fitted
from toolscale.sample.tasks import SampledTask, identified, task_fields
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool

MAX_ROUNDS = 4
GOLD_OWN = -1  # the gold of `_Rounds` that is the task's own


@dataclass(frozen=True)
class PlayedRoute:
    """One route as played: its calls' outcomes, the final state hash, the attempt, its verdict."""

    route: Route
    outcomes: list[CallOutcome]
    final_hash: str
    draft: Transcript
    verdict: Verdict


def candidates(item: SampledTask, detours: bool = True) -> list[Route]:
    """The task's gold route (named `gold_route`) and every other route it admits, its detours
    only with `detours`."""
    gold = [Action(a["name"], a["arguments"]) for a in item.task.gold_actions]
    routes = [Route(item.gold_route, gold, item.final_message), *item.routes]
    names = [r.name for r in routes]
    if len(set(names)) != len(names):
        raise ValueError(f"{item.task.domain} task {item.task.index}: route names repeat: {names}")
    return [r for r in routes if detours or not r.detour]


async def play(
    item: SampledTask, pool: SandboxPool, rubric: Rubric, detours: bool = True
) -> list[PlayedRoute]:
    """Every candidate route run on a fresh state and judged by the verifier, concurrently; a
    route already played at this task (`SampledTask.route_outcomes`) is not run again."""
    task = item.task

    async def one(attempt: int, route: Route) -> PlayedRoute:
        if attempt == 0 and len(item.gold_outcomes) == len(route.actions):
            outcomes, final_hash = item.gold_outcomes, task.expected_state_hash
        elif route.name in item.route_outcomes:
            outcomes, final_hash = item.route_outcomes[route.name]
        else:
            calls = [(a.name, a.arguments) for a in route.actions]
            own = item.own_routes
            outcomes, final_hash = await pool.replay(task.domain, state_json(task), calls, own)
        draft = route_draft(
            task, route.name, attempt, route.actions, route.final_message, outcomes, final_hash
        )
        draft.grounded = True  # its calls ran just now, or when the task was built
        return PlayedRoute(
            route, outcomes, final_hash, draft, await rubric.verdict(task, draft, pool)
        )

    routes = candidates(item, detours)
    return list(await asyncio.gather(*(one(i, r) for i, r in enumerate(routes))))


class _Rounds:
    """The played routes' scores under each gold the rounds try, each computed once. Every gold
    tried is the task's own (`GOLD_OWN`) or a played route made gold (`_as_gold`: its actions,
    and its cost and latency as the reference, which depend on the prices only), so a gold is
    named by its route's index; a route's metrics depend on the prices and the gold's number
    of calls, its labels on the gold and its verdict."""

    def __init__(self, base: Task, played: list[PlayedRoute], rubric: Rubric) -> None:
        self.base, self.played, self.rubric = base, played, rubric
        self._golds: dict[int, Task] = {GOLD_OWN: base}
        self._metrics: dict[tuple[int, int], dict[str, Any]] = {}
        self._labels: dict[tuple[int, int, bool], dict[str, Any]] = {}

    def gold(self, chosen: int) -> Task:
        """The task with route `chosen` as its gold (`GOLD_OWN`: the task as it is)."""
        if chosen not in self._golds:
            made = self.metrics(chosen, GOLD_OWN)  # its cost and latency: the prices' alone
            self._golds[chosen] = _as_gold(self.base, self.played[chosen], made)
        return self._golds[chosen]

    def metrics(self, route: int, chosen: int) -> dict[str, Any]:
        task = self.gold(chosen)
        key = (route, len(task.gold_actions))
        if key not in self._metrics:
            self._metrics[key] = trace_metrics(task, self.played[route].draft)
        return self._metrics[key]

    def labels(self, route: int, chosen: int, verified: bool) -> dict[str, Any]:
        key = (route, chosen, verified)
        if key not in self._labels:
            task, draft = self.gold(chosen), self.played[route].draft
            metrics = self.metrics(route, chosen)
            self._labels[key] = self.rubric.measure(task, draft, verified, metrics)[1]
        return self._labels[key]

    def reward(self, route: int, chosen: int, verified: bool) -> float:
        return float(self.labels(route, chosen, verified)["reward_total"])

    def table(self, chosen: int, odds: Mapping[str, float] | None = None) -> list[RouteScore]:
        """Each played route's score with route `chosen` as the gold; with `odds` (route name
        -> chance of being right, `SampledTask.route_odds`), its expected reward too
        (`toolscale.oracle.expected`)."""
        rows = []
        for i, p in enumerate(self.played):
            verified = p.verdict.verified
            metrics, labels = self.metrics(i, chosen), self.labels(i, chosen, verified)
            reward = labels["reward_total"]
            extra = {}
            if odds is not None:
                judged = functools.partial(self.reward, i, chosen)
                extra = expected(verified, reward, odds.get(p.route.name), judged)
            rows.append(
                RouteScore(
                    name=p.route.name,
                    detour=p.route.detour,
                    verified=verified,
                    failure_stage=p.verdict.failure_stage,
                    compliant=labels["preference_compliant"],
                    num_tool_calls=metrics["num_tool_calls"],
                    total_cost=metrics["total_cost"],
                    total_latency_ms=metrics["total_latency_ms"],
                    reward_total=reward,
                    **extra,
                )
            )
        return rows


def scores(
    task: Task,
    played: list[PlayedRoute],
    rubric: Rubric,
    odds: Mapping[str, float] | None = None,
) -> list[RouteScore]:
    """Each played route's score under `task` (its gold route and reference as they stand); with
    `odds`, its expected reward too (`_Rounds.table`)."""
    return _Rounds(task, played, rubric).table(GOLD_OWN, odds)


def _facts(task: Task, played: list[PlayedRoute]) -> list[Played]:
    """What fitting the user's limits reads of each played route (`toolscale.sample.budgets`)."""
    found = []
    for i, p in enumerate(played):  # the first is the gold route (`candidates`)
        metrics = trace_metrics(task, p.draft)
        tools = frozenset(a.name for a in p.route.actions)
        found.append(
            Played(
                p.route.detour,
                i == 0,
                tools,
                metrics["total_cost"],
                metrics["total_latency_ms"],
                p.verdict.verified,
            )
        )
    return found


def best(table: list[RouteScore], default: int = 0) -> int:
    """The index of the best route (see the module docstring); `default` when none verifies."""
    pool = [i for i, s in enumerate(table) if s.verified and s.compliant]
    pool = pool or [i for i, s in enumerate(table) if s.verified]
    if not pool:
        return default
    return min(
        pool,
        key=lambda i: (
            -table[i].reward_total,
            table[i].num_tool_calls,
            table[i].total_cost,
            table[i].name,
        ),
    )


def _as_gold(
    task: Task, played: PlayedRoute, metrics: Mapping[str, Any], extra: Mapping[str, Any] = {}
) -> Task:
    body = task_fields(task)
    body["gold_actions"] = [a.as_dict() for a in played.route.actions]
    body["reference_cost"] = metrics["total_cost"]
    body["reference_latency_ms"] = metrics["total_latency_ms"]
    body["expected_state_hash"] = played.final_hash
    body.update(extra)
    return Task(id="", **body)


def _expected(rounds: _Rounds, odds: Mapping[str, float]) -> tuple[int, list[RouteScore]]:
    """The expected-reward oracle's route and every route's expected score, found by rounds as
    the played oracle is but with the expected best as the gold: a reference a policy can know
    (the played oracle's would carry this draw's luck into every route's expected reward)."""
    chosen = GOLD_OWN
    for _ in range(MAX_ROUNDS):
        table = rounds.table(chosen, odds)
        pick = expected_best(table)
        if pick == chosen:
            break  # the table is the gold's as it stands
        chosen = pick
    else:
        table = rounds.table(chosen, odds)
    return chosen, table


async def with_oracle(
    item: SampledTask, pool: SandboxPool, rubric: Rubric, detours: bool = False
) -> SampledTask:
    """The task with its oracle route as the gold route, and `oracle_route`, `oracle_reward`
    and `route_table` set; a task whose domain offers no routes is returned as it is. Only the
    routes that can be best are played (a detour never is), and the detours too with `detours`
    (`--detours`: their rows in the route table); `routes` keeps every route but the oracle's,
    and `route_outcomes` what each played one returned."""
    if not item.routes:
        return item
    played = await play(item, pool, rubric, detours)
    rounds = _Rounds(fitted(item, _facts(item.task, played)), played, rubric)
    chosen, seen = GOLD_OWN, []
    for _ in range(MAX_ROUNDS):
        table = rounds.table(chosen)
        pick = best(table)
        if pick == chosen or pick in seen:
            break  # the table is the gold's as it stands
        seen.append(pick)
        chosen = pick
    else:
        table = rounds.table(chosen)
    hoped, expected_table = _expected(rounds, item.route_odds)
    oracle = played[chosen]
    extra = {
        "oracle_route": oracle.route.name,
        "oracle_reward": table[chosen].reward_total,
        "route_table": [
            {**s.model_dump(), "p_right": e.p_right, "expected_reward": e.expected_reward}
            for s, e in zip(table, expected_table, strict=True)
        ],
        "expected_route": played[hoped].route.name,
    }
    task = _as_gold(rounds.base, oracle, rounds.metrics(chosen, chosen), extra)
    final = oracle.route.final_message
    if final is None:  # the route relays its last call, an expert's answer
        final = relayed(oracle.outcomes[-1].output)
    return replace(
        item,
        task=identified(task_fields(task), item.state_digest),
        final_message=final,
        gold_outcomes=oracle.outcomes,
        routes=[r for r in candidates(item) if r.name != oracle.route.name],
        gold_route=oracle.route.name,
        route_outcomes={p.route.name: (p.outcomes, p.final_hash) for p in played},
    )
