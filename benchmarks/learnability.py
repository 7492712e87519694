"""Can a light router learn the routing decision? The learnability table of a generate output.

Per domain, the tasks are split in two content-disjoint halves (`trainer.split`, half held out);
everything is trained on the first and scored on the second, by the played `reward_total` of the
route chosen at each task (its route table; a route the task lacks scores 0, as for a fixed
route). Rows:

- oracle: each task's `oracle_route` (ex post: it knows which expert happened to be right);
- expected-reward oracle: each task's `expected_route` (the best by expected reward, what a
  policy can know from what it sees; n/a on outputs made before it existed);
- best fixed route: the fixed route (`toolscale.stats.routes.fixed_routes`) best on the half;
- router baseline: `trainer.router`, trained on the first half's expected rewards (played rewards
  on older outputs), seeing the instruction, price table, tool list and preference sentence;
- class router by template: per template, the route with the best mean reward on the first half;
- class router by template + preference + prices: the same per (template, profile, forbidden
  tool, stated budget, price table), falling back to the template's route for a cell the first
  half lacks.

Each as mean reward and share of the expected-reward oracle (of the oracle where there is none).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolscale.stats.routes import fixed_routes, played_reward
from trainer import router
from trainer.split import content_key, held_out

Row = Mapping[str, Any]
ROWS = (
    "oracle",
    "expected-reward oracle",
    "best fixed route",
    "router baseline",
    "class router: template",
    "class router: template + preference + prices",
)


def halves(rows: Sequence[Row]) -> tuple[list[Row], list[Row]]:
    """(training half, scored half): content-disjoint, by a hash of each task's content."""
    train = [r for r in rows if not held_out(content_key(r), 0.5)]
    return train, [r for r in rows if held_out(content_key(r), 0.5)]


def template_cell(row: Row) -> tuple[Any, ...]:
    return (row["template"],)


def full_cell(row: Row) -> tuple[Any, ...]:
    """The template, the preference as the user stated it, and the price table."""
    p = json.loads(row["preference"]) if isinstance(row["preference"], str) else row["preference"]
    budget = (p.get("max_cost"), p.get("max_latency_ms")) if p.get("budget_stated") else None
    return (row["template"], p["profile"], tuple(p["forbidden_tools"]), budget, row["prices"])


def class_router(
    train: Sequence[Row], cell: Callable[[Row], tuple[Any, ...]]
) -> Callable[[Row], str]:
    """Per cell of the training rows, the route with the best mean played reward; a cell they
    lack takes its template's."""
    names = router.route_names(train)
    totals: dict[tuple[Any, ...], Counter[str]] = defaultdict(Counter)
    for row in train:
        for key in {template_cell(row), cell(row)}:
            for name in names:
                totals[key][name] += played_reward(row, name)

    def pick(row: Row) -> str:
        found = totals.get(cell(row)) or totals.get(template_cell(row)) or Counter()
        return max(names, key=lambda n: (found[n], n)) if names else ""

    return pick


def mode_differs(rows: Sequence[Row]) -> float:
    """The share of tasks whose expected route is not their template's most common one."""
    by_template: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        by_template[row["template"]][row["expected_route"]] += 1
    mode = {t: c.most_common(1)[0][0] for t, c in by_template.items()}
    return sum(r["expected_route"] != mode[r["template"]] for r in rows) / len(rows)


def table(rows: Sequence[Row]) -> dict[str, float | None]:
    """One domain's learnability rows (see the module docstring): mean reward of each."""
    train, scored = halves(rows)

    def mean(chosen: Sequence[str]) -> float:
        return sum(played_reward(r, c) for r, c in zip(scored, chosen, strict=True)) / len(scored)

    hoped = all(r.get("expected_route") for r in scored)
    fixed = fixed_routes(list(scored))
    return {
        "oracle": sum(float(r["oracle_reward"]) for r in scored) / len(scored),
        "expected-reward oracle": mean([r["expected_route"] for r in scored]) if hoped else None,
        "best fixed route": max(fixed.values()),
        "router baseline": mean(router.fit(train).choose(scored)),
        "class router: template": mean([class_router(train, template_cell)(r) for r in scored]),
        "class router: template + preference + prices": mean(
            [class_router(train, full_cell)(r) for r in scored]
        ),
    }


def shares(found: Mapping[str, float | None]) -> dict[str, float | None]:
    """Each row over the expected-reward oracle (over the oracle where there is none)."""
    base = found["expected-reward oracle"] or found["oracle"]
    return {k: None if v is None or not base else v / base for k, v in found.items()}
