"""A task's initial state as the canonical JSON the sandbox receives, serialised once per task.

Every request that starts from a task's fresh state (the reference teacher's routes, the grounding
replay of each attempt) sends that state as JSON; on a stateful domain's world the state is a few
hundred kilobytes and its canonical JSON costs milliseconds, so writing it once per task instead
of once per request saves that many times per attempt. Keyed by the task's content id, which
covers the state, so an entry can never stand for another state; a task without an id yet (being
built) is serialised every time. This module does not send anything.
"""

from __future__ import annotations

from collections import OrderedDict

from toolscale.core.records import Task
from toolscale.core.state_text import canonical_state

_KEPT = 512  # tasks in flight at once are at most a few chunks' worth
_CACHE: OrderedDict[str, str] = OrderedDict()


def state_json(task: Task) -> str:
    """`canonical_state(task.initial_state)`, computed once per task id."""
    if not task.id:
        return canonical_state(task.initial_state)
    text = _CACHE.get(task.id)
    if text is None:
        text = _CACHE[task.id] = canonical_state(task.initial_state)
        if len(_CACHE) > _KEPT:
            _CACHE.popitem(last=False)
    return text
