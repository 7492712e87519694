"""The run's worlds: one shared database per (stateful domain, run seed), stored once per run.

A domain that draws a world (`Domain.world(seed)`) gives each task the world plus the task's own
changes; rows store that state as a JSON Patch (RFC 6902) against the world, and the `worlds`
config holds the world itself. Worlds are content-addressed (their id is the content id of the
state), so the in-process registry below can never hold two different states under one id:
`register` is idempotent, and `load` reads an output's `worlds` config into it.
This module does not draw worlds (domains do) and does not write files (the output does).
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import jsonpatch

from toolscale.core.contract import canonical_state, content_id
from toolscale.core.errors import ConfigError

_REGISTRY: dict[str, dict[str, Any]] = {}


def world_id(state: dict[str, Any]) -> str:
    return content_id(state)


# The id of the world objects registered last, by object identity (an object is kept alive while
# it is here, so its identity cannot be reused meanwhile): a domain's cached world is hashed once
# per process, not per task. Bounded, so a domain that draws its world anew for every task does
# not keep every copy alive.
_BY_OBJECT: dict[int, tuple[dict[str, Any], str]] = {}
_BY_OBJECT_KEPT = 16


def register(state: dict[str, Any]) -> str:
    """Make `state` available by its id (computed here) and return the id. Worlds must not be
    mutated once registered (`Domain.world` says so)."""
    known = _BY_OBJECT.get(id(state))
    if known is not None and known[0] is state:
        return known[1]
    key = world_id(state)
    _REGISTRY.setdefault(key, state)
    _BY_OBJECT[id(state)] = (state, key)
    if len(_BY_OBJECT) > _BY_OBJECT_KEPT:
        del _BY_OBJECT[next(iter(_BY_OBJECT))]  # the oldest
    return key


def get(key: str) -> dict[str, Any]:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise ConfigError(
            f"world {key} is not loaded; read the run's `worlds` config first "
            "(toolscale.sample.worlds.load(OUT)) or regenerate the output"
        ) from None


def diff(key: str, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON Patch that turns world `key` into `state` (a task's own changes): `add`,
    `remove` and `replace` operations, in the order of the keys of the world, then of the state.

    Subtrees are compared in C (`==`, then their pickles, which tell 1, 1.0 and true apart as
    JSON does), and only those that differ are walked, so a task that changes a few records of a
    world of hundreds costs about one pickling of the world (jsonpatch's `make_patch` serialised
    every subtree at every level to compare it: 0.3 s per task on the bank world).

    Example: world {"a": 1, "b": [1, 2]} to {"a": 2, "b": [1], "c": 0} is
    [replace /a 2, remove /b/1, add /c 0].
    """
    ops: list[dict[str, Any]] = []
    _diff(get(key), state, "", ops)
    return ops


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON: Python's `==` calls 1, 1.0 and true equal, and 0.0 and -0.0."""
    if old is new:
        return True
    if type(old) is not type(new) or old != new:
        return False
    if isinstance(old, dict | list):  # equal pickles: equal types all the way down
        return pickle.dumps(old, 5) == pickle.dumps(new, 5)
    return not isinstance(old, float) or repr(old) == repr(new)


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if _same(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for name, value in old.items():
            where = f"{path}/{_escape(name)}"
            if name in new:
                _diff(value, new[name], where, ops)
            else:
                ops.append({"op": "remove", "path": where})
        for name, value in new.items():
            if name not in old:
                ops.append({"op": "add", "path": f"{path}/{_escape(name)}", "value": value})
    elif isinstance(old, list) and isinstance(new, list):
        common = min(len(old), len(new))
        for index in range(common):
            _diff(old[index], new[index], f"{path}/{index}", ops)
        for index in range(len(old) - 1, common - 1, -1):  # from the end: indexes stay valid
            ops.append({"op": "remove", "path": f"{path}/{index}"})
        for index in range(common, len(new)):
            ops.append({"op": "add", "path": f"{path}/{index}", "value": new[index]})
    else:
        ops.append({"op": "replace", "path": path, "value": new})


def _escape(name: Any) -> str:
    """A JSON Pointer token (RFC 6901): ~ and / escaped."""
    return str(name).replace("~", "~0").replace("/", "~1")


# A registered world as the JSON-parsed copy a toolkit gets, pickled, by world id.
_COPIES: dict[str, bytes] = {}


def copy(state: dict[str, Any]) -> dict[str, Any]:
    """A new object equal to `json.loads(json.dumps(state))` (keys in the state's order), for
    the caller to change. A registered world is copied from a pickle of that object (bank's
    world: ~3 ms instead of ~9 ms for the JSON round trip); any other state by the round trip."""
    known = _BY_OBJECT.get(id(state))
    if known is None or known[0] is not state:
        return json.loads(json.dumps(state))
    packed = _COPIES.get(known[1])
    if packed is None:
        parsed = json.loads(json.dumps(state))
        packed = _COPIES[known[1]] = pickle.dumps(parsed, pickle.HIGHEST_PROTOCOL)
    return pickle.loads(packed)


def apply(key: str, patch: list[dict[str, Any]]) -> dict[str, Any]:
    """World `key` with a task's patch applied (a new object; the world is left as it is)."""
    state = json.loads(canonical_state(get(key)))  # as the sandbox parses it: keys sorted
    return jsonpatch.apply_patch(state, patch, in_place=True) if patch else state


def row(domain: str, version: str, seed: int, state: dict[str, Any]) -> dict[str, Any]:
    """The `worlds` config row of a world."""
    from toolscale.core.records import World  # records imports this module

    return World(
        id=register(state), domain=domain, domain_version=version, seed=seed, state=state
    ).to_row()


def register_rows(rows: Iterable[dict[str, Any]], where: str) -> int:
    """Register the worlds of `worlds` config rows (read from `where`); returns how many."""
    count = 0
    for record in rows:
        state = json.loads(record["state"])
        if world_id(state) != record["id"]:
            raise ConfigError(
                f"world {record['id']} in {where} does not match its content; the worlds config "
                "was altered: regenerate the output"
            )
        _REGISTRY.setdefault(record["id"], state)
        count += 1
    return count


def load(root: Path) -> int:
    """Register every world of the output folder at `root`; returns how many it holds."""
    from toolscale.write.output import Output  # output imports features only; no cycle

    return register_rows((r for _, r in Output(root).read_rows("worlds")), str(root))
