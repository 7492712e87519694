"""`task_state.state_json`: the canonical JSON of a task's state, computed once per task id and
never served for a task being built (no id yet); a worker's fresh copy of a state it parsed
before is new and equal, types included."""

from __future__ import annotations

from toolscale.core.contract import canonical_json
from toolscale.core.registry import get_domain
from toolscale.core.task_state import state_json
from toolscale.sample.tasks import build_task
from toolscale.sandbox.execute import fresh_state


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


def test_a_fresh_state_is_an_equal_new_object_each_time():
    text = '{"a":{"f":1.0,"l":[1,{"x":null}],"n":1,"t":true}}'
    first = fresh_state(text)
    first["a"]["l"].append(2)  # a caller changes its copy
    again = fresh_state(text)  # from the kept copy
    assert canonical_json(again) == text and again is not first
    assert [type(again["a"][k]) for k in ("n", "f", "t")] == [int, float, bool]
