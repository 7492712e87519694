"""A careful reader's checks: each fails on a hand-made broken scenario, world or receipt, and no
preference sentence of 400 tasks per stateful domain names a tool unrelated to its task."""

from __future__ import annotations

import pytest

from toolscale.check.consistency import (
    invariant_problems,
    motives_of,
    past_first,
    scenario_problems,
)
from toolscale.check.receipts import receipt_problems
from toolscale.core.contract import Action, ToolKind, Toolkit, tool
from toolscale.core.preference import Preference, PreferenceVector
from toolscale.core.records import Task
from toolscale.core.registry import get_domain
from toolscale.core.scenario import UserScenario
from toolscale.economics.fit import plausible_avoid
from toolscale.economics.preferences import DEFAULT_SPREAD
from toolscale.kit.daytime import fits
from toolscale.kit.invariants import Invariant, not_after
from toolscale.kit.phrasing import second_person
from toolscale.kit.words import agree
from toolscale.sample.tasks import build_task, with_preference

STATEFUL = [
    "bank",
    "basketball",
    "ecommerce",
    "medicine",
    "movie",
    "railway",
    "restaurant",
    "school",
    "travel",
    "weather",
]


def _task(scenario: UserScenario, state: dict | None = None, **pref: object) -> Task:
    task = build_task(get_domain("restaurant"), 0, 0, 15.0).task
    fields = {
        "user_scenario": scenario,
        "instruction": scenario.opening,
        "initial_state": state if state is not None else {"now": "2025-07-14T15:00"},
    }
    if pref:
        fields["preference"] = Preference(vector=PreferenceVector(), **pref)
    return task.model_copy(update=fields)


def _kinds(task: Task, motives: tuple[str, ...] = ()) -> set[str]:
    toolkit = get_domain("restaurant").toolkit
    return {kind for kind, _ in scenario_problems(task, toolkit, motives)}


def test_a_plain_scenario_has_no_problem() -> None:
    told = UserScenario(reason_for_call="You want a table.", opening="Hello. A table, please.")
    assert _kinds(_task(told)) == set()


class _OldText(UserScenario):
    """The scenario text before this check: every detail named by its slot."""

    @property
    def known_info(self) -> str:
        details = {**self.stated, **self.known}
        return " ".join(f"Your {key} is {value}." for key, value in details.items())


def test_what_the_user_knows_names_no_slot() -> None:
    told = UserScenario(reason_for_call="x", opening="y", stated={"name": "Ms Lindqvist"})
    assert "Your name is" not in told.known_info and "Ms Lindqvist" in told.known_info


def test_each_scenario_check_fails_on_a_broken_scenario() -> None:
    cases = {
        "motive": UserScenario(
            reason_for_call="My sister can't come. You want a table.".replace(
                "My sister can't", "Your sister can't"
            ),
            opening="Hi. We found a babysitter problem. A table, please.",
        ),
        "daytime": UserScenario(reason_for_call="x", opening="Good morning. A table, please."),
        "today_dated": UserScenario(
            reason_for_call="x", opening="Move it to the 7:40 am on Saturday 28 June today."
        ),
        "grammar": UserScenario(reason_for_call="You was away.", opening="Book one rooms."),
        "slot": _OldText(reason_for_call="x", opening="y", stated={"name": "Ms Lindqvist"}),
        "repeated": UserScenario(
            reason_for_call="x",
            opening="y",
            task_instructions="Say yes when the agent offers to book a table for two at 8 pm. "
            "Agree to a change only if it is what you asked for: to book a table for two at 8 pm.",
        ),
    }
    motives = ("We found a babysitter problem.", "My sister can't come.")
    for kind, scenario in cases.items():
        assert kind in _kinds(_task(scenario), motives), kind
    am = UserScenario(reason_for_call="You want to know: am you covered?", opening="Hello.")
    assert "grammar" in _kinds(_task(am))
    change = UserScenario(
        reason_for_call="x",
        opening="y",
        behaviour="change",
        first_request="upgrade your trip on Friday 6 June",
        task_instructions="After the agent's first reply, change your mind.",
    )
    state = {"today": "2025-06-10"}
    assert "change_trigger" in _kinds(_task(change, state=state))
    assert past_first(_task(change, state=state)) == ["Friday 6 June"]
    quoted = change.model_copy(
        update={
            "task_instructions": "As soon as the agent has replied to your first message, change "
            'your mind. Agree to book a table for two at 8 pm. Your change of mind: "Book a '
            'table for two at 8 pm instead."'
        }
    )
    assert "repeated" not in _kinds(_task(quoted, state=state))


def test_preference_checks_fail_on_an_unfitting_sentence() -> None:
    patient = UserScenario(reason_for_call="x", opening="y", manner="polite")
    hurry = _task(
        patient, profile="hurry", instruction="I'm pressed for time, so the faster the better."
    )
    assert "manner_pref" in _kinds(hurry)
    json = 'Answer as JSON: {"answer": "<your answer>", "confidence": <a number between 0 and 1>}.'
    every = _task(
        patient, profile="json_confidence", instruction=json, answer_format="json_confidence"
    )
    assert "json_every_reply" in _kinds(every)
    sums = _task(
        patient, profile="avoid_tool", instruction="No calculator.", forbidden_tools=["calculate"]
    )
    assert "avoid_unrelated" in _kinds(sums)


def test_daytime_phrases_fit_only_their_part_of_the_day() -> None:
    assert fits("Good morning.", 8) and not fits("Good morning.", 16)
    assert not fits("Good evening. I'm sorting out my paperwork this morning.", 20)
    assert not fits("Good afternoon.", None) and fits("Hello.", None)
    assert fits("That morning I have a school run.", 16)  # another day's morning


def test_words_agree_with_the_values_filled_in() -> None:
    assert agree("book one rooms, a 11:30 am slot") == "book one room, an 11:30 am slot"
    assert second_person("I was away and I wasn't sure.") == "You were away and you weren't sure."
    assert second_person("Am I covered? Was I told?") == "Are you covered? Were you told?"


def test_invariants_fail_on_a_hand_made_broken_world() -> None:
    paid = not_after("invoices", "paid", "2025-10-06")
    state = {"invoices": {"IN1": {"paid": "2025-10-12"}, "IN2": {"paid": "2025-10-01"}}}
    assert paid.broken(state) == [
        "invoices.paid not after today: invoices IN1: paid 2025-10-12 is after today 2025-10-06"
    ]
    exempt = Invariant("x", lambda s: ["bad"], exempt=("pay.no",))
    assert exempt.broken({}, "pay.no.late") == [] and exempt.broken({}, "pay") == ["x: bad"]


@pytest.mark.parametrize(
    ("domain", "table", "record", "name"),
    [
        (
            "basketball",
            "tickets",
            {
                "ticket_id": "TKX",
                "fan_id": "F?",
                "game_id": "G?",
                "section": "courtside",
                "status": "active",
            },
            "courtside",
        ),
        ("school", "invoices", {"invoice_id": "INX", "paid": "2099-01-01"}, "paid"),
        (
            "travel",
            "trips",
            {"trip_id": "TPX", "start": "2000-01-01", "end": "2000-01-08", "status": "booked"},
            "ended",
        ),
    ],
)
def test_each_domain_invariant_fails_on_a_broken_record(domain, table, record, name) -> None:
    found = get_domain(domain)
    state = dict(found.world(0))
    if domain == "basketball":  # a standard fan
        fan = next(f for f in state["fans"].values() if f["tier"] == "standard")
        record = {**record, "fan_id": fan["fan_id"]}
    state[table] = {**state[table], "X": record}
    task = build_task(found, 0, 0, 15.0).task.model_copy(update={"initial_state": state})
    assert any(name in line for line in invariant_problems(found, task))
    assert invariant_problems(found, build_task(found, 0, 0, 15.0).task) == []


class _Trips(Toolkit):
    @tool(ToolKind.READ)
    def get_quote(self, trip_id: str) -> dict:
        """The seats left on a trip.

        Args:
            trip_id: The trip.
        """
        trip = self.state["trips"][trip_id]
        return {"trip_id": trip_id, "seats_left": trip["seats"] - len(trip["going"])}

    @tool(ToolKind.WRITE)
    def sign_up(self, trip_id: str, student: str) -> dict:
        """Sign a student up.

        Args:
            trip_id: The trip.
            student: The student.
        """
        quote = self.get_quote(trip_id)
        self.state["trips"][trip_id]["going"].append(student)
        return quote  # the seats left before this one: a receipt the world contradicts


def test_the_receipt_rule_fails_on_a_write_whose_receipt_a_read_contradicts() -> None:
    state = {"trips": {"T1": {"seats": 2, "going": ["a"]}}}
    found = receipt_problems(_Trips, state, [Action("sign_up", {"trip_id": "T1", "student": "b"})])
    assert found == ["sign_up returned seats_left=1, but get_quote(trip_id='T1') after it reads 0"]


def test_the_receipt_rule_reads_the_record_whatever_the_key_order() -> None:
    """In a sandbox worker the state arrives with sorted keys: a moved prescription's receipt
    (its `pharmacy_id`, the new pharmacy) is not compared with its patient's own pharmacy, and a
    contradicting receipt is found in sorted order too."""
    from toolscale.check.receipts import receipts_in
    from toolscale.core.contract import canonical_state, item_rng

    domain = get_domain("medicine")
    spec = domain.sample_named(item_rng("medicine", 0, 1), 0, 1, "transfer_prescription")
    gold = [{"name": a.name, "arguments": a.arguments} for a in spec.gold_actions]
    assert receipts_in("medicine", canonical_state(spec.initial_state), gold, 5.0) == []
    state = {"trips": {"T1": {"going": ["a"], "seats": 2}}}
    found = receipt_problems(_Trips, state, [Action("sign_up", {"student": "b", "trip_id": "T1"})])
    assert len(found) == 1


@pytest.mark.slow  # samples and prices hundreds of tasks per domain
@pytest.mark.parametrize("name", STATEFUL)
def test_no_preference_sentence_names_a_tool_unrelated_to_its_task(name: str) -> None:
    """The rule (`toolscale.economics.fit.plausible_avoid`): a tool a caller asks the agent not to
    use is a READ whose required parameters are all arguments of the gold calls (a look-up of the
    records this request works on), a hand-off, or the calculator only where a route sums;
    checked on the 400 tasks of seed 0 with every profile drawn as `generate` draws it."""
    domain = get_domain(name)
    for index in range(400):
        item = with_preference(build_task(domain, 0, index, 15.0), DEFAULT_SPREAD)
        routes = [*item.alternatives, *(r.actions for r in item.routes if not r.detour)]
        for tool_name in item.task.preference.forbidden_tools:
            assert plausible_avoid(tool_name, domain.toolkit, item.task.gold_actions, routes), (
                name,
                index,
                tool_name,
            )


@pytest.mark.parametrize("name", STATEFUL)
def test_motives_of_a_domain_are_its_goals_wordings(name: str) -> None:
    assert motives_of(get_domain(name))
