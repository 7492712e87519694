"""The competence-and-cost router: how often each route is right on each kind of task, learnt from
a few dozen training tasks, weighed against what the route costs under the task's own prices and
preference; it takes the route of best expected reward (SkillOrchestra's idea, arXiv 2602.19672:
a skill handbook of each agent's competence and cost, then the best trade-off per query).

Competence. A task's skill is its (domain, template, difficulty). From the route tables of the
training tasks it reads (`fit`: at most `n` of them, drawn across domains by `stratified`), the
chance that route R is right at a skill is the share of those tasks where R, played, was
verified, shrunk towards the route's share at the coarser skill by `PRIOR` pseudo-tasks, down to
the route's share over every task, itself shrunk towards 1/2:

    p(R)                  = (right(R) + PRIOR * 0.5)                 / (n(R) + PRIOR)
    p(R | domain)         = (right(R, d) + PRIOR * p(R))             / (n(R, d) + PRIOR)
    p(R | ..., template)  = (right(R, d, t) + PRIOR * p(R | d))      / (n(R, d, t) + PRIOR)
    p(R | ..., difficulty)= (right(R, d, t, k) + PRIOR * p(R | d, t)) / (n(R, d, t, k) + PRIOR)

Worked example, PRIOR 2: calculator right on 3 of 4 tasks, all of one domain and template, 1 of
2 at difficulty hard: p(R) = (3 + 1) / 6 = 2/3; p(R | d) = (3 + 4/3) / 6 = 13/18; p(R | d, t) =
(3 + 13/9) / 6 = 20/27; p(R | d, t, hard) = (1 + 40/27) / 4 = 67/108 ~ 0.620.

Cost. At the task routed, each route it admits is played in the sandbox with the reference rows
(`trainer.reference_routes`), so its calls are priced by the task's own price table and its
reward is judged twice by the Rubric, as if right and as if wrong (the preference's constraints,
cost, latency and calls are the same either way): `PlayedTask.judged`. The route's expected
reward is p x (reward if right) + (1 - p) x (reward if wrong); the router takes the best, ties
to fewer calls, lower cost, then the name. It never reads whether a route was right at the task
it routes, nor the task's stored labels: only the prices and preference a policy sees and the
competence it learnt.

Against the router baseline (`trainer.router`, which learns the expected reward itself from every
training task's text) it is the handbook approach: few tasks, and an explicit price model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trainer.selection import stratified

PRIOR = 2.0  # pseudo-tasks pulling a sparse skill's share towards its coarser skill's
NAME = "competence router"
DEFAULT_TASKS = 48  # "a few dozen" training tasks


def skills(row: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """The skill levels of a task, coarsest first: (), (domain,), (domain, template),
    (domain, template, difficulty)."""
    keys = (str(row["domain"]), str(row["template"]), str(row["difficulty"]))
    return tuple(keys[:i] for i in range(len(keys) + 1))


@dataclass(frozen=True)
class Competence:
    """Each route's (right, played) counts at each skill level of the training tasks read."""

    right: Mapping[tuple[str, tuple[str, ...]], int]
    played: Mapping[tuple[str, tuple[str, ...]], int]
    tasks: int

    def p_right(self, route: str, row: Mapping[str, Any]) -> float:
        """The chance that `route` is right at the task `row` (see the module docstring)."""
        p = 0.5
        for level in skills(row):
            key = (route, level)
            p = (self.right.get(key, 0) + PRIOR * p) / (self.played.get(key, 0) + PRIOR)
        return p


def fit(rows: Sequence[Mapping[str, Any]], n: int = DEFAULT_TASKS) -> Competence:
    """The competence learnt from at most `n` of `rows` (training tasks; those without a route
    table are skipped), drawn across domains: each non-detour route's verdict as played."""
    found = [r for r in rows if r.get("route_table")]
    if n < len(found):
        found = [found[i] for i in stratified([r["domain"] for r in found],
                                              [r["id"] for r in found], n)]  # fmt: skip
    right: Counter[tuple[str, tuple[str, ...]]] = Counter()
    played: Counter[tuple[str, tuple[str, ...]]] = Counter()
    for row in found:
        for score in row["route_table"]:
            if score["detour"]:
                continue
            for level in skills(row):
                played[(score["name"], level)] += 1
                right[(score["name"], level)] += bool(score["verified"])
    return Competence(dict(right), dict(played), len(found))


@dataclass(frozen=True)
class Option:
    """A route a task admits, as the router weighs it: its reward if right and if wrong under the
    task's prices and preference, its calls and cost."""

    name: str
    if_right: float
    if_wrong: float
    calls: int
    cost: float


def choose(competence: Competence, row: Mapping[str, Any], options: Sequence[Option]) -> str | None:
    """The option of best expected reward at the task `row` (None when it admits none).

    >>> c = Competence({("a", ()): 1, ("b", ()): 3}, {("a", ()): 4, ("b", ()): 4}, 4)
    >>> row = {"domain": "math", "template": "sum", "difficulty": "easy"}
    >>> choose(c, row, [Option("a", 1.0, 0.0, 1, 0.1), Option("b", 0.8, -0.1, 1, 0.2)])
    'b'

    (p(a) = 2/6 = 1/3 at every level, expecting 1/3; p(b) = 4/6 = 2/3, expecting 2/3 x 0.8 -
    1/3 x 0.1 = 0.5.)
    """
    if not options:
        return None

    def expected(o: Option) -> float:
        p = competence.p_right(o.name, row)
        return p * o.if_right + (1.0 - p) * o.if_wrong

    return min(options, key=lambda o: (-expected(o), o.calls, o.cost, o.name)).name
