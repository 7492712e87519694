"""A multi-goal task's facts: those of an earlier goal that a later goal made stale are dropped.

A caller who makes two changes in one call is told each goal's facts, but the task may require
only what is still true at its end or tied to its own step: a balance after the first of two
transfers from one account is no longer the balance once the second is made, so requiring it
would reject an agent that tells the caller the balance that holds. A fact is *stale* when the
state after its goal holds it (a record's field with that value) and the state at the end holds
another value in every such place; a fact the state never held (a fee quoted for its step) or
still holds (an id a write created) is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Path = tuple[Any, ...]


def _leaves(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    else:
        yield path, value


def _is(leaf: Any, fact: str) -> bool:
    if isinstance(leaf, bool) or leaf is None:
        return False
    if isinstance(leaf, int | float):
        try:
            return float(fact) == float(leaf)
        except ValueError:
            return False
    return str(leaf) == fact


def _at(state: Any, path: Path) -> Any:
    for key in path:
        try:
            state = state[key]
        except (KeyError, IndexError, TypeError):
            return None
    return state


def stale(fact: str, then: dict[str, Any], end: dict[str, Any]) -> bool:
    """Whether `fact`, held by the state `then`, is held in none of those places at the `end`."""
    places = [path for path, leaf in _leaves(then) if _is(leaf, fact)]
    return bool(places) and not any(_is(_at(end, path), fact) for path in places)


def fresh_facts(facts: list[str], then: dict[str, Any], end: dict[str, Any]) -> list[str]:
    """The `facts` of a goal, whose step left the state `then`, that are not stale at the
    `end` (module docstring)."""
    return [fact for fact in facts if not stale(fact, then, end)]
