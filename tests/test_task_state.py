"""`task_state.state_json`: the canonical JSON of a task's state, computed once per task id and
never served for a task being built (no id yet)."""

from __future__ import annotations

from toolscale.contract import canonical_json
from toolscale.registry import get_domain
from toolscale.task_state import state_json
from toolscale.tasks import build_task


def test_state_json_is_the_canonical_json_computed_once_per_task():
    task = build_task(get_domain("math"), 0, 1, 15.0).task
    first = state_json(task)
    assert first == canonical_json(task.initial_state)
    assert state_json(task) is first  # the same string object: not serialised again
    other = build_task(get_domain("math"), 0, 2, 15.0).task
    assert other.id != task.id and state_json(other) == canonical_json(other.initial_state)


def test_a_task_without_an_id_is_serialised_every_time():
    task = build_task(get_domain("math"), 0, 1, 15.0).task
    changed = task.model_copy(update={"id": "", "initial_state": {"x": 1}})
    assert state_json(changed) == '{"x":1}'
    assert state_json(task.model_copy(update={"id": ""})) == canonical_json(task.initial_state)
