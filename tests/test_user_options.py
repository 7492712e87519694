"""Options a caller cannot tell apart (`toolscale.dialogue.scripted_user`): the caller picks the
one a detail of theirs names, and when none does, says once what they want instead of "I don't
know"; the panel's options agent matches that against what it listed."""

from __future__ import annotations

from tests.panel.agent import _Talk, agreed
from tests.panel.endpoints import user_answer
from tests.panel.voices import Voice
from toolscale.core.contract import UserScenario
from toolscale.dialogue.scripted_user import reply

WANTS = "get first-class seats for the York to Cambridge train I booked (standard class)"
SCENARIO = UserScenario(
    reason_for_call="You want a more comfortable seat.",
    opening=f"Hi, I'd like to {WANTS}.",
    known={"customer id": "C69150"},
    manner="polite",
    wants=WANTS,
)
# The listing shows station codes: none of the caller's words or details picks a booking.
LISTED = (
    "I found these on your record:\n"
    "- BK4299 (travel date 2025-06-16, origin YRK, destination CAM)\n"
    "- BK4300 (travel date 2025-07-05, origin MAN, destination LIV)\n"
    "Which one do you mean?"
)


def test_options_none_of_their_details_picks_get_what_they_want_once() -> None:
    first = reply(SCENARIO, [LISTED])
    assert first == f"I'm not sure which of those it is, sorry. I'd like to {WANTS}."
    again = reply(SCENARIO, [LISTED, LISTED])
    assert again is not None and WANTS not in again  # said once, then a non-answer


def test_a_detail_that_names_an_option_still_picks_it() -> None:
    dated = SCENARIO.model_copy(update={"known": {"travel date": "2025-07-05"}})
    picked = reply(dated, [LISTED])
    assert picked is not None and picked.startswith("BK4300") and WANTS not in picked


def test_the_panels_llm_user_and_options_agent_do_the_same() -> None:
    view = [{"role": "user", "content": SCENARIO.opening}, {"role": "user", "content": LISTED}]
    assert user_answer(SCENARIO, view) == f"I'm not sure which one that is. I want to {WANTS}."
    talk = _Talk(SCENARIO, Voice("options"), SCENARIO.opening)
    options = [("BK4299 (...)", "BK4299", []), ("BK4300 (...)", "BK4300", [])]
    turns = talk.picked(options, "BK4299")
    next(turns)  # the listing
    try:
        turns.send(f"Not sure which. I want to {WANTS}.")
    except StopIteration as done:
        assert done.value is True
    else:
        raise AssertionError("the agent did not take the description as the caller's pick")


def test_a_terse_ok_to_naming_what_they_said_is_a_proposal_not_a_request() -> None:
    # "item" is a word of the proposal, and the caller said their item in the opening
    exchange = UserScenario(
        reason_for_call="The size is wrong.",
        opening="I'd like to exchange the Canvas Sneaker in size 8 for size 11.",
        known={"email": "d@example.net"},
        stated={"item": "the Canvas Sneaker in size 8", "option": "size 11"},
        manner="polite",
        wants="exchange the Canvas Sneaker in size 8 for size 11",
    )
    proposal = "OK to exchange item (order id O1, variant id V1, new variant id V2)?"
    answer = reply(exchange, ["Your email?", proposal])
    assert answer is not None and agreed(answer) is True  # a yes, not the item again
    assert reply(exchange, ["Your email?", "Your item?"]) is not None
    assert "Canvas Sneaker" in (reply(exchange, ["Your email?", "Which item?"]) or "")
