"""READ chains that identify a record from what the caller knows, played as a gold path.

A `Plan` is one task's gold path under construction: a `GoldRunner` on a copy of the world, what
the caller gives when asked (`known`) or says unasked (`stated`), and what its calls returned.
The ids a look-up finds are never required facts (`toolscale.kit.shots.held`). `identify`
reaches a record either through one of its finders (its id, a customer's email or phone, a
restaurant's name) or through its owner: identify the owner, list its records, pick the one the
caller describes; it never makes the same call twice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from toolscale.core.contract import Toolkit, canonical_json
from toolscale.kit.declare import Entity, Record
from toolscale.kit.gold import GoldRunner
from toolscale.kit.graph import Lister, ToolGraph


@dataclass
class Plan:
    """A gold path under construction (see the module docstring)."""

    run: GoldRunner
    known: dict[str, str] = field(default_factory=dict)
    stated: dict[str, str] = field(default_factory=dict)
    outputs: list[Any] = field(default_factory=list)
    identified: set[tuple[str, str]] = field(default_factory=set)
    made: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def on(cls, toolkit: type[Toolkit], world: Record) -> Plan:
        return cls(GoldRunner(toolkit, world))

    def call(self, tool: str, /, **arguments: Any) -> Any:
        """Run `tool` (once: a call made before returns its first result again)."""
        key = canonical_json([tool, arguments])
        if key not in self.made:
            self.made[key] = self.run(tool, **arguments)
            self.outputs.append(self.made[key])
        return self.made[key]

    def do(self, tool: str, /, **arguments: Any) -> Any:
        """Run `tool` (a write, or the goal's own call) whatever was called before."""
        output = self.run(tool, **arguments)
        self.outputs.append(output)
        return output

    @property
    def actions(self) -> int:
        return len(self.run.actions)


def children(world: Record, entity: Entity, owner_id: str) -> list[Record]:
    """The records of `entity` that the owner with id `owner_id` owns, in table order."""
    return [r for r in world[entity.table].values() if r[entity.owner_key] == owner_id]


def twins(world: Record, entity: Entity, record: Record) -> list[Record]:
    """The other records of `record`'s owner that an imprecise description of it also fits."""
    if not (entity.owner and entity.alike and entity.tell):
        return []
    return [
        other
        for other in children(world, entity, record[entity.owner_key])
        if other[entity.key] != record[entity.key]
        and entity.alike(other) == entity.alike(record)
        and other[entity.tell] != record[entity.tell]
    ]


def _unique(world: Record, entity: Entity, record: Record) -> bool:
    """Whether the precise description singles `record` out among its owner's records."""
    if entity.alike is None:
        return False
    mark = (entity.alike(record), record.get(entity.tell))
    return not any(
        (entity.alike(o), o.get(entity.tell)) == mark
        for o in children(world, entity, record[entity.owner_key])
        if o[entity.key] != record[entity.key]
    )


def _listed(plan: Plan, lister: Lister, owner_id: str) -> bool:
    """Whether `plan` has already listed the records of the owner with id `owner_id`."""
    return canonical_json([lister.tool, {lister.param: owner_id}]) in plan.made


def identify(
    plan: Plan,
    graph: ToolGraph,
    rng: random.Random,
    name: str,
    record: Record,
    via_owner: bool = False,
) -> bool:
    """Add the READ calls that identify `record` (an `name` entity) to `plan`; False when no way
    the caller could single it out exists. `via_owner` forces the owner route (a clarification)."""
    entity = graph.entities[name]
    world = plan.run.state
    if (name, record[entity.key]) in plan.identified:
        return True
    lister = graph.listers.get(name)
    owner_route = lister is not None and (via_owner or _unique(world, entity, record))
    if (
        lister is not None
        and owner_route
        and not via_owner
        and _listed(plan, lister, record[entity.owner_key])
    ):
        plan.identified.add((name, record[entity.key]))
        return True
    routes: list[Any] = [] if via_owner else list(graph.finders[name])
    if owner_route:
        routes += ["owner"] * max(1, len(routes))  # the longer chain, as often as the others
    if not routes:
        return False
    route = rng.choice(routes)
    if route == "owner":
        assert lister is not None
        owner = graph.entities[entity.owner]
        owner_record = world[owner.table][record[entity.owner_key]]
        if not identify(plan, graph, rng, owner.name, owner_record):
            return False
        plan.call(lister.tool, **{lister.param: owner_record[owner.key]})
    else:
        value = record[route.by]
        target = plan.stated if route.by in entity.said else plan.known
        target[entity.label(route.by)] = str(value)
        output = plan.call(route.tool, **{route.param: value})
        if (
            isinstance(output, dict)
            and output.get(entity.key, record[entity.key]) != record[entity.key]
        ):
            return False  # the finder found another record with that value
    plan.identified.add((name, record[entity.key]))
    return True
