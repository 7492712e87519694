"""The scripted user's failure classes of issue 46, each with turns a capable LLM agent wrote
(quoted or of the same form): it never says the agent's words back, gives what it holds when its
field is asked in any wording, says what it lacks and offers what it has, reads an apology as no
refusal, answers every request form, takes a go-ahead statement as a proposal, never turns down
the change it called for, and restates its request when it cannot tell what was asked."""

from __future__ import annotations

from toolscale.core.contract import UserScenario
from toolscale.dialogue.scripted_user import ScriptedUser


def user(**fields: object) -> UserScenario:
    base: dict[str, object] = {
        "reason_for_call": "You call the bank.",
        "opening": "Hi, what do my checking and savings add up to?",
        "manner": "polite",
        "wants": "know what my checking and savings add up to",
    }
    return UserScenario(**{**base, **fields})


def talk(scenario: UserScenario, *messages: str) -> list[tuple[str, str | None]]:
    person = ScriptedUser(scenario)
    return [(person.reply(m), person.kind)[::-1] for m in messages]


IDENTIFY = (
    "Hello! I can help with that. First I need to identify you: could you please give me the "
    "email address on your profile, or your customer id?"
)


def test_an_either_or_request_gets_the_held_value_not_the_question_back() -> None:
    # was: "It's could you please give me the email address on your profile, thank you."
    kind, text = talk(user(known={"customer id": "CUS-82850"}), IDENTIFY)[0]
    assert kind == "give" and "CUS-82850" in str(text) and "could you" not in str(text).lower()
    kind, text = talk(user(known={"email": "a@b.test"}), IDENTIFY)[0]
    assert kind == "give" and "a@b.test" in str(text)


def test_asked_for_what_they_lack_they_say_so_and_offer_what_they_hold() -> None:
    kind, text = talk(user(known={"booking reference": "B653796"}), IDENTIFY)[0]
    assert kind == "give" and "don't have" in str(text) and "B653796" in str(text)
    # asked again for what they lack, having given all they have: that one again, not "No idea"
    again = "Sorry, I need the email address on your profile or your customer id. What is it?"
    kind, text = talk(user(known={"booking reference": "B653796"}), IDENTIFY, again)[1]
    assert kind == "give" and "B653796" in str(text)


def test_an_everyday_name_of_a_field_asks_for_it() -> None:
    # "customer number" is the "customer id"; "booking id" the "booking reference"
    ask = "Could you tell me your customer number?"
    assert "C2371" in str(talk(user(known={"customer id": "C2371"}), ask)[0][1])
    ask = "What is your booking id?"
    assert "B1" in str(talk(user(known={"booking reference": "B1"}), ask)[0][1])


def test_a_listing_of_fields_is_a_request_not_options_to_pick() -> None:
    # was: "The season pass id (like SP123), please." / "Sheri's student id."
    ask = (
        "I only need one of these: the season pass id (like SP123), your fan number, or the "
        "email address on your account. Which one can you give me?"
    )
    kind, text = talk(user(known={"fan number": "F4695"}), ask)[0]
    assert kind == "give" and "F4695" in str(text) and "SP123" not in str(text)


def test_a_long_option_is_never_said_back() -> None:
    # was: "Sending $251.00 to a payee from your checking account would cost a $5.01 fee, I
    # believe."
    ask = (
        "There are two ways: sending $251.00 to a payee from your checking account, or moving "
        "it from your savings account first. Which would you like?"
    )
    text = talk(user(known={"customer id": "C1"}), ask)[0][1]
    assert "$251.00 to a payee" not in str(text) and "from your checking" not in str(text)


def test_options_with_an_id_asked_get_the_id_not_not_sure_which() -> None:
    ask = (
        "I see two bookings:\n- BK1 (2025-06-16)\n- BK2 (2025-07-05)\n"
        "Which one is it? If you're not sure, please give me the booking id."
    )
    text = talk(user(known={"booking id": "BK2"}), ask)[0][1]
    assert "BK2" in str(text) and "not sure" not in str(text)


def test_an_apology_or_cannot_find_is_no_refusal() -> None:
    saver = user(known={"email": "a@b.test"}, wants="cancel my booking", accepts_changes=True)
    sorry = "I'm afraid I don't have your booking id. Could you give me your email?"
    found = (
        "I can't find it under that id, but I found booking BK1 by your email. Shall I cancel it?"
    )
    replies = talk(saver, sorry, found)
    assert replies[0][0] == "give" and "a@b.test" in str(replies[0][1])
    assert replies[1][0] == "yes"


def test_a_cancellation_reason_no_longer_needed_is_no_refusal() -> None:
    # tau2 retail's gold step: was "No, please don't change anything."
    shopper = user(known={"order id": "#W5199551"}, wants="", accepts_changes=True)
    for step in (
        "All set to cancel pending order (order #W5199551, reason no longer needed). "
        "OK to proceed?",
        "Before I go ahead: I am about to cancel pending order (order #W9373487, reason no "
        "longer needed). Shall I proceed?",
        "I can cancel pending order (order #W9348897, reason no longer needed) for you now. "
        "Should I do that?",
    ):
        assert talk(shopper, step)[0][0] == "yes"


def test_every_request_form_is_answered() -> None:
    holder = user(known={"customer id": "CUS-1"})
    for ask in (
        "I need your email or customer id. Just send me one.",
        "Please type one of these: your email or your customer id.",
        "Type your customer id below.",
        "Your customer id, please.",
    ):
        kind, text = talk(holder, ask)[0]
        assert kind == "give" and "CUS-1" in str(text), ask
    # several at once
    both = user(known={"customer id": "CUS-1", "account type": "checking"})
    text = talk(both, "Please send me your customer id and the account type.")[0][1]
    assert "CUS-1" in str(text) and "checking" in str(text)


def test_a_go_ahead_statement_is_a_proposal() -> None:
    # was: "I don't think I know that"
    mover = user(known={"booking id": "BK1"}, wants="cancel my booking", accepts_changes=True)
    offer = "I can cancel booking BK1 for you now. Let me know if you'd like to go ahead."
    assert talk(mover, offer)[0][0] == "yes"


def test_it_never_declines_the_change_it_called_for() -> None:
    # a decline caller (turns down cancelling the trip) asked to drop one stay of it
    stay = user(
        known={"trip id": "TP41673"},
        wants="drop my stay at Coral Palace from Friday 26 September from my trip",
        behaviour="decline",
        declines=["trip"],
    )
    ask = "On your Osaka trip TP41673 I found stay ST19088. Shall I cancel stay ST19088 now?"
    assert talk(stay, ask)[0][0] == "yes"
    offer = "One more thing I can do: cancel trip TP41673. Do you want me to go ahead with that?"
    assert talk(stay, offer)[0][0] == "decline"


def test_an_offer_it_did_not_call_for_is_turned_down_without_dont_know() -> None:
    done = user(known={"email": "a@b.test"}, wants="stop my card", accepts_changes=True)
    offer = "Your card is blocked. If you'd like a replacement card, just let me know."
    kind, text = talk(done, offer)[0]
    assert kind == "no" and "know" not in str(text).lower().replace("i don't know", "")


def test_when_it_cannot_tell_what_was_asked_it_restates_its_request() -> None:
    mover = user(known={"booking id": "BK1"}, wants="cancel my booking")
    kind, text = talk(mover, "Please reply with one of these.")[0]
    assert kind == "restate" and "cancel my booking" in str(text) and "BK1" in str(text)


def test_a_proposal_of_both_things_asked_for_is_accepted_not_narrowed() -> None:
    # H1 (seed 466691): "Shall I go ahead with both?" got "Not all of them, please: only RS39054."
    wants = "add a quiet corner to my Copper Lantern dinner and cancel my Harbour Spoon lunch"
    both = (
        "I found both reservations:\n1. Copper Lantern, Sunday 20 July at 18:00 (RS39054): I "
        "will add the request.\n2. Harbour Spoon, Wednesday 16 July at 12:30 (RS39053): I will "
        "cancel it.\nShall I go ahead with both?"
    )
    kind, _ = talk(user(wants=wants, opening=f"Hi, I want to {wants}."), both)[0]
    assert kind == "yes"
    # one of them asked for: still only that one
    one = user(wants="cancel my Harbour Spoon lunch", opening="Cancel my Harbour Spoon lunch.")
    kind, text = talk(one, both)[0]
    assert kind == "only" and ("RS39053" in str(text) or "Harbour" in str(text))


def test_both_passengers_of_one_booking_is_no_proposal_on_several_records() -> None:
    # H1: "first-class fare for both passengers ... Shall I upgrade?" got "No, only RW585."
    upgrade = user(wants="upgrade my booking BK4504 to first class", opening="Upgrade BK4504.")
    said = (
        "Booking BK4504 is on train RW585, standard class. Upgrading costs $146.62 (first-class "
        "fare for both passengers, minus what you paid). Shall I go ahead with the upgrade?"
    )
    assert talk(upgrade, said)[0][0] == "yes"


def test_a_json_answer_is_read_as_its_answer() -> None:
    # H1: a refusal in {"answer": ...} got "I think it's \"I am sorry." (an option read out of
    # the JSON and the agent's words picked back)
    said = (
        '{"answer": "I am sorry, but I cannot swap booking B1: that showing has no seats '
        'left. Nothing has changed.", "confidence": 0.95}'
    )
    kind, text = talk(user(manner="unsure"), said)[0]
    assert "sorry" not in str(text).lower() and kind != "pick"


def test_a_request_for_an_id_they_lack_in_a_message_that_offers_is_no_yes() -> None:
    # I1 (seed 686011): "I can do the upgrade for you ... could you give me the order number,
    # or the email address on your account? ... and only go ahead once you say yes." got
    # "Okay, yes, if that's right." from a caller holding only a customer id
    said = (
        "I can do the upgrade for you. First I need to find your order: could you give me the "
        "order number, or the email address on your account? Then I'll check the cost, and only "
        "go ahead once you say yes."
    )
    kind, text = talk(user(known={"customer id": "K2975"}), said)[0]
    assert kind == "give" and "K2975" in str(text)


def test_an_assurance_of_what_it_will_not_need_is_no_refusal() -> None:
    # round K: "I won't need to look at your payees" read as a refusal, after which the caller
    # turned down its own limit change ("Please don't do that; I just wanted to set ...")
    caller = user(
        known={"email": "a@b.test"},
        wants="set the daily cap on my Visa debit card ending in 0645 at a thousand dollars",
        accepts_changes=True,
    )
    assure = "I can help with that, and I won't need to look at your payees. " + IDENTIFY
    offer = "I am about to set the daily spending limit of this card to $1,000. Shall I go ahead?"
    assert [kind for kind, _ in talk(caller, assure, offer)] == ["give", "yes"]
    # a refusal stays one: the caller, refused, turns an offer of another change down
    refused = "I'm sorry, I won't raise the limit above your tier's $3,000. Shall I set $3,000?"
    other = user(wants="make the daily limit of my card 3500 dollars", accepts_changes=True)
    assert talk(other, refused)[0][0] == "no"


def test_a_limit_change_in_other_words_is_the_change_it_called_for() -> None:
    # "raise", "set", "update", "lower" name one change; a refusal before it does not make the
    # caller decline its own request
    caller = user(wants="raise the daily limit on my card to two thousand dollars",
                  accepts_changes=True)  # fmt: skip
    for offer in (
        "I cannot do it without your card. Found it. Shall I set the daily limit to $2,000?",
        "I can't see a problem. Shall I update the daily limit of card 1 to $2,000?",
    ):
        assert talk(caller, offer)[0][0] == "yes", offer


def test_records_described_together_are_no_proposal_on_several() -> None:
    # issue 47 run E: "I see two booked drums lessons, both on Wednesdays ... shall I cancel
    # lesson LS34136?" was answered "Hmm, not all of them, I think. Only LS34136, please."
    caller = user(wants="cancel my drums lesson on Wednesday 24 September", accepts_changes=True,
                  manner="unsure")  # fmt: skip
    offer = (
        "I see two booked drums lessons, both on Wednesdays at 15:00: LS34135 on 17 September "
        "and LS34136 on 24 September. If it's 24 September, shall I cancel lesson LS34136?"
    )
    assert talk(caller, offer)[0][0] == "yes"
    several = "I see two lessons. Shall I cancel both lessons, LS34135 and LS34136?"
    assert talk(caller, several)[0][0] == "only"
