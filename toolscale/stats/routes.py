"""Is routing worth learning: per domain, the share of tasks each route is the oracle route on,
and the mean reward of each fixed route relative to the oracle's, from the tasks' route tables.

A fixed route is a policy that always plays the same kind of route, whatever the task: "always
calculator", "always expert-1" (its route on every task; a task that does not admit it scores 0,
as a wrong answer would, slightly generously), "always cheapest" / "always dearest" (the candidate
route with the lowest / highest total cost on each task, right or wrong; "mistakes included" also
counts the detours, e.g. a calculator shortcut on a program problem). Rewards are the
`reward_total` of the route tables (`toolscale.oracle.played`), the gold route being the oracle.
The expected-reward oracle (`expected_route`, the best route by expected reward: what a policy
can know) is counted the same way, its mean being its route's played reward; `differ` counts the
tasks where it is not the oracle route. Used by the data card and by
`benchmarks/routing_economy.py`. `route_class` names the route a
list of calls took (a trained policy's rollout, an oracle route) in the same terms.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

NO_TOOL = "no_tool"  # the class of a route that calls nothing (answers at once)
_ALIAS = re.compile(r"[\w.-]{1,40}")  # what counts as an expert alias in a class name

# (label, pick among the candidates by total cost, detours included)
_BY_COST = (
    ("always cheapest", min, False),
    ("always dearest", max, False),
    ("always cheapest, mistakes included", min, True),
)
POLICIES = tuple(label for label, _, _ in _BY_COST)  # the fixed routes that are no one route


def route_class(calls: Iterable[tuple[str, Any]]) -> str:
    """The class of a route from its `(name, arguments)` calls (arguments a dict or JSON text):
    the tools in the order first called, a call to an expert (`ask_expert`, or `answer`, which
    hands it the question) named by its expert, joined by "+".

    The orchestration domains name their routes so: searches then a calculator give
    "search+calculator", one question to expert-3 gives "expert-3", two questions to expert-3 and
    expert-1 "expert-3+expert-1"; a stateful task's find_booking, find_booking, cancel_booking
    give "find_booking+cancel_booking"; no call gives "no_tool". A retry (calculator, calculator)
    is in the class of the route it retries ("calculator").
    """
    seen: list[str] = []
    for name, arguments in calls:
        if name in ("ask_expert", "answer"):
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments)
                except ValueError:
                    arguments = {}
            alias = arguments.get("expert") if isinstance(arguments, dict) else None
            if isinstance(alias, str) and _ALIAS.fullmatch(alias):
                name = alias
        if name not in seen:
            seen.append(name)
    return "+".join(seen) or NO_TOOL


@dataclass(frozen=True)
class Routing:
    """One domain's routing economy over its tasks that have a route table."""

    domain: str
    tasks: int
    oracle_mean: float
    best: dict[str, int]  # route -> tasks it is the oracle on, most first
    fixed: dict[str, float]  # policy -> mean reward_total over all the tasks, best first
    # The expected-reward oracle (`expected_route`): route -> tasks it is that on, the mean
    # played reward_total of the expected route, and on how many tasks it is not the oracle's.
    expected: dict[str, int] = field(default_factory=dict)
    expected_mean: float | None = None
    differ: int = 0

    def expected_share(self, route: str) -> float:
        return self.expected.get(route, 0) / self.tasks

    def share(self, route: str) -> float:
        return self.best.get(route, 0) / self.tasks

    def of_oracle(self, policy: str) -> float | None:
        """The policy's mean reward as a share of the oracle's (None when the oracle's is 0)."""
        return self.fixed[policy] / self.oracle_mean if self.oracle_mean else None


def fixed_routes(rows: list[Mapping[str, Any]]) -> dict[str, float]:
    """Mean reward_total of each fixed route over `rows` (tasks with a route table), best first.

    Example: two tasks, A {calculator 1.0, expert-1 0.5 (dearer)} and B {expert-1 0.8}: always
    calculator 0.5, always expert-1 0.65, always cheapest (A: calculator, B: expert-1) 0.9,
    always dearest (A: expert-1, B: expert-1) 0.65.
    """
    n = len(rows)
    names = sorted({s["name"] for r in rows for s in r["route_table"] if not s["detour"]})
    found = {}
    for name in names:
        total = sum(
            next((s["reward_total"] for s in r["route_table"] if s["name"] == name), 0.0)
            for r in rows
        )
        found[f"always {name}"] = total / n
    for label, pick, detours in _BY_COST:
        total = 0.0
        for r in rows:
            candidates = [s for s in r["route_table"] if detours or not s["detour"]]
            total += pick(candidates, key=lambda s: s["total_cost"])["reward_total"]
        found[label] = total / n
    return dict(sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))


def routing(tasks: Iterable[Mapping[str, Any]]) -> list[Routing]:
    """Per domain (sorted), the routing economy of the tasks that carry an oracle route."""
    by_domain: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for task in tasks:
        if task.get("oracle_route") and len(task.get("route_table", ())):
            by_domain[task["domain"]].append(task)
    found = []
    for domain, rows in sorted(by_domain.items()):
        best = Counter(r["oracle_route"] for r in rows)
        oracle = sum(float(r["oracle_reward"]) for r in rows) / len(rows)
        hoped = [r for r in rows if r.get("expected_route")]
        expected = Counter(r["expected_route"] for r in hoped)
        mean = (
            sum(played_reward(r, r["expected_route"]) for r in hoped) / len(hoped)
            if hoped
            else None
        )
        differ = sum(r["expected_route"] != r["oracle_route"] for r in hoped)
        found.append(
            Routing(
                domain,
                len(rows),
                oracle,
                dict(best.most_common()),
                fixed_routes(rows),
                dict(expected.most_common()),
                mean,
                differ,
            )
        )
    return found


def played_reward(row: Mapping[str, Any], route: str) -> float:
    """The played reward_total of `route` at a task (0 where the task does not admit it)."""
    return next((float(s["reward_total"]) for s in row["route_table"] if s["name"] == route), 0.0)
