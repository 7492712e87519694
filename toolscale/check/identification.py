"""Whether a task's gold route identifies the caller the way its policy allows, from what the
caller holds.

A domain on the kit declares its identification rule once (`StatefulDomain.identification`,
`toolscale.kit.identify.Identification`): whose profile the agent finds before acting, by which
fields, and which records' own ids the policy accepts instead. Played on the task's state, the
gold route must then:

- `identify`: find the person (by an accepted field) or an accepted record of theirs before
  any call on a record the person owns (a reservation, a ticket, the person's own id); a call
  that finds the person by a field the policy does not name does not count;
- `held`: give every finder a value the caller holds (what they know, what they say, their
  opening) or an earlier call showed: a caller who knows one child's id while the gold route
  looks up the other's (two goals that need two values of one detail) breaks it.

check-domain runs `identification_in` in a sandbox worker on every task of a stateful domain.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from toolscale.core.contract import Action, ToolError, normalize_text, tool_text
from toolscale.core.registry import get_domain
from toolscale.kit.graph import Finder, ToolGraph
from toolscale.kit.identify import Identification

Record = dict[str, Any]


def _owner_of(graph: ToolGraph, state: Record, name: str, record: Record) -> str | None:
    """The id of the person at the top of `record`'s owners (`record`'s own id for a root)."""
    entity = graph.entities[name]
    while entity.owner:
        owner = graph.entities[entity.owner]
        record = state[owner.table].get(record[entity.owner_key], {})
        entity = owner
    return record.get(entity.key)


def _found(state: Record, graph: ToolGraph, finder: Finder, value: Any) -> Record | None:
    table = state.get(graph.entities[finder.entity].table, {})
    return next((r for r in table.values() if r.get(finder.by) == value), None)


def _touched(graph: ToolGraph, rule: Identification, state: Record, action: Action) -> set[str]:
    """The people (by id) whose records `action` names by their key."""
    people = set()
    for name, entity in graph.entities.items():
        if graph.root(name) != rule.person:
            continue
        table = state.get(entity.table, {})
        for value in action.arguments.values():
            if isinstance(value, str) and isinstance(table.get(value), dict):
                person = _owner_of(graph, state, name, table[value])
                if person is not None:
                    people.add(person)
    return people


def identification_problems(
    graph: ToolGraph,
    rule: Identification | None,
    toolkit: Any,
    state: Record,
    actions: list[Action],
    held: list[str],
) -> list[str]:
    """The gold route's breaches of the rule and of what the caller holds, one line each (see
    the module docstring); `held` are the texts of what the caller knows and says."""
    finders = {f.tool: f for found in graph.finders.values() for f in found}
    said = {normalize_text(h) for h in held}
    kit = toolkit(copy.deepcopy(state))
    shown, identified, found = "", set(), []
    for action in actions:
        finder = finders.get(action.name)
        people = _touched(graph, rule, state, action) if rule else set()
        if finder is not None and finder.param in action.arguments:
            value = action.arguments[finder.param]
            text = str(value)
            if not any(normalize_text(text) in h for h in said) and text not in shown:
                found.append(
                    f"held: {action.name}({finder.param}={text!r}): the caller does not hold "
                    f"{text!r} and no earlier call shows it"
                )
            record = _found(state, graph, finder, value)
            if rule and record is not None and graph.root(finder.entity) == rule.person:
                person = _owner_of(graph, state, finder.entity, record)
                accepted = finder.entity in rule.records or (
                    finder.entity == rule.person and finder.by in rule.by
                )
                if accepted and person is not None:
                    identified.add(person)
                elif person is not None:
                    people.add(person)
        for person in sorted(people - identified):
            ways = " or ".join(rule.by) if rule else ""
            kinds = " or ".join(rule.records) if rule else ""
            others = f", or by the id of a {kinds}" if kinds else ""
            found.append(
                f"identify: {action.name} acts on records of {rule.person if rule else ''} "
                f"{person} before the gold route identifies them by {ways}{others}"
            )
            identified.add(person)  # one line per person
        try:
            shown += tool_text(getattr(kit, action.name)(**action.arguments))
        except ToolError:
            return found
    return found


def identification_in(
    domain: str,
    state_json: str,
    actions: list[dict[str, Any]],
    held: list[str],
    call_timeout_s: float,
) -> list[str]:
    """`identification_problems` of a gold route: what a sandbox worker runs for check-domain
    (none for a domain with no tool graph)."""
    found = get_domain(domain)
    composer = getattr(found, "composer", None)
    if composer is None:
        return []
    route = [Action(a["name"], a["arguments"]) for a in actions]
    rule = getattr(found, "identification", None)
    return identification_problems(
        composer.graph, rule, found.toolkit, json.loads(state_json), route, held
    )
