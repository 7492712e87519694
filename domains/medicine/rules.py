"""The clinic's policy as code: its constants (policy.md is rendered from them), one error per
rule, and the checks the tools and the composer share (pure: they never change the state)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import PolicyError, lookup
from toolscale.tools.bounds import shown, text

TODAY = "2025-03-10"  # a Monday; the clock of every task
NOW = f"{TODAY}T08:00"
BOOKING_WINDOW_DAYS = 45
CHANGE_NOTICE_HOURS = 24
LATE_CANCEL_FEE = 35.0
REFILL_EARLY_DAYS = 7  # a refill may be ordered this many days before the supply runs out
PRESCRIPTION_VALID_DAYS = 365
PRIMARY = "primary care"

Record = dict[str, Any]


class OutOfNetwork(PolicyError):
    pass


class NeedsReferral(PolicyError):
    pass


class TooFarAhead(PolicyError):
    pass


class DoctorAway(PolicyError):
    pass


class SlotTaken(PolicyError):
    pass


class NotScheduled(PolicyError):
    pass


class TooLateToChange(PolicyError):
    pass


class Discontinued(PolicyError):
    pass


class ControlledSubstance(PolicyError):
    handoff = True


class Expired(PolicyError):
    pass


class NoRefillsLeft(PolicyError):
    pass


class TooEarly(PolicyError):
    pass


def shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def hours_until(state: Record, day: str, time: str) -> float:
    start = datetime.fromisoformat(f"{day}T{time}")
    return (start - datetime.fromisoformat(state["now"])).total_seconds() / 3600


def taken(state: Record, doctor_id: str, day: str) -> set[str]:
    return {
        a["time"]
        for a in state["appointments"].values()
        if (a["doctor_id"], a["date"], a["status"]) == (doctor_id, day, "scheduled")
    }


def visit_copay(state: Record, patient: Record, doctor: Record) -> float:
    plan = state["plans"][patient["plan_id"]]
    return plan["primary_copay" if doctor["specialty"] == PRIMARY else "specialist_copay"]


def check_slot(state: Record, doctor: Record, day: str, time: str) -> None:
    """Raise the error that forbids an appointment with `doctor` on `day` at `time`."""
    day, time = text(day, "date", max_chars=20).strip(), text(time, "time", max_chars=10).strip()
    try:
        when = datetime.fromisoformat(f"{day}T{time}")
    except ValueError:
        raise ToolError(
            f"date {shown(day)} / time {shown(time)}: use YYYY-MM-DD and HH:MM"
        ) from None
    if day <= TODAY:
        raise ToolError(f"appointments are booked from tomorrow on; {day} is not after {TODAY}")
    if when.date() > date.fromisoformat(TODAY) + timedelta(BOOKING_WINDOW_DAYS):
        raise TooFarAhead(
            f"appointments open at most {BOOKING_WINDOW_DAYS} days ahead, and {day} is later",
            shows=(doctor["doctor_id"],),
        )
    if f"{when:%A}" not in doctor["days"]:
        raise DoctorAway(
            f"{doctor['name']} sees patients on {', '.join(doctor['days'])} only, not {when:%A}s",
            shows=(doctor["days"][0],),
        )
    if time not in doctor["times"]:
        raise ToolError(f"{doctor['name']} has slots at {', '.join(doctor['times'])} only")
    if time in taken(state, doctor["doctor_id"], day):
        raise SlotTaken(f"{doctor['name']} is already booked on {day} at {time}")


def check_booking(state: Record, patient_id: str, doctor_id: str, date: str, time: str) -> None:
    patient = lookup(state, "patients", patient_id, "patient")
    doctor = lookup(state, "doctors", doctor_id, "doctor")
    plan = state["plans"][patient["plan_id"]]
    if plan["plan_id"] not in doctor["networks"]:
        raise OutOfNetwork(
            f"{doctor['name']} is not in the network of the {plan['name']} plan",
            shows=(plan["name"],),
        )
    special = doctor["specialty"]
    if plan["referrals"] and special != PRIMARY and special not in patient["referrals"]:
        raise NeedsReferral(
            f"the {plan['name']} plan needs a referral from primary care for {special}, and "
            "none is on file",
            shows=(plan["name"],),
        )
    check_slot(state, doctor, date, time)


def scheduled(appointment: Record) -> None:
    if appointment["status"] != "scheduled":
        raise NotScheduled(
            f"appointment {appointment['appointment_id']} is {appointment['status']}",
            shows=(appointment["status"],),
        )


def cancel_fee(state: Record, appointment_id: str) -> float:
    appointment = lookup(state, "appointments", appointment_id, "appointment")
    scheduled(appointment)
    late = hours_until(state, appointment["date"], appointment["time"]) < CHANGE_NOTICE_HOURS
    return LATE_CANCEL_FEE if late else 0.0


def check_move(state: Record, appointment_id: str, date: str, time: str) -> None:
    appointment = lookup(state, "appointments", appointment_id, "appointment")
    scheduled(appointment)
    if hours_until(state, appointment["date"], appointment["time"]) < CHANGE_NOTICE_HOURS:
        raise TooLateToChange(
            f"an appointment can be moved only {CHANGE_NOTICE_HOURS} hours or more ahead, and "
            f"{appointment_id.strip()} is at {appointment['time']} on {appointment['date']}",
            shows=(appointment["time"],),
        )
    check_slot(state, state["doctors"][appointment["doctor_id"]], date, time)


def refill_due(prescription: Record) -> str:
    return shift(prescription["last_filled"], prescription["days_supply"] - REFILL_EARLY_DAYS)


def fill_copay(state: Record, prescription: Record) -> float:
    plan = state["plans"][state["patients"][prescription["patient_id"]]["plan_id"]]
    per_month = plan[f"{prescription['tier']}_copay"]
    return round(per_month * prescription["days_supply"] / 30, 2)


def check_active(state: Record, prescription_id: str) -> Record:
    """The prescription when it may be filled or moved: active, not controlled, not expired."""
    rx = lookup(state, "prescriptions", prescription_id, "prescription")
    if rx["status"] != "active":
        raise Discontinued(
            f"prescription {rx['prescription_id']} is {rx['status']}", shows=(rx["status"],)
        )
    if rx["schedule"]:
        raise ControlledSubstance(
            f"{rx['drug']} is a {rx['schedule']} controlled substance, which only our pharmacist "
            "can refill or transfer",
            shows=(rx["schedule"],),
        )
    expires = shift(rx["written"], PRESCRIPTION_VALID_DAYS)
    if expires < TODAY:
        raise Expired(
            f"prescription {rx['prescription_id']} expired on {expires}", shows=(expires,)
        )
    return rx


def check_refill(state: Record, prescription_id: str) -> None:
    rx = check_active(state, prescription_id)
    doctor = state["doctors"][rx["prescriber_id"]]["name"]
    if rx["refills_left"] < 1:
        raise NoRefillsLeft(
            f"prescription {rx['prescription_id']} has no refills left; {doctor} must write a "
            "new one",
            shows=(doctor,),
        )
    if refill_due(rx) > TODAY:
        raise TooEarly(
            f"the next refill of {rx['drug']} can be ordered from {refill_due(rx)}",
            shows=(refill_due(rx),),
        )


def check_transfer(state: Record, prescription_id: str, pharmacy_id: str) -> None:
    rx = check_active(state, prescription_id)
    pharmacy = lookup(state, "pharmacies", pharmacy_id, "pharmacy")
    if pharmacy["pharmacy_id"] == rx["pharmacy_id"]:
        raise ToolError(f"prescription {rx['prescription_id']} is already at {pharmacy['name']}")
