"""Is routing worth learning: per domain, the share of tasks each route is the oracle route on,
and the mean reward of each fixed route relative to the oracle's, from the tasks' route tables.

A fixed route is a policy that always plays the same kind of route, whatever the task: "always
calculator", "always expert-1" (its route on every task; a task that does not admit it scores 0,
as a wrong answer would, slightly generously), "always cheapest" / "always dearest" (the candidate
route with the lowest / highest total cost on each task, right or wrong; "mistakes included" also
counts the detours, e.g. a calculator shortcut on a program problem). Rewards are the
`reward_total` of the route tables (`toolscale.sample.oracle`), the gold route being the oracle.
Used by the data card and by `benchmarks/routing_economy.py`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# (label, pick among the candidates by total cost, detours included)
_BY_COST = (
    ("always cheapest", min, False),
    ("always dearest", max, False),
    ("always cheapest, mistakes included", min, True),
)
POLICIES = tuple(label for label, _, _ in _BY_COST)  # the fixed routes that are no one route


@dataclass(frozen=True)
class Routing:
    """One domain's routing economy over its tasks that have a route table."""

    domain: str
    tasks: int
    oracle_mean: float
    best: dict[str, int]  # route -> tasks it is the oracle on, most first
    fixed: dict[str, float]  # policy -> mean reward_total over all the tasks, best first

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
        found.append(
            Routing(domain, len(rows), oracle, dict(best.most_common()), fixed_routes(rows))
        )
    return found
