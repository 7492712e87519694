"""READ chains that identify a record from what the caller knows, played as a gold path.

A `Plan` is one task's gold path under construction: a `GoldRunner` on a copy of the world, what
the caller gives when asked (`known`) or says unasked (`stated`), and what its calls returned.
The ids a look-up finds are never required facts (`toolscale.kit.shots.held`). `identify`
reaches a record either through one of its finders (its id, a customer's email or phone, a
restaurant's name) or through its owner: identify the owner, list its records, pick the one the
caller describes; it never makes the same call twice.

A domain's identification rule (`Identification`, declared once on the domain) says whose
profile the policy has the agent find before acting, by which of its fields, and which records'
own ids the policy accepts instead (a railway booking's id): `identify` then finds that person
(or an accepted record above the one wanted) first, by an accepted field, and a caller detail
holds one value per task (a second record of one kind is found through its owner, or not at
all). check-domain reads the same rule (`toolscale.check.identification`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from toolscale.core.contract import Toolkit, canonical_json
from toolscale.kit.declare import Entity, Record
from toolscale.kit.gold import GoldRunner
from toolscale.kit.graph import Finder, Lister, ToolGraph
from toolscale.kit.sampling import KitError


@dataclass(frozen=True)
class Identification:
    """A domain's identification rule: the agent finds the `person` entity's record (the
    caller's profile) by one of the fields `by` before acting on any record it owns, unless it
    finds one of its `records` (entities whose own id the policy accepts) above that record."""

    person: str
    by: tuple[str, ...]
    records: tuple[str, ...] = ()

    def check(self, graph: ToolGraph) -> None:
        """Raise KitError when the rule names an entity or field no finder serves."""
        for name in (self.person, *self.records):
            if name not in graph.entities:
                raise KitError(f"identification: {name!r} is not an entity")
        found = {f.by for f in graph.finders[self.person]}
        for by in self.by:
            if by not in found:
                raise KitError(f"identification: no tool finds a {self.person} by {by!r}")

    def anchor(self, graph: ToolGraph, name: str) -> str | None:
        """The entity above `name` (its owner, or one higher) the agent must identify first:
        the nearest accepted record, else the person; None when `name` is the person, an
        accepted record, or no record of the person."""
        if name == self.person or name in self.records or graph.root(name) != self.person:
            return None
        entity = graph.entities[name]
        while entity.owner:
            if entity.owner in self.records or entity.owner == self.person:
                return entity.owner
            entity = graph.entities[entity.owner]
        return None


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


def unique(world: Record, entity: Entity, record: Record) -> bool:
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
    rule: Identification | None = None,
) -> bool:
    """Add the READ calls that identify `record` (an `name` entity) to `plan`; False when no way
    the caller could single it out exists. `via_owner` forces the owner route (a clarification);
    `rule` is the domain's identification rule (see the module docstring)."""
    entity = graph.entities[name]
    world = plan.run.state
    if (name, record[entity.key]) in plan.identified:
        return True
    anchor = rule.anchor(graph, name) if rule else None
    if anchor is not None and not identify(
        plan, graph, rng, anchor, _above(graph, world, name, record, anchor), rule=rule
    ):
        return False
    lister = graph.listers.get(name)
    owner_route = lister is not None and (via_owner or unique(world, entity, record))
    if (
        lister is not None
        and owner_route
        and not via_owner
        and _listed(plan, lister, record[entity.owner_key])
    ):
        plan.identified.add((name, record[entity.key]))
        return True
    routes: list[Any] = (
        []
        if via_owner
        else [f for f in graph.finders[name] if _may_find(plan, entity, record, f, rule)]
    )
    if owner_route:
        routes += ["owner"] * max(1, len(routes))  # the longer chain, as often as the others
    if not routes:
        return False
    route = rng.choice(routes)
    if route == "owner":
        assert lister is not None
        owner = graph.entities[entity.owner]
        owner_record = world[owner.table][record[entity.owner_key]]
        if not identify(plan, graph, rng, owner.name, owner_record, rule=rule):
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


def _above(graph: ToolGraph, world: Record, name: str, record: Record, anchor: str) -> Record:
    """The `anchor` record above `record` (an `name` record), up its chain of owners."""
    entity = graph.entities[name]
    while entity.name != anchor:
        assert entity.owner is not None
        record = world[graph.entities[entity.owner].table][record[entity.owner_key]]
        entity = graph.entities[entity.owner]
    return record


def _may_find(
    plan: Plan, entity: Entity, record: Record, finder: Finder, rule: Identification | None
) -> bool:
    """Whether `finder` may find `record`: the caller holds one value of each detail (a second
    record of one kind is not found by a second id), and the person by an accepted field."""
    if rule is not None and entity.name == rule.person and finder.by not in rule.by:
        return False
    held = {**plan.known, **plan.stated}.get(entity.label(finder.by))
    return held is None or held == str(record[finder.by])
