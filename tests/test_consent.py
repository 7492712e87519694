"""A change in a conversation needs the caller's yes: a WRITE call after the caller's agreeing
reply passes, one made before any reply or after a no fails; a task with no scenario has no one
to ask, and READ calls never need a yes."""

from __future__ import annotations

from toolscale.core.contract import ToolKind, ToolPrice, ToolSpec, UserScenario
from toolscale.kit.consent import agrees, consent_problems

SPECS = {
    "get_booking": ToolSpec("get_booking", ToolKind.READ, ToolPrice()),
    "cancel_booking": ToolSpec("cancel_booking", ToolKind.WRITE, ToolPrice()),
}
SCENARIO = UserScenario(
    instructions="Cancel my booking.", reason_for_call="a trip off", opening="Cancel my booking."
)
OPENING = ("user", "Please cancel my booking BK1.", [])


def test_the_replies_people_give_agree_and_a_no_does_not() -> None:
    for yes in (
        "Yes.",
        "Yes, please go ahead.",
        "Go ahead.",
        "Sure, do it",
        "That's right, please proceed.",
        "ok",
    ):
        assert agrees(yes), yes
    for no in (
        "No, leave it.",
        "Don't cancel it.",
        "Wait, which booking?",
        "My booking id is BK1.",
    ):
        assert not agrees(no), no


def test_a_write_after_the_callers_yes_passes() -> None:
    turns = [
        OPENING,
        ("assistant", "", ["get_booking"]),
        ("assistant", "Shall I cancel BK1 (yes/no)?", []),
        ("user", "Yes, go ahead.", []),
        ("assistant", "", ["cancel_booking"]),
    ]
    assert consent_problems(SPECS, SCENARIO, turns) == []


def test_a_write_before_any_reply_or_after_a_detail_or_a_no_fails() -> None:
    at_once = [OPENING, ("assistant", "", ["get_booking", "cancel_booking"])]
    assert consent_problems(SPECS, SCENARIO, at_once) == [
        "cancel_booking was called before the caller agreed to it (the caller last said "
        "'Please cancel my booking BK1.')"
    ]
    detail = [
        OPENING,
        ("assistant", "Your id?", []),
        ("user", "It is BK1.", []),
        ("assistant", "", ["cancel_booking"]),
    ]
    declined = [
        OPENING,
        ("assistant", "Cancel it?", []),
        ("user", "No, leave it.", []),
        ("assistant", "", ["cancel_booking"]),
    ]
    assert len(consent_problems(SPECS, SCENARIO, detail)) == 1
    assert len(consent_problems(SPECS, SCENARIO, declined)) == 1


def test_no_scenario_and_read_calls_need_no_yes() -> None:
    at_once = [OPENING, ("assistant", "", ["get_booking", "cancel_booking"])]
    assert consent_problems(SPECS, None, at_once) == []
    unasked = SCENARIO.model_copy(update={"confirm_writes": False})
    assert consent_problems(SPECS, unasked, at_once) == []
    reads = [OPENING, ("assistant", "", ["get_booking"])]
    assert consent_problems(SPECS, SCENARIO, reads) == []
