"""The school office's policy as code: constants (policy.md is rendered from them), one error per
rule, and the pure checks that the tools and the composer share."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import lookup, rule
from toolscale.tools.bounds import text

TODAY = "2025-10-06"  # a Monday in the autumn term
DROP_WINDOW_DAYS = 21  # an elective can be dropped within this many days of enrolling
MAX_ELECTIVES = 3
BURSARY_PERCENT = 50  # bursary students pay this share of a trip
FEES_BLOCK_OVER = 100.0  # overdue fees above this block trip sign-ups
ABSENCE_AHEAD_DAYS = 14
MAX_PICKUPS = 3

Record = dict[str, Any]


WrongYear = rule("WrongYear")
ClassFull = rule("ClassFull")
TooManyElectives = rule("TooManyElectives")
CoreSubject = rule("CoreSubject")
DropWindowClosed = rule("DropWindowClosed")
ConsentClosed = rule("ConsentClosed")
TripFull = rule("TripFull")
FeesOverdue = rule("FeesOverdue")
AlreadyPaid = rule("AlreadyPaid")
PastDate = rule("PastDate")
TermTimeHoliday = rule(
    "TermTimeHoliday", handoff=True
)  # the head teacher decides on term-time holidays
TooManyPickups = rule("TooManyPickups")


def shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def mine(state: Record, table: str, student_id: str) -> list[Record]:
    return [r for r in state[table].values() if r["student_id"] == student_id]


def taken(state: Record, class_id: str) -> int:
    return sum(e["class_id"] == class_id for e in state["enrolments"].values())


def check_enrol(state: Record, student_id: str, class_id: str) -> Record:
    student = lookup(state, "students", student_id, "student")
    course = lookup(state, "classes", class_id, "class")
    if any(e["class_id"] == course["class_id"] for e in mine(state, "enrolments", student_id)):
        raise ToolError(f"{student['first_name']} is already in {course['name']}")
    WrongYear.raise_if(
        course["year"] != student["year"],
        f"{course['name']} is for year {course['year']}, and {student['first_name']} is in "
        f"year {student['year']}",
        student["student_id"],
    )
    ClassFull.raise_if(
        taken(state, course["class_id"]) >= course["capacity"],
        f"{course['name']} is full ({course['capacity']} places)",
        course["class_id"],
    )
    electives = [
        e
        for e in mine(state, "enrolments", student_id)
        if state["classes"][e["class_id"]]["elective"]
    ]
    TooManyElectives.raise_if(
        course["elective"] and len(electives) >= MAX_ELECTIVES,
        f"a student takes at most {MAX_ELECTIVES} electives, and {student['first_name']} "
        f"has {len(electives)}",
        *(e["enrolment_id"] for e in electives),
    )
    return course


def check_drop(state: Record, enrolment_id: str) -> Record:
    enrolment = lookup(state, "enrolments", enrolment_id, "enrolment")
    course = state["classes"][enrolment["class_id"]]
    CoreSubject.raise_if(
        not course["elective"],
        f"{course['subject']} is a core subject and cannot be dropped",
        enrolment["enrolment_id"],
    )
    last = shift(enrolment["enrolled_on"], DROP_WINDOW_DAYS)
    DropWindowClosed.raise_if(
        course["elective"] and last < state["today"],  # the window is an elective's
        f"an elective can be dropped within {DROP_WINDOW_DAYS} days of enrolling, and "
        f"{enrolment['enrolment_id']} began on {enrolment['enrolled_on']}",
        enrolment["enrolled_on"],
    )
    return enrolment


def overdue(state: Record, student_id: str) -> float:
    bills = mine(state, "invoices", student_id)
    late = [i["amount"] for i in bills if not i["paid"] and i["due"] < state["today"]]
    return round(sum(late), 2)


def trip_quote(state: Record, student_id: str, trip_id: str) -> Record:
    student = lookup(state, "students", student_id, "student")
    trip = lookup(state, "trips", trip_id, "trip")
    share = BURSARY_PERCENT / 100 if student["bursary"] else 1.0
    left = trip["seats"] - len(trip["going"])
    return {"trip_id": trip["trip_id"], "cost": round(trip["cost"] * share, 2), "seats_left": left}


def check_trip(state: Record, student_id: str, trip_id: str) -> Record:
    quote = trip_quote(state, student_id, trip_id)
    student, trip = state["students"][student_id.strip()], state["trips"][trip_id.strip()]
    if student["student_id"] in trip["going"]:
        raise ToolError(f"{student['first_name']} is already signed up for {trip['name']}")
    WrongYear.raise_if(
        student["year"] not in trip["years"],
        f"the {trip['name']} is for years {', '.join(map(str, trip['years']))}, and "
        f"{student['first_name']} is in year {student['year']}",
        student["student_id"],
    )
    ConsentClosed.raise_if(
        trip["consent_by"] < state["today"],
        f"consent for the {trip['name']} closed on {trip['consent_by']}",
        trip["consent_by"],
    )
    TripFull.raise_if(quote["seats_left"] < 1, f"the {trip['name']} is full", trip["trip_id"])
    owed = overdue(state, student["student_id"])
    FeesOverdue.raise_if(
        owed > FEES_BLOCK_OVER,
        f"trips are closed to students with more than ${FEES_BLOCK_OVER:.2f} of overdue "
        f"fees, and {student['first_name']} has ${owed:.2f}",
        owed,
    )
    return quote


def check_payment(state: Record, invoice_id: str) -> Record:
    invoice = lookup(state, "invoices", invoice_id, "invoice")
    AlreadyPaid.raise_if(
        bool(invoice["paid"]),
        f"invoice {invoice['invoice_id']} was paid on {invoice['paid']}",
        invoice["paid"],
    )
    return invoice


def check_absence(state: Record, student_id: str, date: str, reason: str) -> Record:
    student = lookup(state, "students", student_id, "student")
    day = text(date, "date", max_chars=20).strip()
    reason = text(reason, "reason", max_chars=40).strip().lower()
    if reason not in ("illness", "appointment", "holiday"):
        raise ToolError("reason must be illness, appointment or holiday")
    try:
        last = shift(state["today"], ABSENCE_AHEAD_DAYS) < day
    except ValueError:
        raise ToolError(f"date {day!r}: use YYYY-MM-DD") from None
    PastDate.raise_if(
        day < state["today"],
        f"absences are reported on the day or ahead, and {day} has passed; the register "
        "for it is closed",
    )
    if last:
        raise ToolError(f"absences can be reported at most {ABSENCE_AHEAD_DAYS} days ahead")
    TermTimeHoliday.raise_if(
        reason == "holiday",
        f"holidays in term time need the head teacher's approval ({student['first_name']}, {day})",
        student["student_id"],
    )
    return student


def check_pickup(state: Record, student_id: str, person: str) -> Record:
    student = lookup(state, "students", student_id, "student")
    text(person, "person", max_chars=80)
    TooManyPickups.raise_if(
        len(student["pickups"]) >= MAX_PICKUPS,
        f"a student has at most {MAX_PICKUPS} people allowed to collect them, and "
        f"{student['first_name']} has: " + "; ".join(student["pickups"]),
        *student["pickups"],
    )
    return student
