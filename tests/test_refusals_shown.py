"""A refusal states only what its look-ups showed: every time and number of a refusal's or
hand-off's reason is in a result of its gold route, the caller's words or the policy.

The reading pass (issue 34, seed 7) met railway refusals that told the caller "train RW387 has
already departed (2025-06-07 07:40)" after a look-up that shows no departure time, and "only 0
first seat(s) left" after one that shows no seats: a careful agent cannot say either. The rule
is checked here on a hand-made refusal and over 400 tasks of the domains it was read on.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from toolscale.core.contract import ToolError
from toolscale.core.registry import get_domain
from toolscale.sample.tasks import build_task

READ_ON = ["railway", "restaurant", "school", "travel", "weather"]
_TIME = re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?![\d:])")
_NUMBER = re.compile(r"(?<![\w.:-])\d+(?:\.\d+)?(?![\w:-]|\.\d)")
_WORDS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve",
)  # fmt: skip


def _values(value: Any) -> set[float]:
    """Every number inside a tool result (dict values and list items, numeric strings too)."""
    if isinstance(value, dict):
        return {n for item in value.values() for n in _values(item)}
    if isinstance(value, list):
        return {n for item in value for n in _values(item)}
    if isinstance(value, bool):
        return set()
    try:
        return {float(value)}
    except (TypeError, ValueError):
        return set()


def unshown(reason: str, outputs: list[Any], said: str) -> list[str]:
    """The times and numbers of `reason` that no output (a time in its text, a number as one
    of its values) nor `said` (the caller's words and the policy) holds."""
    shown = " ".join(json.dumps(o) for o in outputs)
    values = {n for o in outputs for n in _values(o)}
    values |= {float(n) for n in _NUMBER.findall(_TIME.sub(" ", said))}
    values |= {float(n) for n, w in enumerate(_WORDS, 1) if re.search(rf"\b{w}\b", said, re.I)}
    times = [t for t in _TIME.findall(reason) if t not in shown and t not in said]
    numbers = [n for n in _NUMBER.findall(_TIME.sub(" ", reason)) if float(n) not in values]
    return times + numbers


def _outputs(domain: Any, state: dict[str, Any], actions: list[dict[str, Any]]) -> list[Any]:
    kit, found = domain.toolkit(copy.deepcopy(state)), []
    for action in actions:
        try:
            result = getattr(kit, action["name"])(**action["arguments"])
        except ToolError:
            continue
        try:
            found.append(json.loads(result) if isinstance(result, str) else result)
        except ValueError:
            found.append(result)  # a plain text result ("Transfer successful")
    return found


def test_unshown_fails_on_a_hand_made_refusal_and_passes_a_backed_one() -> None:
    shown = [{"booking_id": "BK1", "travel_date": "2025-06-07", "train_status": "departed"}]
    reason = "train RW387 of booking BK1 has already departed (2025-06-07 07:40)"
    assert unshown(reason, shown, "cancel my trip") == ["07:40"]
    assert unshown(reason, [{**shown[0], "departure_time": "07:40"}], "") == []
    assert unshown("train RW3 has only 0 first seat(s) left, 1 needed", shown, "up") == ["0", "1"]
    seats = [{"seats_left": {"first": 0}}]
    assert unshown("train RW3 has only 0 first seat(s) left, 1 needed", seats, "1 ticket") == []


@pytest.mark.slow
@pytest.mark.parametrize("name", READ_ON)
def test_no_refusal_of_400_tasks_states_what_no_look_up_showed(name: str) -> None:
    domain, found = get_domain(name), []
    for index in range(400):
        item = build_task(domain, 7, index, 15.0)
        task = item.task
        if ".no." not in task.template and ".handoff." not in task.template:
            continue
        scenario = task.user_scenario
        assert scenario is not None
        said = " ".join(
            [task.instruction, scenario.reason_for_call, scenario.known_info, task.system_prompt]
        )
        reason = item.final_message.split(": ", 1)[-1]
        missing = unshown(reason, _outputs(domain, task.initial_state, task.gold_actions), said)
        if missing:
            found.append((index, task.template, missing))
    assert found == []
