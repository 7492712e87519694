"""The tool graph of a stateful domain: which READ tools find or list which entities, which
policy errors each tool raises, read from the links on its Toolkit (`toolscale.kit.declare`).

Built once per domain class; a link that names an unknown entity or field, or sits on a tool
of the wrong kind, is a `KitError` when the domain's class is created (a bug in its declaration).
`arguments` fills a tool's arguments from a draw by parameter name (a goal's default `args`).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, replace
from typing import Any

from toolscale.core.contract import ToolKind, Toolkit
from toolscale.kit.declare import Draw, Entity, Goal, Link, PolicyError, Step
from toolscale.kit.sampling import KitError

HANDOFF = "transfer_to_human_agents"


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
    """The one parameter a finder or lister needs (others must have defaults: a page size)."""
    signature = inspect.signature(getattr(toolkit, name)).parameters.values()
    params = [p.name for p in signature if p.name != "self" and p.default is p.empty]
    if len(params) != 1:
        raise KitError(f"tool {name}: a finder or lister takes exactly one required parameter")
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

    def filled(self, goal: Goal) -> Goal:
        """`goal` with its default `needs`: the entities whose key is one of its tool's
        parameters, in the tool's order (none for a tool that takes no record's key)."""
        if goal.needs is not None or goal.tool not in self.specs:
            return goal
        keys = {e.key: e.name for e in self.entities.values()}
        params = inspect.signature(getattr(self.toolkit, goal.tool)).parameters
        return replace(goal, needs=tuple(keys[p] for p in params if p in keys))

    def check_goal(self, goal: Goal) -> None:
        """Raise KitError for a goal that names an unknown tool or entity, or says nothing."""
        if not goal.words or not goal.done:
            raise KitError(f"goal {goal.name}: give its wordings (words) and final message (done)")
        steps = [step_tool(step) for step in goal.before]
        for tool in [goal.tool, *steps]:
            if tool not in self.specs:
                raise KitError(f"goal {goal.name}: {tool!r} is not a tool of the toolkit")
        for step in steps:
            if self.kind(step) is not ToolKind.READ:
                raise KitError(f"goal {goal.name}: before-call {step} is not a READ tool")
        for need in goal.needed:
            if need not in self.entities:
                raise KitError(f"goal {goal.name}: needs {need!r}, which is not an entity")
            if not self.finders[need] and need not in self.listers:
                raise KitError(f"goal {goal.name}: no tool finds or lists {need} records")

    def root(self, entity: str) -> str:
        """The entity at the top of `entity`'s owners (itself when it has none)."""
        while self.entities[entity].owner:
            entity = self.entities[entity].owner
        return entity

    def arguments(self, goal: Goal, tool: str, draw: Draw, first: bool = False) -> dict[str, Any]:
        """`tool`'s arguments filled by parameter name: from the goal's arguments (`first`: a
        `before` call), its extra values, then the first drawn record with that field; a
        parameter with a default may go unfilled. A hand-off's summary names the goal."""
        if tool == HANDOFF:
            ids = ", ".join(
                f"{n.replace('_', ' ')} {r[self.entities[n].key]}"
                for n, r in draw.records.items()
                if n in goal.needed
            )
            return {"summary": f"{goal.name.replace('_', ' ')}: {ids or 'no record'}"}
        sources = [draw.args, draw.extra] if first else [draw.extra]
        sources += list(draw.records.values())
        filled: dict[str, Any] = {}
        for name, param in inspect.signature(getattr(self.toolkit, tool)).parameters.items():
            if name == "self":
                continue
            source = next((s for s in sources if name in s), None)
            if source is not None:
                filled[name] = source[name]
            elif param.default is inspect.Parameter.empty:
                raise KitError(
                    f"goal {goal.name}: no drawn record or extra value gives {tool}'s argument "
                    f"{name!r}: write the goal's args (or extra)"
                )
        return filled


def step_tool(step: Step | str) -> str:
    """The tool of a goal's `before` entry (a tool name, or (tool, args))."""
    return step if isinstance(step, str) else step[0]
