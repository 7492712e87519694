"""The router baseline's row of an evaluation, and the expected-reward oracle's.

`toolscale-train evaluate` plays every route each task admits (`trainer.reference_routes`);
this module adds two rows from those very attempts:

- `router baseline`: the light router (`trainer.router`) trained on the `tasks` rows of the
  training side of the split (`--heldout_fraction`; with `--split all`, every row of the dataset,
  so the row is in-sample and `about["router"]` says so), which sees what a policy sees, chooses
  a route per evaluated task, and that route's attempt is judged like any row (a route the task
  does not admit is the declined attempt, as for a fixed route);
- `expected oracle`: each task's `expected_route` (the best by expected reward, what a policy can
  know to be best), played the same way;
- `competence router`: the competence-and-cost router (`trainer.competence`), its competence
  learnt from `competence_tasks` of the same training rows, the routes' costs read from each
  task's prices and preference.

The router is the first row a trained orchestrator must beat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trainer import competence, router, split
from trainer.reference_routes import PlayedTask
from trainer.table import Scored

ROUTER = "router baseline"
EXPECTED = "expected oracle"
COMPETENCE = competence.NAME


def _attempt(played: PlayedTask, name: str | None, detours: bool = False) -> Scored:
    """The attempt of route `name` at the task: one it admits (any route of its table with
    `detours`), else the declined attempt."""
    found = {r.name: (r, s) for r, s in played.routes} if detours else played.admitted()
    return played.scored(*found.get(name or "", played.declined()))


def training_rows(
    rows: Sequence[Mapping[str, Any]], heldout_fraction: float
) -> list[Mapping[str, Any]]:
    """The rows a router trains on: those off the held-out side of the split (all of them
    without one)."""
    if heldout_fraction <= 0:
        return list(rows)
    return [r for r in rows if not split.held_out(split.content_key(r), heldout_fraction)]


def options(played: PlayedTask) -> list[competence.Option]:
    """The routes the task admits as the competence router weighs them (`PlayedTask.judged`)."""
    admitted = played.admitted()
    return [
        competence.Option(route.name, right, wrong, score.num_tool_calls, score.total_cost)
        for (route, score), (right, wrong) in zip(played.routes, played.judged, strict=True)
        if route.name in admitted and admitted[route.name][0] is route
    ]


def router_attempts(
    train: Sequence[Mapping[str, Any]],
    evaluated: Sequence[Mapping[str, Any]],
    played: Sequence[PlayedTask],
    competence_tasks: int = competence.DEFAULT_TASKS,
) -> tuple[dict[str, list[Scored]], dict[str, Any]]:
    """The router baseline's, the competence router's and the expected oracle's attempts at the
    evaluated tasks (rows in the order of `played`), and what the routers were trained on."""
    routers = router.fit_by_domain(train)
    chosen = router.route_by_domain(routers, evaluated)
    learnt = competence.fit(train, competence_tasks)
    weighed = [
        competence.choose(learnt, r, options(p)) for r, p in zip(evaluated, played, strict=True)
    ]
    seen = {r["id"] for r in train}
    about = {
        "training_tasks": sum(1 for r in train if r.get("route_table")),
        "domains": sorted(routers),
        "in_sample": sum(r["id"] in seen for r in evaluated),
        "competence_tasks": learnt.tasks,
    }
    attempts = {
        ROUTER: [_attempt(p, name) for p, name in zip(played, chosen, strict=True)],
        COMPETENCE: [_attempt(p, name) for p, name in zip(played, weighed, strict=True)],
        EXPECTED: [_attempt(p, p.task.expected_route or None, True) for p in played],
    }
    return attempts, about
