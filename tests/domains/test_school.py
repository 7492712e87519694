"""School domain: each policy rule on a tiny hand-built school office, the world's size and build
time, the rendered policy, hostile arguments, and one generate -> validate round."""

from __future__ import annotations

import time
from typing import Any

import pytest

from domains.school import SchoolDomain, rules
from domains.school.tools import SchoolTools
from tests.domains.rounds import gold_round
from toolscale.check.fuzz import fuzz_domain
from toolscale.core.contract import ToolError


def _student(sid: str, name: str, **extra: Any) -> dict:
    base = {"student_id": sid, "guardian_id": "G1", "first_name": name, "last_name": "Lee"}
    base |= {"child": "son", "year": 8, "tutor": "Mr Hale", "bursary": False, "pickups": []}
    return {**base, "days_present": 20, "absences": [], **extra}


def _class(cid: str, name: str, elective: bool, capacity: int = 10, year: int = 8) -> dict:
    base = {"class_id": cid, "name": name, "subject": name.split()[-1], "year": year}
    return {**base, "elective": elective, "capacity": capacity}


def _enrolment(eid: str, sid: str, cid: str, subject: str, day: str) -> dict:
    base = {"enrolment_id": eid, "student_id": sid, "class_id": cid, "subject": subject}
    return {**base, "enrolled_on": day, "grade": "B"}


def _bill(iid: str, sid: str, amount: float, due: str, paid: str = "") -> dict:
    base = {"invoice_id": iid, "student_id": sid, "kind": "lunch", "month": "September"}
    return {**base, "due": due, "amount": amount, "paid": paid}


def _trip(tid: str, years: list, consent_by: str, seats: int, going: list) -> dict:
    base = {"trip_id": tid, "name": f"{tid} trip", "years": years, "date": "2025-11-01"}
    return {**base, "consent_by": consent_by, "cost": 40.0, "seats": seats, "going": going}


def tiny_state() -> dict[str, Any]:
    """Today is Monday 2025-10-06. Leo (S1) has three electives and $170 overdue; Mia (S2) has a
    bursary. Robotics (C2) has one place, taken by Leo."""
    return {
        "today": rules.TODAY,
        "guardians": {
            "G1": {"guardian_id": "G1", "name": "Ann Lee", "email": "ann@mail.test", "phone": "1"}
        },
        "students": {
            "S1": _student("S1", "Leo", pickups=["Grandma", "Aunt May", "Mr Okafor"])
            | {"absences": ["2025-09-12", "2025-09-30"]},
            "S2": _student("S2", "Mia", child="daughter", bursary=True),
        },
        "classes": {
            "C1": _class("C1", "Year 8 Maths", False, 60),
            "C2": _class("C2", "Year 8 Robotics", True, 1),
            "C3": _class("C3", "Year 8 Drama", True),
            "C4": _class("C4", "Year 9 Art", True, year=9),
            "C5": _class("C5", "Year 8 Music", True),
            "C6": _class("C6", "Year 8 Coding", True),
        },
        "enrolments": {
            "E1": _enrolment("E1", "S1", "C1", "Maths", "2025-09-01"),
            "E2": _enrolment("E2", "S1", "C2", "Robotics", "2025-09-10"),
            "E3": _enrolment("E3", "S1", "C3", "Drama", "2025-09-20"),
            "E4": _enrolment("E4", "S1", "C5", "Music", "2025-09-01"),
            "E5": _enrolment("E5", "S2", "C1", "Maths", "2025-09-01"),
        },
        "invoices": {
            "I1": _bill("I1", "S1", 50.0, "2025-09-15"),
            "I2": _bill("I2", "S1", 120.0, "2025-08-15"),
            "I3": _bill("I3", "S1", 80.0, "2025-08-15", paid="2025-08-10"),
            "I4": _bill("I4", "S2", 30.0, "2025-10-15"),
        },
        "trips": {
            "T1": _trip("T1", [8], "2025-10-10", 2, []),
            "T2": _trip("T2", [9, 10], "2025-10-10", 9, []),
            "T3": _trip("T3", [8], "2025-10-01", 9, []),
            "T4": _trip("T4", [8], "2025-10-10", 1, ["S9"]),
        },
    }


def test_bursary_students_pay_half_and_the_trip_is_billed() -> None:
    kit = SchoolTools(tiny_state())
    assert kit.get_trip_quote("S1", "T1")["cost"] == 40.0
    done = kit.sign_up_for_trip("S2", "T1")
    # T1 has 2 seats and nobody going: the receipt says what is left after S2's seat, 1
    assert (done["cost"], done["seats_left"]) == (20.0, 1)
    assert kit.get_trip_quote("S1", "T1")["seats_left"] == 1
    bill = kit.state["invoices"][done["invoice_id"]]
    assert (bill["amount"], bill["due"], bill["paid"]) == (20.0, "2025-11-01", "")
    assert kit.state["trips"]["T1"]["going"] == ["S2"]
    assert kit.get_fee_balance("S2") == {"unpaid": 50.0, "overdue": 0.0}


@pytest.mark.parametrize(
    ("student", "trip", "error", "message"),
    [
        ("S2", "T2", rules.WrongYear, "for years 9, 10"),
        ("S2", "T3", rules.ConsentClosed, "closed on 2025-10-01"),
        ("S2", "T4", rules.TripFull, "is full"),
        ("S1", "T1", rules.FeesOverdue, r"more than \$100.00 .* has \$170.00"),
    ],
)
def test_each_trip_rule_refuses_with_its_error(student, trip, error, message) -> None:
    kit = SchoolTools(tiny_state())
    with pytest.raises(error, match=message):
        kit.sign_up_for_trip(student, trip)
    assert kit.state == tiny_state()


def test_enrolment_needs_the_year_a_place_and_room_for_another_elective() -> None:
    kit = SchoolTools(tiny_state())
    with pytest.raises(rules.WrongYear, match="for year 9"):
        kit.enrol_in_class("S2", "C4")
    with pytest.raises(rules.ClassFull, match="1 places"):
        kit.enrol_in_class("S2", "C2")
    with pytest.raises(rules.TooManyElectives, match=r"at most 3 .* has 3"):
        kit.enrol_in_class("S1", "C6")
    with pytest.raises(ToolError, match="already in Year 8 Maths"):
        kit.enrol_in_class("S1", "C1")
    assert kit.enrol_in_class("S2", "C3")["enrolled_on"] == rules.TODAY
    assert kit.find_class("Year 8 Drama")["taken"] == 2


def test_only_electives_drop_and_only_within_three_weeks() -> None:
    kit = SchoolTools(tiny_state())
    with pytest.raises(rules.CoreSubject):
        kit.drop_class("E1")
    with pytest.raises(rules.DropWindowClosed, match="began on 2025-09-10"):
        kit.drop_class("E2")  # 2025-09-10 + 21 days = 2025-10-01, before today
    assert kit.drop_class("E3")["status"] == "dropped"  # 2025-09-20 + 21 = 2025-10-11
    assert [e["enrolment_id"] for e in kit.list_enrolments("S1")] == ["E1", "E2", "E4"]


def test_bills_pay_once_absences_are_for_coming_days_and_collection_is_capped() -> None:
    kit = SchoolTools(tiny_state())
    assert kit.pay_invoice("I1")["paid"] == rules.TODAY
    with pytest.raises(rules.AlreadyPaid, match="paid on 2025-10-06"):
        kit.pay_invoice("I1")
    with pytest.raises(rules.PastDate):
        kit.report_absence("S1", "2025-10-03", "illness")
    with pytest.raises(rules.TermTimeHoliday):
        kit.report_absence("S1", "2025-10-08", "holiday")
    assert rules.TermTimeHoliday.handoff and not rules.PastDate.handoff
    with pytest.raises(ToolError, match="at most 14 days ahead"):
        kit.report_absence("S1", "2025-10-30", "illness")
    assert kit.report_absence("S1", "2025-10-08", "illness")["absences"][-1] == "2025-10-08"
    with pytest.raises(rules.TooManyPickups, match="Grandma; Aunt May; Mr Okafor"):
        kit.add_collection_contact("S1", "Coach Ruiz")
    assert kit.add_collection_contact("S2", "Coach Ruiz")["pickups"] == ["Coach Ruiz"]


def test_attendance_rate_and_grades_are_read_from_the_record() -> None:
    kit = SchoolTools(tiny_state())
    assert kit.get_attendance("S1")["rate"] == 90.9  # 20 of 22 days
    assert kit.get_grade("S1", "maths") == {"subject": "Maths", "class": "Year 8 Maths"} | {
        "grade": "B"
    }
    with pytest.raises(ToolError, match="no 'Art' class"):
        kit.get_grade("S1", "Art")
    assert [s["first_name"] for s in kit.list_guardian_students("G1")] == ["Leo", "Mia"]


def test_the_world_is_large_quick_to_build_and_the_policy_has_its_numbers() -> None:
    domain = SchoolDomain()
    started = time.perf_counter()
    world = domain.world(0)
    assert time.perf_counter() - started < 1.0  # ~0.2 s here; cached afterwards
    assert len(world["guardians"]) == 160 and len(world["students"]) >= 200
    assert len(world["enrolments"]) >= 900 and len(world["trips"]) == 10
    assert all(
        sum(e["class_id"] == c for e in world["enrolments"].values()) <= course["capacity"]
        for c, course in world["classes"].items()
    )
    core = [e["student_id"] for e in world["enrolments"].values() if e["subject"] == "Maths"]
    assert sorted(core) == sorted(world["students"])  # every student takes each core subject
    assert "$100.00" in domain.policy and "50%" in domain.policy and "{" not in domain.policy
    assert 18 <= len(SchoolTools.specs()) <= 22
    kinds = set(domain.templates)
    assert {"absence.handoff.term_time_holiday", "trip.no.fees_overdue", "multi"} <= kinds


def test_hostile_arguments_fail_calls_and_crash_no_tool() -> None:
    assert [p.message for p in fuzz_domain("school", per_tool=8)] == []


@pytest.mark.slow
def test_generated_tasks_verify_and_validate(tmp_path) -> None:
    gold_round("school", tmp_path / "out")


def test_what_the_agent_says_and_offers_is_what_the_records_show() -> None:
    """The reading pass (seed 7) met "Adrienne has 3" electives after no look-up of her
    enrolments, "has a E", and a decline offer to "add collection contact (name Ski Week
    trip)": an enrolment reads the enrolments, a grade takes its article, and no trip or class
    name fills the person to add."""
    from toolscale.core.registry import get_domain
    from toolscale.sample.tasks import build_task

    domain, seen = get_domain("school"), set()
    for index in range(400):
        item = build_task(domain, 7, index, 15.0)
        task, names = item.task, {a["name"] for a in item.task.gold_actions}
        if task.template.startswith("enrol.no.too_many_electives"):
            assert "list_enrolments" in names, index
            seen.add("electives")
        assert " a E " not in item.final_message and " a A " not in item.final_message
        unwanted = task.user_scenario.unwanted if task.user_scenario else None
        if unwanted and unwanted["name"] == "add_collection_contact":
            assert "trip" not in unwanted["arguments"]["person"], unwanted
            seen.add("offer")
    assert "electives" in seen
