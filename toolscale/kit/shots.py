"""One goal's part of a task in words, and the Draft made of it (toolscale.kit.compose).

`wordings` fills a goal's wordings with its records' descriptions and its values in a caller's
words (and records the values a wording states); `shot_of` adds the agent's final message and
the required facts from the tool's result; `assemble` makes the Draft: the request with a
reason for the call and task instructions written from this task's wording, motive and
conditions, after dropping facts the caller says and refusing a read-only draft that states
nothing only a look-up shows (a parrot could pass it).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from toolscale.core.contract import ToolKind, UserScenario, fact_stated, tool_text
from toolscale.kit.declare import Draw, Goal, Record
from toolscale.kit.draft import Draft, Request
from toolscale.kit.evidence import check_evidence
from toolscale.kit.graph import HANDOFF, ToolGraph
from toolscale.kit.identify import Plan
from toolscale.kit.phrasing import second_person
from toolscale.kit.sampling import KitError
from toolscale.kit.words import agree, as_written, fact, spoken

MAX_ACTIONS = 8


class Described(str):
    """An entity's description in the agent's words; `{entity[field]}` is one of its fields."""

    record: Record

    def __new__(cls, words: str, record: Record) -> Described:
        made = super().__new__(cls, words)
        made.record = record
        return made

    def __getitem__(self, key: Any) -> Any:
        return as_written(self.record[key]) if isinstance(key, str) else str.__getitem__(self, key)


def placeholders(text: str) -> set[str]:
    return {f.split("[")[0].split(".")[0] for _, f, _, _ in string.Formatter().parse(text) if f}


def output_fields(output: Any) -> dict[str, Any]:
    return dict(output) if isinstance(output, dict) else {"result": output}


def with_facts(text: str, facts: list[str], named: Mapping[str, str] | None = None) -> str:
    """`text` (its first letter capitalised), followed by the facts it does not state yet, each
    id with what it names (`named`: its key's label): "... For your records: customer CU4079,
    reservation RS50106."."""
    text = text[:1].upper() + text[1:]
    named = named or {}
    missing = [f"{named[f]} {f}" if f in named else f for f in facts if not fact_stated(f, text)]
    return f"{text} For your records: {', '.join(missing)}." if missing else text


def you(text: str) -> str:
    """A caller's words told to the simulated user ("I'd like my table" -> "you'd like your
    table"), each sentence after the first starting with a capital."""
    told = re.sub(r"(?<=[a-z,;] )You\b", "you", second_person(text))
    return re.sub(r"([.!?] )([a-z])", lambda m: m[1] + m[2].upper(), told)


@dataclass
class Shot:
    """One goal's part of a draft: its wordings, the final message and facts, and notes."""

    words: tuple[str, ...]
    final: str
    facts: list[str]
    notes: list[str]


def slots(graph: ToolGraph, goal: Goal, draw: Draw, vague: str = "") -> tuple[dict, dict]:
    """(the caller's slots, the agent's slots) for the goal's wordings and final message."""
    values = {**draw.args, **draw.extra}
    mine: dict[str, Any] = {k: spoken(v) for k, v in values.items()}
    yours: dict[str, Any] = dict(mine)
    for name, record in draw.records.items():
        entity = graph.entities[name]
        if entity.describe is not None:
            words = entity.describe(record, draw.world, name != vague)
            mine[name] = Described(words, record)
            told = second_person(words)  # "my booking" -> "your booking", mid-sentence
            told = told[:1].lower() + told[1:] if words[:1].islower() else told
            yours[name] = Described(told, record)
    return mine, yours


def reported(goal: Goal, draw: Draw, fields: dict[str, Any]) -> tuple[str, ...]:
    """The goal's `report`, or by default the placeholders of its `done` that name result
    fields (not its arguments, extra values or entities) and its `{entity[field]}` fields. A
    hand-off reports nothing: its caller asked for a person, and what the agent adds ("your
    form tutor is Mr Carter") is courtesy no policy asks for, so no grader may require it."""
    if goal.tool == HANDOFF:
        if goal.report:
            raise KitError(
                f"goal {goal.name}: a hand-off requires no facts; leave `report` out (its "
                "`done` may still mention them)"
            )
        return ()
    if goal.report is not None:
        return goal.report
    taken = {*draw.args, *draw.extra, *draw.records}
    found = []
    for _, name, _, _ in string.Formatter().parse(goal.done):
        head, _, rest = (name or "").partition("[")
        if head in draw.records and rest:
            found.append(f"{head}.{rest.rstrip(']')}")
        elif head in fields and head not in taken:
            found.append(head)
    return tuple(dict.fromkeys(found))


def facts_of(goal: Goal, draw: Draw, fields: dict[str, Any]) -> list[str]:
    found = []
    for item in reported(goal, draw, fields):
        entity, _, name = item.rpartition(".")
        source = draw[entity] if entity else fields
        if name not in source:
            raise KitError(f"goal {goal.name}: reports {item!r}, which its result lacks")
        values = source[name] if isinstance(source[name], list) else [source[name]]
        found += [f for f in map(fact, values) if f is not None]
    if goal.report is not None:
        return found  # the goal says what the caller asks for: an id it names is asked for
    return [f for f in found if not held(draw.world, f)]


def held(world: Record, value: str) -> bool:
    """Whether `value` is the id of a record the world holds before the task (a customer, a
    booking, a doctor, a plan, a train): one the caller had or a look-up found, never a fact the
    caller must be told unless they ask for it (an id a write creates is not held). An id has a
    digit: a name that keys a table (a visa's country) is not one."""
    return any(c.isdigit() for c in value) and any(
        isinstance(table, dict) and value in table for table in world.values()
    )


def wordings(graph: ToolGraph, goal: Goal, plan: Plan, draw: Draw, vague: str = "") -> tuple:
    """(the caller's wordings of `goal`, the agent's slots for its final message)."""
    mine, yours = slots(graph, goal, draw, vague)
    values = {**draw.args, **draw.extra}
    for name in sorted(placeholders(goal.words[0]) & set(values)):
        plan.stated.setdefault(name.replace("_", " "), str(values[name]))
    return tuple(agree(w.format_map(mine)) for w in goal.words), yours


def shot_of(
    graph: ToolGraph, goal: Goal, plan: Plan, draw: Draw, output: Any, last: Any, vague: str = ""
) -> Shot:
    words, yours = wordings(graph, goal, plan, draw, vague)
    fields = (
        {**output_fields(last), **output_fields(output)}
        if last is not None
        else output_fields(output)
    )
    if goal.derive is not None:
        fields.update(goal.derive(output))
    final = agree(goal.done.format_map({**yours, **{k: as_written(v) for k, v in fields.items()}}))
    facts = facts_of(goal, draw, fields)
    return Shot(words, with_facts(final, facts), facts, [])


def fitting(goal: Goal, draw: Draw) -> tuple[str, ...]:
    """The motives of `goal` that fit `draw` (`Goal.motives_for`), all of them by default.

    Raises:
        KitError: `motives_for` gave a motive that the goal's `motives` lack.
    """
    motives = cast(tuple[str, ...], goal.motives)  # a tuple once Goal.__post_init__ ran
    if goal.motives_for is None:
        return motives
    fit = tuple(goal.motives_for(draw))
    if not fit or any(m not in motives for m in fit):
        raise KitError(f"goal {goal.name}: motives_for gave {fit}, not some of its motives")
    return fit


def assemble(
    graph: ToolGraph,
    policy: str,
    asks: bool,
    goal: Goal,
    plan: Plan,
    draw: Draw,
    shot: Shot,
    conditions: tuple[tuple[str, ...], ...] = (),
    writes: bool | None = None,
    assertions: list[str] | None = None,
) -> Draft | None:
    if not 1 <= plan.actions <= MAX_ACTIONS:
        return None
    if writes is None:
        writes = graph.kind(goal.tool) is ToolKind.WRITE
    rng = draw.rng
    said = [*shot.words, *goal.motives, *(c for group in conditions for c in group)]
    said += [*plan.known.values(), *plan.stated.values()]
    # A fact the caller says proves nothing (and the kit refuses it in the opening).
    shot.facts = [f for f in shot.facts if not fact_stated(f, " ".join(said))]
    kind: Literal["do", "know"] = "know" if asks else "do"
    wording = rng.choice(shot.words)
    condition = rng.choice(conditions[0]) if conditions else ""
    want = "You want to know" if kind == "know" else "You want to"
    # No motive here: the scenario's reason gives the one the opening draws (`caller`).
    reason = you(" ".join(filter(None, [f"{want} {wording}.", condition])))
    reason = reason[:1].upper() + reason[1:]
    notes = [*shot.notes]  # what to agree to is said once (`caller.AGREE`, `KEEP`, `REFUSED`)
    request = Request(
        shot.words,
        kind=kind,
        known=dict(plan.known),
        motives=fitting(goal, draw),
        conditions=conditions,
        notes=" ".join(notes),
        stated=dict(plan.stated),
        reason=reason,
    )
    if not writes and not _evidenced(request, shot.facts, plan, policy):
        return None  # nothing only a look-up shows: a parrot could pass
    return Draft(
        request,
        list(plan.run.actions),
        shot.final,
        list(dict.fromkeys(shot.facts)),
        writes=writes,
        nl_assertions=assertions or [],
    )


def _evidenced(request: Request, facts: list[str], plan: Plan, policy: str) -> bool:
    """Whether a read-only draft keeps `sample_task`'s evidence rule: the same check on the
    scenario's words (its opening, drawn later, is checked for collisions there)."""
    scenario = UserScenario(
        reason_for_call=request.reason,
        opening="",
        known=dict(request.known),
        stated=dict(request.stated),
    )
    outputs = [tool_text(o) for o in plan.outputs]
    try:
        check_evidence(
            "", facts, scenario, outputs, False, policy, KitError, request.kind == "know"
        )
    except KitError:
        return False
    return True
