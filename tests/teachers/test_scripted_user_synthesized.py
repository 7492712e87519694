"""The scripted user's failure classes found by synthesize's capable solver (issue 47, S2 and S3),
each with the turns the agent wrote: a day is a date, a doctor is the "doctor name", a choice
question is answered with the option the caller holds (not a yes), an "e.g." example asks for
nothing, and a scenario with no `wants` never says "I only wanted to ."."""

from __future__ import annotations

from toolscale.core.contract import UserScenario
from toolscale.dialogue.scripted_user import ScriptedUser
from toolscale.dialogue.user_asked import asks_for


def scenario(known: dict[str, str], wants: str = "") -> UserScenario:
    return UserScenario(
        reason_for_call="You call about your account.",
        opening="Hi, I need some help, please.",
        known=known,
        wants=wants,
        manner="polite",
    )


def talk(known: dict[str, str], *messages: str) -> list[tuple[str, str | None]]:
    person = ScriptedUser(scenario(known))
    return [(person.reply(m), person.kind)[::-1] for m in messages]


def test_which_day_asks_for_the_date_even_beside_an_example() -> None:
    # S3: "Which day will she be off for the appointment (e.g. 2025-10-09)?" -> "I'm afraid I
    # don't know that." while the card held "date": "2025-10-08"
    known = {"student id": "S66791", "date": "2025-10-08"}
    kind, text = talk(known, "Which day will she be off for the appointment (e.g. 2025-10-09)?")[0]
    assert kind == "give" and "2025-10-08" in str(text) and "2025-10-09" not in str(text)
    assert asks_for("What day would suit you?", "date")
    assert not asks_for("Is there anything else today?", "date")


def test_which_doctor_asks_for_the_doctor_name() -> None:
    # S2: "Which doctor would you like to see?" -> "I don't have that information."
    assert asks_for("Which doctor would you like to see?", "doctor name")
    assert asks_for("Who is your doctor?", "doctor name")
    kind, text = talk({"doctor name": "Dr. David Le"}, "Which doctor would you like to see?")[0]
    assert kind == "give" and "Dr. David Le" in str(text)
    # the doctor mentioned in a statement asks for nothing, nor a name without "which" or "who"
    assert not asks_for("Your doctor will see you then. Anything else?", "doctor name")


PLANS = (
    "Your trip TP33183 has no insurance yet. The premiums are:\n\n- Basic plan: $71.20\n"
    "- Comprehensive plan: $124.60\n\nA trip can take one plan. Which one would you like me "
    "to add to trip TP33183?"
)


def test_a_choice_question_gets_the_option_the_caller_holds_not_a_yes() -> None:
    # S2: both answered "Yes, please go ahead." by a caller who wants the comprehensive plan
    known = {"email": "anna@example.com", "insurance plan": "comprehensive"}
    assert talk(known, PLANS)[0] == ("pick", "Comprehensive plan: $124.60, please.")
    either = "Should I add the basic plan ($71.20) or the comprehensive plan ($124.60)?"
    assert talk(known, either)[0] == ("pick", "Comprehensive, please.")
    # an offer to go ahead or leave things is still a proposal, and options none of their
    # details names are not picked
    kind, _ = talk(known, "Shall I add the comprehensive plan, or leave things as they are?")[0]
    assert kind == "yes"
    assert talk({"email": "anna@example.com"}, PLANS)[0][0] != "pick"


def test_no_wants_no_empty_only_asked() -> None:
    # S2: "Not all of them, please. I only wanted to ." from a scenario with no `wants`
    person = ScriptedUser(scenario({"email": "a@b.test"}))
    text = person.reply("Shall I cancel all three of your appointments (AP1, AP2 and AP3)?")
    assert text is not None and "only wanted to ." not in text


def test_a_which_question_naming_the_openings_detail_still_asks_which() -> None:
    # G3: "Which one would you like moved to the lower section?" after two orders, to a caller
    # whose opening asked for the lower section and who holds the upper one: "Um, it's lower, I
    # believe." (the opening's section given back) instead of the order it means
    person = ScriptedUser(
        UserScenario(
            reason_for_call="You want your ticket order moved to the lower section.",
            opening="I need to put my ticket order for Friday's game in the lower section.",
            known={"email": "a@b.test", "seating section": "upper"},
            stated={"section": "lower"},
            wants="put my ticket order for Friday's game in the lower section",
            manner="polite",
        )
    )
    person.reply("Could you give me your email?")
    which = (
        "You hold two orders for that game:\n\n1. TK50921: 5 courtside seats\n"
        "2. TK50922: 2 upper-section seats\n\nWhich one would you like moved to the lower section?"
    )
    text = person.reply(which)
    assert person.kind == "pick" and text is not None and "TK50922" in text


def test_first_second_and_new_details_are_asked_by_their_kind() -> None:
    # S5: "Which snacks would you like, and how many of each?" and "Which plan would you like
    # to move to?" answered "I'm afraid I don't know that." by callers holding "first snack",
    # "first snack quantity" ... and "new plan"
    assert asks_for("Which snacks would you like, and how many of each?", "first snack")
    assert asks_for("Which snacks would you like, and how many of each?", "second snack quantity")
    assert asks_for("Which plan would you like to move to?", "new plan")
    assert not asks_for("Which plan would you like to move to?", "first snack")
    kind, text = talk({"new plan": "plus"}, "Which plan would you like to move to?")[0]
    assert kind == "give" and "plus" in str(text)


def after_full_seating() -> ScriptedUser:
    """A caller who wants Olive Fig at 20:00, else 19:30, having said so."""
    person = ScriptedUser(
        scenario({"restaurant": "Olive Fig", "time": "20:00", "second-choice time": "19:30"})
    )
    person.reply("Which restaurant, and which seating time?")
    return person


def test_after_a_refusal_the_option_they_picked_is_their_own_change() -> None:
    # S5: "20:00 is full ... (19:00 or 19:30)?" -> "19:30, please." -> "Shall I book ... at
    # 19:30?" -> "No, thank you, please leave it as it is."
    person = after_full_seating()
    full = (
        "I'm sorry: Olive Fig has no table left at 20:00, so that seating can't be booked. "
        "Would you like me to check 19:00 or 19:30 instead?"
    )
    picked = person.reply(full)
    assert person.kind == "pick" and picked is not None and "19:30" in picked
    person.reply("Shall I book a table for 2 at Olive Fig at 19:30? Please reply yes to confirm.")
    assert person.kind == "yes"
    # an option they did not pick is still turned down after the refusal
    other = after_full_seating()
    other.reply(full)
    other.reply("Shall I book a table for 2 at Olive Fig at 13:00 instead?")
    assert other.kind == "no"
