"""Facts and answers match as people write them, and nothing else does (docs/rewards.md,
"Facts and answers as people write them"). Each case was written by hand."""

from __future__ import annotations

import pytest

from toolscale.core.answers import (
    answer_matches,
    committed_answer,
    fact_stated,
    statements,
)
from toolscale.core.relative_days import policy_today
from toolscale.core.written import dates, numbers, times
from toolscale.economics.preferences import answer_text

TOLD = [
    # money
    ("1708.5", "That comes to $1,708.50 in total."),
    ("1708.5", "The balance is 1,708.50."),
    ("1708.5", "The balance is 1708.5 USD."),
    ("1708.5", "The balance is 1708.50 dollars."),
    ("45.0", "a fee of $45"),
    ("-10.0", "a low of \u221210 degrees"),
    # counts with units
    ("24", "a 24-year term"),
    ("24", "It lasts 24 years."),
    ("1", "only 1 lower-bowl seat is left"),
    # dates
    ("2025-09-13", "It was already paid on 13 September."),
    ("2025-09-13", "It was paid on Sep 13, 2025."),
    ("2025-09-13", "Paid 13/09/2025."),
    ("2025-09-13", "Paid on Saturday 13 September."),
    ("2025-09-13", "Paid on Saturday, September 13, 2025."),
    ("2025-09-13", "Paid on 2025-09-13."),
    ("2025-09-13", "Paid on 13 Sept."),
    ("2025-09-13", "Paid on the 13th of September 2025."),
    ("2025-09-13", "Paid on September 13th."),
    ("2025-09-13", "Paid 09/13/2025."),  # month first
    ("2025-07-29", "It was delivered on 29 July."),
    # times and a date with a time
    ("19:30", "Tip-off is at 7:30 pm."),
    ("19:30", "Tip-off is at 7.30 p.m."),
    ("19:30", "Tip-off is at 19:30."),
    ("18:00", "Doors open at 6pm."),
    ("2025-07-31 18:00", "Your table is on 31 July at 6 pm."),
    # text: case, spacing, "_" and "-", one spelling of cancelled
    ("no_show", "It was marked as a no-show."),
    ("cancelled", "The trip was canceled last week."),
    ("Dr. Phillip Abbott", "You will see dr.  Phillip Abbott."),
    ("Ashley Ray", "I sent it to ASHLEY RAY's account."),
    # a score or range of two short numbers states both; a negative amount by its size, said
    # as going down or coming back
    ("109", "The Bison beat the Titans 109-97."),
    ("97", "The Bison beat the Titans 109-97."),
    ("-3.5", "The difference of $3.50 is refunded to your card."),
    ("-76.95", "The new fare is $76.95 lower than what you paid."),
    # a name joined with its code, said apart (S3: a carrier and its tracking number)
    ("Northline Freight 2892822365", "Northline Freight, tracking number 2892822365."),
    ("Northline Freight 2892822365", "Tracking 2892822365 (carrier: Northline Freight)."),
]

NOT_TOLD = [
    ("1708.5", "That comes to $1,708.55."),  # another number
    ("1708.5", "That comes to $2,708.50."),
    ("45.0", "a fee of 145.00"),
    ("24", "It lasts 124 years."),
    ("2025-09-13", "It was paid on 14 September."),  # another date
    ("2025-09-13", "It was paid on 13 October."),
    ("2025-09-13", "It was paid on 13 September 2024."),  # another year
    ("2025-09-13", "It was paid on Friday 13 September."),  # 13 September 2025 is a Saturday
    ("2025-09-13", "It was paid on 2025-09-14."),
    ("2025-09-13", "Order 13092025 was paid."),
    ("19:30", "Tip-off is at 7:30 am."),  # another time
    ("19:30", "Tip-off is at 7:30."),  # no am or pm: not said which
    ("19:30", "Tip-off is at 19:45."),
    ("2025-07-31 18:00", "Your table is on 31 July."),  # the time is missing
    ("active", "The card is inactive."),  # whole words only
    ("SP20", "Season pass SP202 is cancelled."),
    ("Ashley Ray", "I sent it to Ashley Rayner."),
    ("555", "Call us on 555-7300."),  # a phone number's parts are no numbers
    ("-3.5", "The difference is $3.50."),  # said as no going down: a sign error
    ("Northline Freight 2892822365", "It went with Northline Freight."),  # the code missing
    ("Northline Freight 2892822365", "Tracking number 2892822365."),  # the name missing
    ("Year 9", "She is in Year 8, with 9 friends."),  # no code of four characters
]


@pytest.mark.parametrize(("fact", "message"), TOLD)
def test_a_fact_is_stated_in_any_ordinary_form(fact: str, message: str) -> None:
    assert fact_stated(fact, message)


@pytest.mark.parametrize(("fact", "message"), NOT_TOLD)
def test_another_value_is_not_the_fact(fact: str, message: str) -> None:
    assert not fact_stated(fact, message)


@pytest.mark.parametrize(
    ("fact", "message"),
    [
        ("50.0", "Shall I refund the $50?"),
        ("2025-09-13", "Is it the booking on 13 September?"),
        ("Dr. Phillip Abbott", "I checked. Would Dr. Phillip Abbott suit you?"),
    ],
)
def test_a_fact_only_asked_back_to_the_user_is_not_told(fact: str, message: str) -> None:
    assert fact_stated(fact, message)  # it is mentioned ...
    assert not fact_stated(fact, statements(message))  # ... but not told


def test_statements_keep_every_sentence_that_is_not_a_question() -> None:
    told = statements("Your refund is $50. Shall I send it to Dr. Abbott? It is on 3 May!")
    assert told == "Your refund is $50. It is on 3 May!"


JSON_ANSWERS = [
    ('{"answer": "1708.50", "confidence": 0.99}', "1708.5", True),  # bare
    ('{"answer": "$1,708.50", "confidence": 0.99}', "1708.5", True),
    ('{"answer": "The answer is 1708.50.", "confidence": 0.9}', "1708.5", True),
    ('{"answer": "It comes to $1,708.50.", "confidence": 0.9}', "1708.5", True),  # a sentence
    ('{"answer": 12, "confidence": 1.0}', "12", True),
    ('{"answer": "the Vell", "confidence": 0.8}', "Vell", True),
    ('{"answer": "1708.50", "confidence": 0.99}', "0.99", False),  # the confidence is not it
    ('{"answer": "either 12 or 13", "confidence": 0.5}', "12", False),  # two candidates
    ('{"answer": "12. 13", "confidence": 0.5}', "12", False),
    ('{"answer": "1,708.55", "confidence": 0.9}', "1708.5", False),  # another number
    ('{"answer": "Kelby Marsh Jr.", "confidence": 0.9}', "Kelby Marsh", False),
    ('{"answer": "", "confidence": 0.9}', "0", False),
]


@pytest.mark.parametrize(("final", "expected", "matches"), JSON_ANSWERS)
def test_a_json_answer_field_is_the_answer_bare_or_as_a_sentence(
    final: str, expected: str, matches: bool
) -> None:
    assert answer_matches(expected, final) is matches


def test_the_committed_answer_of_a_json_answer_is_its_field() -> None:
    assert committed_answer('{"answer": "1708.50", "confidence": 0.99}') == "1708.50"
    assert committed_answer('{"answer": "Answer: 7", "confidence": 1}') == "7"
    assert committed_answer('{"confidence": 0.9}') is None  # no field: no statement in it
    assert answer_text('{"answer": "It is 35.", "confidence": 0.9}') == "It is 35."


@pytest.mark.parametrize(
    ("expected", "message", "matches"),
    [
        ("1708.5", "The answer is $1,708.50.", True),
        ("24", "The answer is 24 years.", True),
        ("2025-09-13", "The answer is Saturday 13 September 2025.", True),
        ("2025-09-13", "The answer is 13/09/2025.", True),
        ("12", "The answer is either 12 or 13.", False),  # two candidate answers
        ("2025-09-13", "The answer is 12 or 13 September.", False),
        ("2025-09-13", "The answer is 14 September.", False),  # another date
        ("1708.5", "The answer is 1708.", False),  # another number
        ("12", "It takes 12 hours.", False),  # a number, but no statement
    ],
)
def test_a_plain_answer_statement_in_ordinary_forms(
    expected: str, message: str, matches: bool
) -> None:
    assert answer_matches(expected, message) is matches


def test_values_are_read_from_their_written_forms() -> None:
    assert numbers("$1,708.50 for 24 years on 2025-06-30 at 12:30, ticket TK60983") == [
        1708.5,
        24.0,
    ]
    assert [(d.year, d.month, d.day) for d in dates("Sep 13, 2025 and 1 March")] == [
        (None, 3, 1),
        (2025, 9, 13),
    ]
    assert {(d.month, d.day) for d in dates("05/09/2025")} == {(9, 5), (5, 9)}  # both readings
    assert [(d.year, d.month, d.day) for d in dates("in December 2025, 12 may")] == [(None, 5, 12)]
    assert times("at noon, 7pm or 7.30 a.m.; 7.30 is a decimal") == [(12, 0), (19, 0), (7, 30)]


def test_a_count_said_in_words_or_as_nothing_left_is_stated() -> None:
    # A capable agent said "Cedar Hearth has no table left at the 21:00 seating" of a required
    # tables_left of 0 (seed 427995) and was rejected; a careful grader passes it.
    assert fact_stated("0", "Cedar Hearth has no table left at the 21:00 seating.")
    assert fact_stated("0", "I'm sorry, that showing is sold out.")
    assert fact_stated("0", "The restaurant is fully booked that evening.")
    assert fact_stated("3", "I've changed it to three guests.")
    assert fact_stated("12", "Twelve seats are left.")
    # round M: a booking's "luggage": 0 said as "no bags"; "no problem" states no count
    assert fact_stated("0", "Booking BK3863 is unchanged, with no bags added.")
    assert not fact_stated("0", "No problem, I'll leave it as it is.")
    assert not fact_stated("0", "No problem at all, happy to help.")
    assert not fact_stated("1", "The one at the hilltop site, please.")  # "one" says too much else
    assert not fact_stated("3", "I've changed it to thirty guests.")


def test_a_date_said_by_its_distance_from_the_policys_today() -> None:
    today = policy_today("You work the desk. Today is 2025-07-14; the time now is 10:00.")
    assert today is not None and today.isoformat() == "2025-07-14"
    assert policy_today("Today's date is 2025-06-30; use it.") is not None
    assert policy_today("You work the desk.") is None
    said = "Free cancellation ended today at 12:30."
    assert fact_stated("2025-07-14 12:30", said, today)
    assert not fact_stated("2025-07-14 12:30", said)  # no clock: "today" names no date
    assert not fact_stated("2025-07-14 13:30", said, today)  # the date, not the time
    assert fact_stated("2025-07-15", "Your table is booked for tomorrow.", today)
    assert fact_stated("2025-07-13", "It was cancelled yesterday.", today)
    assert not fact_stated("2025-07-16", "Your table is booked for tomorrow.", today)


def test_relative_days_read_the_dates_they_can_mean() -> None:
    from datetime import date

    from toolscale.core.relative_days import relative_days

    monday = date(2025, 7, 14)
    iso = lambda text: sorted(d.isoformat() for d in relative_days(text, monday))  # noqa: E731
    assert iso("dinner this Wednesday") == ["2025-07-16"]
    assert iso("on Monday") == ["2025-07-14"]  # today is a Monday
    assert iso("next Monday") == ["2025-07-21", "2025-07-28"]  # people mean either
    assert iso("last Friday") == ["2025-07-11"]
    assert iso("the day after tomorrow") == ["2025-07-16"]
    assert iso("this weekend") == ["2025-07-19", "2025-07-20"]
    assert iso("Wednesday 16 July") == []  # a date said whole is `dates`' to read
    assert relative_days("this Wednesday, or tomorrow", monday, weekdays=False) == {
        date(2025, 7, 15)
    }


def test_a_word_fact_is_stated_in_the_plural_too() -> None:
    # synthesize S8: "Copper Fig (closed on Fridays)" states the closing day "Friday"
    assert fact_stated("Friday", "Copper Fig is closed on Fridays.")
    assert fact_stated("no_show", "Both were no-shows.")
    assert not fact_stated("SP20", "Plan SP20s is gone.")  # an id takes no plural
    assert not fact_stated("active", "The card is inactive.")


def test_stretches_of_days_read_as_their_days() -> None:
    from datetime import date

    from toolscale.core.relative_days import relative_days

    monday = date(2025, 7, 14)
    days = lambda text: sorted(d.day for d in relative_days(text, monday))  # noqa: E731
    assert days("a table at the end of the month") == [25, 26, 27, 28, 29, 30, 31]
    assert days("the start of next month") == [1, 2, 3, 4, 5, 6, 7]  # August
    assert days("sometime next week") == [21, 22, 23, 24, 25, 26, 27]
    assert days("this week") == [14, 15, 16, 17, 18, 19, 20]
