"""The tool graph of a stateful domain: which READ tools find or list which entities, which
policy errors each tool raises, read from the links on its Toolkit (`toolscale.kit.declare`).

Built once per domain class; a link that names an unknown entity or field, or sits on a tool
of the wrong kind, is a `KitError` when the domain's class is created (a bug in its declaration).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from toolscale.core.contract import ToolKind, Toolkit
from toolscale.kit.declare import Entity, Goal, Link, PolicyError
from toolscale.kit.sampling import KitError


@dataclass(frozen=True)
class Finder:
    """READ tool `tool(param=record[by])` returns the `entity` record."""

    tool: str
    param: str
    entity: str
    by: str


@dataclass(frozen=True)
class Lister:
    """READ tool `tool(param=owner id)` lists the `entity` records the owner `of` owns."""

    tool: str
    param: str
    entity: str
    of: str


def _param(toolkit: type[Toolkit], name: str) -> str:
    params = [p for p in inspect.signature(getattr(toolkit, name)).parameters if p != "self"]
    if len(params) != 1:
        raise KitError(f"tool {name}: a finder or lister takes exactly one parameter")
    return params[0]


class ToolGraph:
    """The links of `toolkit`'s tools over `entities`."""

    def __init__(self, toolkit: type[Toolkit], entities: tuple[Entity, ...]) -> None:
        self.toolkit = toolkit
        self.specs = toolkit.specs()
        self.entities = {e.name: e for e in entities}
        self.finders: dict[str, list[Finder]] = {e.name: [] for e in entities}
        self.listers: dict[str, Lister] = {}
        self.raises: dict[str, tuple[type[PolicyError], ...]] = {}
        for entity in entities:
            if entity.owner and entity.owner not in self.entities:
                raise KitError(f"entity {entity.name}: owner {entity.owner!r} is not an entity")
        for name in self.specs:
            link: Link | None = getattr(getattr(toolkit, name), "__toolscale_link__", None)
            if link is not None:
                self._add(name, link)

    def _add(self, name: str, link: Link) -> None:
        self.raises[name] = link.raises
        if not link.gives:
            return
        if link.gives not in self.entities:
            raise KitError(f"tool {name}: links to {link.gives!r}, which is not an entity")
        if self.specs[name].kind is not ToolKind.READ:
            raise KitError(f"tool {name}: only a READ tool finds or lists records")
        if link.of:
            if self.entities[link.gives].owner != link.of:
                raise KitError(f"tool {name}: {link.gives} records are not owned by {link.of}")
            self.listers[link.gives] = Lister(name, _param(self.toolkit, name), link.gives, link.of)
        else:
            finder = Finder(name, _param(self.toolkit, name), link.gives, link.by)
            self.finders[link.gives].append(finder)

    def kind(self, tool: str) -> ToolKind:
        return self.specs[tool].kind

    def check_goal(self, goal: Goal) -> None:
        """Raise KitError for a goal that names an unknown tool or entity."""
        for tool in [goal.tool, *(step for step, _ in goal.before)]:
            if tool not in self.specs:
                raise KitError(f"goal {goal.name}: {tool!r} is not a tool of the toolkit")
        for step, _ in goal.before:
            if self.kind(step) is not ToolKind.READ:
                raise KitError(f"goal {goal.name}: before-call {step} is not a READ tool")
        for need in goal.needs:
            if need not in self.entities:
                raise KitError(f"goal {goal.name}: needs {need!r}, which is not an entity")
            if not self.finders[need] and need not in self.listers:
                raise KitError(f"goal {goal.name}: no tool finds or lists {need} records")

    def root(self, entity: str) -> str:
        """The entity at the top of `entity`'s owners (itself when it has none)."""
        while self.entities[entity].owner:
            entity = self.entities[entity].owner
        return entity
