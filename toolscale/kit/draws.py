"""Draw the records and arguments of one goal from the world (toolscale.kit.compose).

`records_for` picks a record for each entity the goal needs (among its owner's records when the
owner is already drawn, and among the records of an owner higher up when that one is) and adds
the owners they imply; `draw_for` adds the goal's values and
arguments (the goal's `args`, or by parameter name: `ToolGraph.arguments`) and classifies the
draw by the policy check: the draw is kept when the check passes (`want` None) or when `want` is
its one reason to refuse (a refusal: the check raises `want`, and, checked on past it with
`toolscale.kit.broken_rules`, breaks no other rule and meets no other refusal; a draw with two
reasons is drawn again). A goal without a check keeps every draw; the composer then lets the
tool itself decide, on the task's scratch copy.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from toolscale.kit.broken_rules import reasons
from toolscale.kit.declare import Draw, Goal, PolicyError, Record
from toolscale.kit.graph import ToolGraph
from toolscale.kit.identify import children


def records_for(
    graph: ToolGraph, goal: Goal, rng: random.Random, world: Record, base: dict[str, Record]
) -> dict[str, Record] | None:
    records = dict(base)
    for need in goal.needed:
        if need not in records:
            entity = graph.entities[need]
            if entity.owner in records:
                owner = records[entity.owner][graph.entities[entity.owner].key]
                pool = children(world, entity, owner)
            else:
                pool = list(world[entity.table].values())
                if any(owner in records for owner in _owners(graph, need)):
                    # a higher owner is drawn already (one caller's two goals): keep to it
                    pool = [r for r in pool if _owned_by_drawn(graph, world, records, need, r)]
            if not pool:
                return None
            records[need] = rng.choice(pool)
        entity = graph.entities[need]
        while entity.owner and entity.owner not in records:
            owner_entity = graph.entities[entity.owner]
            owner_id = records[entity.name][entity.owner_key]
            records[entity.owner] = world[owner_entity.table][owner_id]
            entity = owner_entity
    return records


def _owners(graph: ToolGraph, name: str) -> list[str]:
    """The entities above `name`, its owner first."""
    found, entity = [], graph.entities[name]
    while entity.owner:
        found.append(entity.owner)
        entity = graph.entities[entity.owner]
    return found


def _owned_by_drawn(
    graph: ToolGraph, world: Record, records: dict[str, Record], name: str, record: Record
) -> bool:
    """Whether every owner of `record` (an `name` record) up its chain that is drawn already is
    the drawn one: a school's invoice is drawn among the caller's children's invoices once the
    caller is."""
    entity = graph.entities[name]
    while entity.owner:
        owner = graph.entities[entity.owner]
        owner_id = record[entity.owner_key]
        if owner.name in records and records[owner.name][owner.key] != owner_id:
            return False
        record, entity = world[owner.table][owner_id], owner
    return True


def draw_for(
    graph: ToolGraph,
    goal: Goal,
    rng: random.Random,
    world: Record,
    want: type[PolicyError] | None = None,
    base: dict[str, Record] | None = None,
    test: Callable[[Draw], bool] | None = None,
) -> tuple[Draw, PolicyError | None] | None:
    records = records_for(graph, goal, rng, world, base or {})
    if records is None:
        return None
    draw = Draw(rng, world, records)
    if (goal.when and not goal.when(draw)) or (test and not test(draw)):
        return None
    draw.extra = goal.extra(draw) if goal.extra else {}
    draw.args = goal.args(draw) if goal.args else graph.arguments(goal, goal.tool, draw)
    if goal.check is None:
        return draw, None
    error = None
    try:
        goal.check(world, **draw.args)
    except PolicyError as exc:
        error = exc
    if want is None:
        return (draw, None) if error is None else None
    if type(error) is not want:
        return None
    check = goal.check
    return (draw, error) if reasons(lambda: check(world, **draw.args)).only() else None
