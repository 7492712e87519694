"""What the s1 capable-proposer run lacked: facts from a scalar result, a list element, a value
the gold execution fills in, a refusal's reason from the refused call's error, the details a
write takes, counts of records naming a shown one, one real result per tool, and the arguments'
allowed values in the tool list."""

from __future__ import annotations

import asyncio
import random

from toolscale.core.registry import get_domain
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool
from toolscale.synthesize import filters
from toolscale.synthesize.accept import Checked, check_candidate
from toolscale.synthesize.candidates import Candidate
from toolscale.synthesize.facts import Fact, check_facts, refused_facts
from toolscale.synthesize.prompts import tool_lines
from toolscale.synthesize.returns import example_arguments, tool_returns
from toolscale.synthesize.rows import base_state
from toolscale.synthesize.view import entity_view, usage

SCHOOL = get_domain("school")


def ok(output: str) -> CallOutcome:
    return CallOutcome(output, "ok")


def test_a_scalar_result_is_the_value_whatever_the_field():
    kept, problems = check_facts(
        SCHOOL, [Fact(value="33.50", action=0, field="result")], [ok("33.5")]
    )
    assert problems == [] and [(f.value, f.field) for f in kept] == [("33.5", "")]


def test_a_list_field_states_each_of_its_elements():
    kept, problems = check_facts(
        SCHOOL, [Fact(value="10", action=0, field="years")], [ok('{"years": [9, 10]}')]
    )
    assert problems == [] and [(f.value, f.field) for f in kept] == [("10", "years.1")]


def test_a_value_left_out_is_filled_from_its_field():
    result = ok('{"invoice_id": "IN99", "amount": 5}')
    kept, problems = check_facts(SCHOOL, [Fact(action=0, field="invoice_id")], [result])
    assert problems == [] and [f.value for f in kept] == ["IN99"]
    kept, problems = check_facts(SCHOOL, [Fact(action=0, field="lines")], [result])
    assert kept == [] and "holds no single value" in problems[0]


def test_a_refusal_states_what_its_rule_shows_first():
    """The movie age rule shows the film's rating: a refusal's fact is "15", not the caller's
    own birth date, which its error also states (synthesize S5: "you will be 14 on
    2025-09-29" was a right reason, rejected for lacking 2010-12-28)."""
    look = [
        '{"customer_id": "C7", "birth_date": "2010-12-28"}',
        '{"showing_id": "S3", "rating": "15", "date": "2025-09-29"}',
    ]
    message = "Error: Northern Static is rated 15, and customer C7, born 2010-12-28, is 14"
    assert refused_facts(message, look, said="") == ["2010-12-28", "15"]
    assert refused_facts(message, look, said="", shows=("15",)) == ["15"]
    # a shown value no look-up states (or the caller says) falls back to the message's
    assert refused_facts(message, look, said="", shows=("16",)) == ["2010-12-28", "15"]


def test_a_refusal_states_a_word_or_number_of_its_error():
    look = ['{"name": "Year 8 Robotics", "capacity": 18, "taken": 18, "elective": true}']
    message = "Error: Year 8 Robotics is full (18 places)"
    assert refused_facts(message, look, said="") == ["18"]  # the name has spaces: not a word
    plain = "Error: the class is full (18 places)"
    assert refused_facts(plain, look, said="a class of 18") == []  # the caller says it
    refusal = CallOutcome(message, "error")
    facts = [Fact(value="full", action="refused"), Fact(action="refused")]
    kept, problems = check_facts(SCHOOL, facts, [ok(look[0])], refusal, "")
    assert problems == [] and [f.value for f in kept] == ["full", "18"]
    kept, problems = check_facts(
        SCHOOL, [Fact(value="closed", action="refused")], [ok(look[0])], refusal, ""
    )
    assert kept == [] and "does not state it" in problems[0] and "full" in problems[0]
    # a value the caller says themselves gives way to what else the error states (S9: the
    # purchase date on the caller's statement, for a dispute the policy refuses as too old)
    dated = CallOutcome("Error: TX-1 is dated 2025-03-26, more than 60 days ago", "error")
    look = ['{"transaction_id": "TX-1", "date": "2025-03-26", "amount": -285.39}']
    said = "a purchase of 285.39 dated 26 March 2025"
    facts = [Fact(value="2025-03-26", action="refused")]
    kept, problems = check_facts(SCHOOL, facts, [ok(look[0])], dated, said)
    assert problems == [] and [f.value for f in kept] == ["60"]
    _, problems = check_facts(SCHOOL, [Fact(value="full", action="refused")], [ok(look[0])])
    assert "names no `refused` call" in problems[0]


def absence(known: dict[str, str]) -> Candidate:
    return Candidate(
        reason_for_call="Your daughter will miss school.",
        opening="My daughter will be off school.",
        known=known,
        actions=[
            {
                "name": "report_absence",
                "arguments": {"student_id": "S1", "date": "2025-10-08", "reason": "illness"},
            }
        ],
    )


def test_every_detail_a_write_takes_is_given_by_the_caller():
    said = filters.said_by(absence({"student id": "S1"}))
    problems = filters.detail_problems(SCHOOL, absence({"student id": "S1"}), [], said)
    assert [p.split(",")[0] for p in problems] == [
        "gold action 0 (report_absence) takes date '2025-10-08'",
        "gold action 0 (report_absence) takes reason 'illness'",
    ]
    full = absence({"student id": "S1", "absence date": "8 October 2025", "reason": "illness"})
    assert filters.detail_problems(SCHOOL, full, [], filters.said_by(full)) == []


def test_a_code_of_several_words_may_be_said_in_other_words():
    # S13: the dispute reason "incorrect_amount" for a caller who knows "the amount charged was
    # incorrect"; one of its words missing is still not given
    bank = get_domain("bank")
    for said, given in (
        ("dispute reason: the amount charged was incorrect", True),
        ("dispute reason: I was charged twice", False),
    ):
        assert filters._given(bank, "incorrect_amount", said) is given


def test_a_question_needs_a_fact_the_caller_does_not_say():
    question = Candidate(
        reason_for_call="You ask about your bills; your email is a@b.test.",
        opening="What do I owe?",
        actions=[{"name": "find_guardian_by_email", "arguments": {"email": "a@b.test"}}],
        communicate_info=[{"value": "a@b.test", "action": 0, "field": "email"}],
    )
    assert "names no fact" in filters.question_problems(question, write=False)[0]
    assert filters.question_problems(question, write=True) == []
    refusal = Candidate.model_validate(
        {
            **question.model_dump(),
            "refused": {"name": "pay_invoice", "arguments": {"invoice_id": "IN1"}},
        }
    )
    assert filters.question_problems(refusal, write=False) == []


def test_counts_of_records_naming_a_shown_one():
    state = {
        "bookings": {
            "B1": {"venue": "V1", "date": "2025-07-20", "time": "21:00", "status": "confirmed"},
            "B2": {"venue": "V1", "date": "2025-07-20", "time": "21:00", "status": "confirmed"},
            "B3": {"venue": "V1", "date": "2025-07-01", "time": "21:00", "status": "confirmed"},
            "B4": {"venue": "V1", "date": "2025-07-21", "time": "19:00", "status": "cancelled"},
        },
        "enrolments": {"E1": {"class": "C1", "on": "2025-01-01"}, "E2": {"class": "C1"}},
    }
    shown = {"venues": {"V1": {"tables": 3}}, "classes": {"C1": {"size": 2}, "C2": {"size": 4}}}
    counted = usage(state, shown, {"bookings", "enrolments"}, "2025-07-10")
    assert counted["venues"]["V1"]["bookings naming it"] == {
        "2025-07-20 21:00 confirmed": 2,
        "2025-07-21 19:00 cancelled": 1,
    }
    assert counted["classes"] == {
        "C1": {"size": 2, "enrolments naming it": 2},
        "C2": {"size": 4},
    }


def test_example_arguments_come_from_the_records_the_tool_names():
    records = {"guardians": {"G1": {"name": "Ann Lee"}}, "classes": {"C1": {"name": "Year 8 Art"}}}
    schemas = {s["function"]["name"]: s["function"]["parameters"] for s in SCHOOL.toolkit.schemas()}
    assert example_arguments("find_class", schemas["find_class"], records) == {"name": "Year 8 Art"}
    assert example_arguments("calculate", schemas["calculate"], records) == {
        "expression": "(12.5 * 3) - 4"
    }
    assert example_arguments("get_student", schemas["get_student"], records) is None
    # an id named by its end, two accounts apart, and a count nothing gives (S6-S9's views
    # showed no call of a transfer or of add_luggage)
    transfer = {
        "properties": {
            "from_account_id": {"type": "string"},
            "to_account_id": {"type": "string"},
            "amount": {"type": "number"},
        },
        "required": ["from_account_id", "to_account_id", "amount"],
    }
    accounts = {"accounts": {"A1": {"account_id": "ACC-1"}, "A2": {"account_id": "ACC-2"}}}
    assert example_arguments("transfer_funds", transfer, accounts) == {
        "from_account_id": "ACC-1",
        "to_account_id": "ACC-2",
        "amount": 1,
    }


def test_the_tool_list_says_what_each_argument_allows():
    line = next(x for x in tool_lines(SCHOOL).splitlines() if x.startswith("- report_absence"))
    assert "reason: string (illness, appointment or holiday.)" in line


def test_tool_returns_and_a_refusal_run_in_the_sandbox():
    state = base_state(SCHOOL, 0, 0)
    view = entity_view(SCHOOL, state, random.Random(1), 4000)
    maths = next(
        e
        for e in state["enrolments"].values()
        if e["subject"] == "Maths" and e["student_id"] == "S31704"
    )
    refusal = Candidate(
        reason_for_call="You want your daughter Jennifer out of her Maths class.",
        opening="I'd like my daughter to stop one of her classes.",
        known={"student id": "S31704"},
        actions=[{"name": "list_enrolments", "arguments": {"student_id": "S31704"}}],
        refused={"name": "drop_class", "arguments": {"enrolment_id": maths["enrolment_id"]}},
        communicate_info=[{"value": "core", "action": "refused"}],
    )
    allowed = Candidate.model_validate(
        {
            **refusal.model_dump(),
            "refused": {"name": "list_invoices", "arguments": {"student_id": "S31704"}},
        }
    )

    async def go() -> tuple[str, Checked, Checked]:
        async with SandboxPool(1) as pool:
            text = await tool_returns(pool, SCHOOL, state, view.records)
            done = await check_candidate(pool, SCHOOL, state, refusal, "read", False)
            wrong = await check_candidate(pool, SCHOOL, state, allowed, "read", False)
            return text, done, wrong

    text, done, wrong = asyncio.run(go())
    assert text.startswith("# What the tools return")
    assert '- calculate(expression="(12.5 * 3) - 4") returns: 33.5' in text.splitlines()
    assert done.stage == "" and done.candidate.facts == ["core"] and not done.write
    assert done.rule == "core_subject" and wrong.rule == ""  # the rule the refused call breaks
    assert done.candidate.scenario(done.write).accepts_changes is False
    assert wrong.stage == "execution" and "does not refuse it" in wrong.problems[0]


def test_a_number_the_policy_states_is_given_to_a_caller_asking_for_the_bound():
    # "raise it to 4000, or the highest I'm allowed": the gold sets the policy's maximum
    def limit(opening: str) -> Candidate:
        return Candidate(
            reason_for_call="You want a higher daily limit on your card CARD-1.",
            opening=opening,
            actions=[
                {
                    "name": "update_daily_limit",
                    "arguments": {"card_id": "CARD-1", "new_limit": 3000},
                }
            ],
        )

    bank = get_domain("bank")
    assert "3000" in bank.policy.replace(",", "")
    asks_most = limit("Raise it to 4000, or the highest I'm allowed.")
    assert filters.detail_problems(bank, asks_most, [], filters.said_by(asks_most)) == []
    asks_4000 = limit("Raise it to 4000.")
    assert filters.detail_problems(bank, asks_4000, [], filters.said_by(asks_4000))
