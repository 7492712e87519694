"""JSON Patch (RFC 6902) between two JSON states: the difference of a task's state from its world.

`diff(world, state)` writes the patch, `apply(world, patch)` rebuilds the state; both leave their
inputs as they are. No store of worlds here (`toolscale.sample.worlds` owns that).
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import jsonpatch

from toolscale.core.state_text import canonical_state


def diff(world: dict[str, Any], state: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON Patch that turns `world` into `state` (a task's own changes): `add`,
    `remove` and `replace` operations, in the order of the keys of the world, then of the state.

    Subtrees are compared in C (`==`, then their pickles, which tell 1, 1.0 and true apart as
    JSON does), and only those that differ are walked, so a task that changes a few records of a
    world of hundreds costs about one pickling of the world (jsonpatch's `make_patch` serialised
    every subtree at every level to compare it: 0.3 s per task on the bank world).

    Example: world {"a": 1, "b": [1, 2]} to {"a": 2, "b": [1], "c": 0} is
    [replace /a 2, remove /b/1, add /c 0].
    """
    ops: list[dict[str, Any]] = []
    _diff(world, state, "", ops)
    return ops


def apply(world: dict[str, Any], patch: list[dict[str, Any]]) -> dict[str, Any]:
    """`world` with a task's patch applied (a new object; the world is left as it is)."""
    state = json.loads(canonical_state(world))  # as the sandbox parses it: keys sorted
    return jsonpatch.apply_patch(state, patch, in_place=True) if patch else state


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
