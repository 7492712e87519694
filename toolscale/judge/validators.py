"""Each task's tool validators (jsonschema), built once and kept for the task's next attempt."""

from __future__ import annotations

import json
from collections import OrderedDict
from functools import lru_cache

from jsonschema import Draft202012Validator

from toolscale.core.contract import canonical_json
from toolscale.core.records import Task


@lru_cache(maxsize=4096)
def _validators(tools_json: str) -> dict[str, Draft202012Validator]:
    return {
        t["function"]["name"]: Draft202012Validator(t["function"]["parameters"])
        for t in json.loads(tools_json)
    }


def validators_of(task: Task) -> dict[str, Draft202012Validator]:
    """A validator of each of the task's tools, by name (found by the tools' canonical JSON)."""
    return _validators(canonical_json(task.tools))


class Validators:
    """Each task's tool validators, kept for its next attempt: a task's attempts (the oracle's
    routes, a teacher's drafts) are checked against the same tools, and finding their
    validators by the tools' canonical JSON serialises every schema once per attempt. Kept by
    the task's list of tools itself (a frozen task's list, shared by the copies made of it):
    an entry holds its list, so the list's id stands for no other while it is kept, and a hit
    is that very list. The `size` lists seen last are kept; another list, equal or not, is
    found by its JSON as before (alike)."""

    def __init__(self, size: int = 512) -> None:
        self._kept: OrderedDict[int, tuple[object, dict[str, Draft202012Validator]]] = OrderedDict()
        self._size = size

    def of(self, task: Task) -> dict[str, Draft202012Validator]:
        tools = task.tools
        kept = self._kept.get(id(tools))
        if kept is not None and kept[0] is tools:
            self._kept.move_to_end(id(tools))
            return kept[1]
        found = validators_of(task)
        self._kept[id(tools)] = (tools, found)
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return found
