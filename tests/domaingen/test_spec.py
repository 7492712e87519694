"""The spec stage asks what the file stage will require: every tool, the kit's two included, in
some goal's route (toolscale.domaingen.spec.unused), so a model learns it before writing code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolscale.domaingen.spec import parse, sense_problems

SPEC = Path(__file__).parent / "fixtures" / "bike_rental.spec.json"


def _spec() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SPEC.read_text())
    return loaded


def test_the_fixture_spec_reaches_every_tool() -> None:
    assert parse(SPEC.read_text(), 12) == (_spec(), [])


def test_a_spec_without_a_calculate_goal_is_told_to_add_one() -> None:
    spec = _spec()
    spec["goals"] = [g for g in spec["goals"] if g["tool"] != "calculate"]
    assert sense_problems(spec, 12) == [
        "no goal uses the kit's calculate tool: add a goal whose tool is calculate (a sum over "
        "looked-up values), since every tool must be in some gold route"
    ]


def test_a_quote_no_goal_calls_first_and_an_unreached_hand_off_are_named() -> None:
    spec = _spec()
    for goal in spec["goals"]:
        goal.pop("before", None)
    spec["goals"] = [g for g in spec["goals"] if g["name"] != "damage"]
    for rule in spec["rules"]:
        rule["handoff"] = False
    assert sense_problems(spec, 12) == [
        "tool get_price_quote is in no goal's route: make it a goal's tool or one of its "
        '"before" calls (a finder or lister counts when a goal needs its entity)',
        "tool get_cancellation_quote is in no goal's route: make it a goal's tool or one of its "
        '"before" calls (a finder or lister counts when a goal needs its entity)',
        'nothing reaches the kit\'s transfer_to_human_agents: add a rule with "handoff": true, '
        "or a goal whose tool is transfer_to_human_agents",
    ]


def test_a_before_call_must_be_a_declared_read() -> None:
    spec = _spec()
    spec["goals"][0]["before"] = ["get_price_quote", "cancel_rental", "nope"]
    assert sense_problems(spec, 12) == [
        "goal book_bike: before-call cancel_rental is not a READ tool",
        "goal book_bike: before-call nope is not declared",
    ]
