"""A routed task's user limits, fitted once its routes have been played: a stated budget, and a
forbidden tool the task can still be solved without.

Which round amount separates a task's routes (`toolscale.economics.budgets`) depends on what each
route costs and how long it takes under the task's table, which the oracle learns by playing them
(`toolscale.oracle.played`); a route's cost, latency and verdict do not depend on the preference
sentence (the task's first message is never priced). So the oracle calls `fitted` after playing
and before scoring:

- a `cheap` or `hurry` user states an amount that separates the routes, one that answered right
  among those that fit, mostly one that rules the gold route out (`with_stated_budget`; with no
  such amount the preference is kept);
- an `avoid_tool` user who forbids a tool every right route calls (a tool of the gold route,
  `toolscale.economics.preferences._avoidable_tool`) forbids instead one off the gold route, as
  at a task without routes: as ToolScale keeps only tasks some attempt solves, a constraint no
  right answer keeps would make every attempt score as wrong.

The instruction gets the user's new sentence in place of the old one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolscale.core.preference import Preference
from toolscale.core.records import Task
from toolscale.economics.budgets import budget_rng, stated
from toolscale.economics.preferences import sample_preference
from toolscale.sample.tasks import SampledTask, preference_rng, task_fields


@dataclass(frozen=True)
class Played:
    """What the fitting reads of one played route."""

    detour: bool
    gold: bool  # the task's gold route, as the domain gives it (before the oracle)
    tools: frozenset[str]
    total_cost: float
    total_latency_ms: float
    verified: bool


def _with(task: Task, preference: Preference) -> Task:
    body = task_fields(task)
    question = task.instruction.removesuffix(task.preference.instruction).rstrip()
    body["instruction"] = f"{question} {preference.instruction}".strip()
    body["preference"] = preference.model_dump()
    return Task(id="", **body)


def with_stated_budget(task: Task, routes: Sequence[Played]) -> Task:
    """`task` with its user's budget stated, from the routes that are no detour (see the module
    docstring). The id is left to the caller, which changes the task again."""
    mine = [r for r in routes if not r.detour]
    gold = next(((r.total_cost, r.total_latency_ms) for r in routes if r.gold), None)
    found = stated(
        task.preference,
        [r.total_cost for r in mine],
        [r.total_latency_ms for r in mine],
        budget_rng(task.domain, task.seed, task.index),
        [r.verified for r in mine],
        gold,
    )
    return task if found is None else _with(task, found)


def solvable(item: SampledTask, task: Task, routes: Sequence[Played]) -> Task:
    """`task`, or, when every route that answered right calls its forbidden tool, `task` with the
    tool its user avoids drawn as at a task without routes (see the module docstring)."""
    forbidden = set(task.preference.forbidden_tools)
    if not forbidden or any(r.verified and not r.tools & forbidden for r in routes):
        return task
    alternatives = [*item.alternatives, *(r.actions for r in item.routes if not r.detour)]
    preference = sample_preference(
        {task.preference.profile: 1.0},
        preference_rng(task.domain, task.seed, task.index),
        task.domain,
        task.tool_names(),
        task.gold_actions,
        alternatives,
        (task.reference_latency_ms, task.reference_cost),
    )
    return _with(task, preference)


def fitted(item: SampledTask, routes: Sequence[Played]) -> Task:
    """The item's task with its user limits fitted to the played routes (module docstring)."""
    return with_stated_budget(solvable(item, item.task, routes), routes)
