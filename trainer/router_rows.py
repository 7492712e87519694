"""The router baseline's row of an evaluation, and the expected-reward oracle's.

`toolscale-train evaluate` plays every route each task admits (`trainer.reference_routes`);
this module adds two rows from those very attempts:

- `router baseline`: the light router (`trainer.router`) trained on the `tasks` rows of the
  training side of the split (`--heldout_fraction`; with `--split all`, every row of the dataset,
  so the row is in-sample and `about["router"]` says so), which sees what a policy sees, chooses
  a route per evaluated task, and that route's attempt is judged like any row (a route the task
  does not admit is the declined attempt, as for a fixed route);
- `expected oracle`: each task's `expected_route` (the best by expected reward, what a policy can
  know to be best), played the same way.

The router is the first row a trained orchestrator must beat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trainer import router, split
from trainer.reference_routes import PlayedTask
from trainer.table import Scored

ROUTER = "router baseline"
EXPECTED = "expected oracle"


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


def router_attempts(
    train: Sequence[Mapping[str, Any]],
    evaluated: Sequence[Mapping[str, Any]],
    played: Sequence[PlayedTask],
) -> tuple[dict[str, list[Scored]], dict[str, Any]]:
    """The router baseline's and the expected oracle's attempts at the evaluated tasks (rows in
    the order of `played`), and what the router was trained on."""
    routers = router.fit_by_domain(train)
    chosen = router.route_by_domain(routers, evaluated)
    seen = {r["id"] for r in train}
    about = {
        "training_tasks": sum(1 for r in train if r.get("route_table")),
        "domains": sorted(routers),
        "in_sample": sum(r["id"] in seen for r in evaluated),
    }
    attempts = {
        ROUTER: [_attempt(p, name) for p, name in zip(played, chosen, strict=True)],
        EXPECTED: [_attempt(p, p.task.expected_route or None, True) for p in played],
    }
    return attempts, about
