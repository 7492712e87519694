"""The scripted user: answers only what it is asked from `known`, confirms or declines proposed
changes as its scenario says, says it does not know anything else, and ends when nothing is
asked."""

from __future__ import annotations

from toolscale.core.contract import UserScenario
from toolscale.play.scripted_user import CIRCLE, DONT_KNOW, NO, YES, asks_for, in_circles, reply

SCENARIO = UserScenario(
    reason_for_call="You want to cancel your trip.",
    opening="Hi, please cancel my trip to York.",
    known={"booking id": "BK1234", "email": "ann@example.com"},
)


def test_it_gives_exactly_what_the_agent_asks_for() -> None:
    assert reply(SCENARIO, "Could you tell me your booking id?") == "My booking id is BK1234."
    assert reply(SCENARIO, "What is your e-mail address?") == "My email is ann@example.com."
    assert reply(SCENARIO, "Your booking number and email, please?") == (
        "My booking id is BK1234. My email is ann@example.com."
    )


def test_synonyms_and_whole_keys() -> None:
    assert asks_for("What's your booking reference?", "booking id")
    assert not asks_for("Which booking do you mean?", "booking id")  # no word for "id"
    assert not asks_for("What is your customer id?", "booking id")


def test_confirmation_follows_the_scenario() -> None:
    ask = "I am about to cancel booking BK1234. Shall I proceed?"
    assert reply(SCENARIO, ask) == YES
    quote_only = SCENARIO.model_copy(update={"accepts_changes": False})
    assert reply(quote_only, ask) == NO


def test_a_request_to_go_ahead_is_answered_before_the_keys_it_names() -> None:
    ask = "I am about to cancel booking id BK1234 for ann@example.com. Shall I proceed?"
    assert reply(SCENARIO, ask) == YES


def test_unknown_questions_and_statements() -> None:
    assert reply(SCENARIO, "What is your date of birth?") == DONT_KNOW
    assert reply(SCENARIO, "Your booking is cancelled; 45.00 will be refunded.") is None


def test_a_statement_that_mentions_a_key_asks_nothing() -> None:
    # Seen with the local model: statements answered as if they were questions.
    assert reply(SCENARIO, "The booking id is 5137.") is None
    assert reply(SCENARIO, "I have found your booking id and your email in our system.") is None
    # A request without a question mark is still a request.
    assert reply(SCENARIO, "Please tell me your booking id.") == "My booking id is BK1234."


def test_go_ahead_confirms_only_a_proposal() -> None:
    # Seen with the local model: "No, please don't change anything." to an invitation.
    assert reply(SCENARIO, "Please go ahead and ask your question.") is None
    assert reply(SCENARIO, "Go ahead: what can I help you with?") == DONT_KNOW
    assert reply(SCENARIO, "Would you like me to go ahead with the cancellation?") == YES
    assert reply(SCENARIO, "I will cancel booking BK1234. Is that correct?") == YES


def test_an_agent_saying_the_same_thing_again_and_again_is_in_circles() -> None:
    ask = "Could you tell me your booking id?"
    assert not in_circles([ask, ask])
    assert in_circles(["Hello.", ask, ask, " could you tell me your BOOKING id? "])
    assert not in_circles([ask, ask, "Could you tell me your email?"])
    assert CIRCLE == 3
