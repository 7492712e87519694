"""The behaviour a task's caller shows, drawn from the task's RNG, and what its scenario needs.

A behaviour is drawn by weight among those the task allows (`allowed`): `correct` needs a
detail with a digit that a gold call uses (the caller first misreads it, `misread`); `pieces`
two details the agent asks for; `ask_back` one; `dont_know` an id a gold call uses that the
caller was never given (`lacks`) and a detail they can give instead; `decline` a change the
caller did not ask for that the agent can offer (`offer`: a WRITE tool whose arguments the gold
calls give, which succeeds after the gold route and changes the state, so an agent that makes
it anyway fails); `change` another template's request to open with (`toolscale.kit.sampling`
draws it). What a behaviour needs but does not find makes the caller plain.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from toolscale.core.contract import Action, Behaviour, ToolError, ToolKind, Toolkit, canonical_json
from toolscale.kit.draft import Draft

# Relative weights; "" is a plain caller.
WEIGHTS: dict[Behaviour, int] = {
    "": 26,
    "decline": 14,
    "correct": 16,
    "pieces": 16,
    "change": 14,
    "ask_back": 6,
    "dont_know": 6,
}
_ID = re.compile(r"(?:_id|_number|^id)$")
_STOP = {"get", "set", "to", "a", "an", "the", "of", "for", "by", "and", "on", "in"}


@dataclass(frozen=True)
class Shown:
    """What a drawn behaviour adds to the caller's scenario (`UserScenario`'s fields)."""

    behaviour: Behaviour = ""
    wrong: dict[str, str] = field(default_factory=dict)
    lacks: list[str] = field(default_factory=list)
    unwanted: dict[str, Any] = field(default_factory=dict)
    declines: list[str] = field(default_factory=list)


def _values(value: object) -> list[str]:
    if isinstance(value, dict):
        return [v for item in value.values() for v in _values(item)]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    return [str(value)]


def misread(value: str) -> str:
    """`value` as a caller misreads it: its last two different adjacent digits swapped, else its
    last digit one higher. Examples: "BK4292" -> "BK4229", "A1" -> "A2", "A11" -> "A12"."""
    digits = [i for i, c in enumerate(value) if c.isdigit()]
    for a, b in zip(reversed(digits[:-1]), reversed(digits[1:]), strict=True):
        if b == a + 1 and value[a] != value[b]:
            return value[:a] + value[b] + value[a] + value[b + 1 :]
    i = digits[-1]
    return value[:i] + str((int(value[i]) + 1) % 10) + value[i + 1 :]


def _misreadable(draft: Draft) -> list[str]:
    used = {v for a in draft.actions for v in _values(a.arguments)}
    return [k for k, v in draft.request.known.items() if re.search(r"\d", v) and v in used]


def lacks(draft: Draft) -> list[str]:
    """The ids the gold calls use that the caller does not have ("booking id" found from their
    email): argument names ending in id or number whose values the caller was never given."""
    request = draft.request
    had = set(request.known.values()) | set(request.stated.values())
    keys = set(request.known) | set(request.stated)
    found: list[str] = []
    for action in draft.actions:
        for name, value in action.arguments.items():
            key = name.replace("_", " ")
            fresh = isinstance(value, str) and value not in had
            if _ID.search(name) and fresh and key not in keys and key not in found:
                found.append(key)
    return found


def allowed(draft: Draft, can_change: bool) -> list[Behaviour]:
    """The behaviours the task's draft allows (`can_change`: another template may open it)."""
    known = draft.request.known
    ok: dict[Behaviour, bool] = {
        "": True,
        "decline": True,  # checked once drawn (`offer`)
        "correct": bool(_misreadable(draft)),
        "pieces": len(known) >= 2,
        "ask_back": bool(known),
        "dont_know": bool(known) and bool(lacks(draft)),
        "change": can_change,
    }
    return [name for name in WEIGHTS if ok[name]]


def draw(rng: random.Random, names: list[Behaviour]) -> Behaviour:
    return rng.choices(names, weights=[WEIGHTS[n] for n in names])[0]


def wrong_detail(rng: random.Random, draft: Draft, facts: list[str]) -> dict[str, str]:
    """The detail a `correct` caller misreads, by key ({} when no misreading is safe: one that
    equals another detail, or a required fact)."""
    key = rng.choice(_misreadable(draft))
    value = misread(draft.request.known[key])
    taken = {*draft.request.known.values(), *draft.request.stated.values(), *facts}
    return {} if value in taken else {key: value}


def _words(name: str) -> list[str]:
    return [w for w in name.split("_") if w not in _STOP]


def _touched(state: dict[str, Any], action: Action) -> list[Any]:
    """What a call may change, cheaply seen: the size of every table, and the records keyed by
    the call's arguments (a change elsewhere goes unseen: the caller is then left plain)."""
    ids = set(_values(action.arguments))
    seen: list[Any] = []
    for table, rows in state.items():
        if isinstance(rows, dict):
            seen.append((table, len(rows), [canonical_json(rows[i]) for i in ids if i in rows]))
        elif isinstance(rows, list):
            seen.append((table, len(rows)))
    return seen


def _candidates(
    rng: random.Random, draft: Draft, specs: dict[str, Any], schemas: list[dict[str, Any]]
) -> list[Action]:
    """The WRITE calls the gold route does not make whose arguments the gold calls give, in a
    random order (a tool that needs a value no gold call gives, such as a reason to block a
    card, is not offered: the agent would have to make it up)."""
    taken = {a.name for a in draft.actions if specs[a.name].kind is ToolKind.WRITE}
    known = {k: v for a in draft.actions for k, v in a.arguments.items()}
    found = []
    for schema in schemas:
        name, parameters = schema["function"]["name"], schema["function"]["parameters"]
        if name in taken or specs[name].kind is not ToolKind.WRITE:
            continue
        arguments = {k: known[k] for k in parameters.get("properties", {}) if k in known}
        if all(k in arguments for k in parameters.get("required", [])):
            found.append(Action(name, arguments))
    rng.shuffle(found)
    return found


def offer(rng: random.Random, draft: Draft, kit: Toolkit, schemas: list[dict[str, Any]]) -> Shown:
    """A `decline` caller's scenario part: a change the gold route does not make (any, for a
    request that changes nothing; `_candidates`), tried on `kit` (the state after the gold route;
    it is changed) until one succeeds and changes what it names. Plain when none does (up to
    three tried; a failed one that changed anything ends the search), or when the words that
    name it also name a gold write."""
    specs = type(kit).specs()
    gold = [
        w for a in draft.actions if specs[a.name].kind is ToolKind.WRITE for w in _words(a.name)
    ]
    for action in _candidates(rng, draft, specs, schemas)[:3]:
        marker = " ".join(w for w in _words(action.name) if w not in gold)
        if not marker:
            continue
        before = _touched(kit.state, action)
        try:
            getattr(kit, action.name)(**action.arguments)
        except ToolError:
            if _touched(kit.state, action) != before:
                return Shown()
            continue
        if _touched(kit.state, action) == before:
            return Shown()
        return Shown("decline", unwanted=action.as_dict(), declines=[marker])
    return Shown()
