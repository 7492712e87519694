"""A change in a conversation needs the caller's yes: a WRITE call after the caller's agreeing
reply passes, one made before any reply or after a no fails; a task with no scenario has no one
to ask, and READ calls never need a yes."""

from __future__ import annotations

from toolscale.core.contract import ToolKind, ToolPrice, ToolSpec, UserScenario
from toolscale.kit.consent import Turn, agrees, consent_problems

SPECS = {
    "get_booking": ToolSpec("get_booking", ToolKind.READ, ToolPrice()),
    "cancel_booking": ToolSpec("cancel_booking", ToolKind.WRITE, ToolPrice()),
}
SCENARIO = UserScenario(
    instructions="Cancel my booking.", reason_for_call="a trip off", opening="Cancel my booking."
)
OPENING = ("user", "Please cancel my booking BK1.", [])


def cancelled_after(ask: str, reply: str) -> list[Turn]:
    """The opening, the agent's `ask`, the caller's `reply`, then the cancellation."""
    return [
        OPENING,
        ("assistant", ask, []),
        ("user", reply, []),
        ("assistant", "", ["cancel_booking"]),
    ]


def test_the_replies_people_give_agree_and_a_no_does_not() -> None:
    for yes in (
        "Yes.",
        "Yes, please go ahead.",
        "Go ahead.",
        "Sure, do it",
        "That's right, please proceed.",
        "ok",
        # the change asked for in so many words (a capable caller, synthesize run S7)
        "In that case, please cancel the booking instead.",
        "Cancel it, please.",
    ):
        assert agrees(yes), yes
    for no in (
        "No, leave it.",
        "Don't cancel it.",
        "Wait, which booking?",
        "My booking id is BK1.",
        "Please do not cancel it.",
        "Please don't cancel it.",
        "Please check the fee first.",
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
    detail = cancelled_after("Your id?", "It is BK1.")
    declined = cancelled_after("Cancel it?", "No, leave it.")
    assert len(consent_problems(SPECS, SCENARIO, detail)) == 1
    assert len(consent_problems(SPECS, SCENARIO, declined)) == 1


def test_no_scenario_and_read_calls_need_no_yes() -> None:
    at_once = [OPENING, ("assistant", "", ["get_booking", "cancel_booking"])]
    assert consent_problems(SPECS, None, at_once) == []
    unasked = SCENARIO.model_copy(update={"confirm_writes": False})
    assert consent_problems(SPECS, unasked, at_once) == []
    reads = [OPENING, ("assistant", "", ["get_booking"])]
    assert consent_problems(SPECS, SCENARIO, reads) == []


def test_a_negation_or_a_question_is_no_yes() -> None:
    for no in ("That's not right.", "That isn't correct.", "I'm not sure.", "OK, but how much?"):
        assert not agrees(no), no


def test_a_yes_must_answer_a_proposal_of_the_change() -> None:
    """The caller's "Yes, of course: BK1." gives a detail, and "That's not right." to a read-back
    is no yes: a write after either fails, with the reason naming what the caller answered."""
    detail = cancelled_after("Could you tell me your booking id?", "Yes, of course: BK1.")
    assert consent_problems(SPECS, SCENARIO, detail) == [
        "cancel_booking was called without asking the caller for a yes to it (the caller's "
        "'Yes, of course: BK1.' answered 'Could you tell me your booking id?')"
    ]
    negated = cancelled_after(
        "Just to check: your booking id is BK2. Is that right?", "That's not right."
    )
    assert consent_problems(SPECS, SCENARIO, negated) == [
        "cancel_booking was called before the caller agreed to it (the caller last said "
        '"That\'s not right.")'
    ]
    read_back = [*negated[:2], ("user", "Yes, that's right.", []), negated[3]]
    assert len(consent_problems(SPECS, SCENARIO, read_back)) == 1


def test_every_common_way_to_ask_for_a_yes_counts() -> None:
    for ask in (
        "I will cancel booking BK1. Please confirm.",
        "OK to cancel BK1?",
        "Would you like me to cancel BK1, or leave things as they are?",
        "To confirm, I will cancel BK1. Is that correct?",
        "I can cancel BK1 for you now. Please reply yes if you want me to go ahead.",
        # the change offered on the caller's word (a capable agent's, synthesize run S4)
        "Give me the booking id and I'll cancel it once you confirm.",
        "I will cancel BK1 as soon as you say yes.",
        "Standard or expedited? Please confirm with a yes and your delivery choice.",
        "Which one would you like? Once you choose, I'll move BK1 to that train, if you confirm.",
    ):
        turns = cancelled_after(ask, "Yes.")
        assert consent_problems(SPECS, SCENARIO, turns) == [], ask


def test_once_you_confirm_a_detail_asks_for_no_yes() -> None:
    turns = cancelled_after(
        "I can cancel it once you confirm your email address.", "Yes, it's ann@example.com."
    )
    assert len(consent_problems(SPECS, SCENARIO, turns)) == 1
