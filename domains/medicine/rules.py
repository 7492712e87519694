"""The clinic's policy as code: its constants (policy.md is rendered from them), one error per
rule, and the checks the tools and the composer share (pure: they never change the state)."""

from __future__ import annotations

from toolscale.core.contract import ToolError
from toolscale.kit import Record, lookup, rule
from toolscale.kit.clock import days_between, hours_until, moment, shift, weekday

TODAY = "2025-03-10"  # a Monday; the clock of every task
NOW = f"{TODAY}T08:00"
BOOKING_WINDOW_DAYS = 45
CHANGE_NOTICE_HOURS = 24
LATE_CANCEL_FEE = 35.0
REFILL_EARLY_DAYS = 7  # a refill may be ordered this many days before the supply runs out
PRESCRIPTION_VALID_DAYS = 365
PRIMARY = "primary care"

OutOfNetwork = rule("OutOfNetwork")
NeedsReferral = rule("NeedsReferral")
TooFarAhead = rule("TooFarAhead")
DoctorAway = rule("DoctorAway")
SlotTaken = rule("SlotTaken")
NotScheduled = rule("NotScheduled")
TooLateToChange = rule("TooLateToChange")
Discontinued = rule("Discontinued")
ControlledSubstance = rule("ControlledSubstance", handoff=True)
Expired = rule("Expired")
NoRefillsLeft = rule("NoRefillsLeft")
TooEarly = rule("TooEarly")
SLOT = (TooFarAhead, DoctorAway, SlotTaken)  # the rules of a slot, booked or moved to
COVER = (OutOfNetwork, NeedsReferral)  # the plan's rules of a visit, booked or moved to
ACTIVE = (Discontinued, ControlledSubstance, Expired)  # a prescription filled or moved


def taken(state: Record, doctor_id: str, day: str) -> set[str]:
    mine, visits = (doctor_id, day, "scheduled"), state["appointments"].values()
    return {a["time"] for a in visits if (a["doctor_id"], a["date"], a["status"]) == mine}


def visit_copay(state: Record, patient: Record, doctor: Record) -> float:
    plan = state["plans"][patient["plan_id"]]
    return plan["primary_copay" if doctor["specialty"] == PRIMARY else "specialist_copay"]


def check_slot(state: Record, doctor: Record, day: str, time: str) -> None:
    """Raise the error that forbids an appointment with `doctor` on `day` at `time`."""
    moment(day, time)
    day, time, name = day.strip(), time.strip(), doctor["name"]
    if day <= TODAY:
        raise ToolError(f"appointments are booked from tomorrow on; {day} is not after {TODAY}")
    far, away = days_between(TODAY, day) > BOOKING_WINDOW_DAYS, weekday(day)
    TooFarAhead.raise_if(
        far,
        f"appointments open at most {BOOKING_WINDOW_DAYS} days ahead, and {day} is later",
        doctor["doctor_id"],
    )
    works = ", ".join(doctor["days"])
    DoctorAway.raise_if(
        away not in doctor["days"],
        f"{name} sees patients on {works} only, not {away}s",
        doctor["days"][0],
    )
    if time not in doctor["times"]:
        raise ToolError(f"{name} has slots at {', '.join(doctor['times'])} only")
    busy = time in taken(state, doctor["doctor_id"], day)
    SlotTaken.raise_if(busy, f"{name} is already booked on {day} at {time}")


def check_booking(state: Record, patient_id: str, doctor_id: str, date: str, time: str) -> Record:
    patient, doctor = lookup(state, "patients", patient_id), lookup(state, "doctors", doctor_id)
    check_cover(state, patient, doctor)
    check_slot(state, doctor, date, time)
    return {"patient_id": patient["patient_id"], "doctor_id": doctor["doctor_id"]}


def check_cover(state: Record, patient: Record, doctor: Record) -> None:
    """The plan's rules of a visit, booked or moved to: the doctor in network, a specialist's
    referral on file where the plan needs one."""
    plan, special = state["plans"][patient["plan_id"]], doctor["specialty"]
    OutOfNetwork.raise_if(
        plan["plan_id"] not in doctor["networks"],
        f"{doctor['name']} is not in the network of the {plan['name']} plan",
        plan["name"],
    )
    NeedsReferral.raise_if(
        plan["referrals"] and special != PRIMARY and special not in patient["referrals"],
        f"the {plan['name']} plan needs a referral from primary care for {special}, and none is "
        "on file",
        plan["name"],
    )


def scheduled(state: Record, appointment_id: str) -> Record:
    appointment = lookup(state, "appointments", appointment_id)
    aid, status = appointment["appointment_id"], appointment["status"]
    said = "marked as a no-show" if status == "no_show" else status  # not "is no_show"
    NotScheduled.raise_if(status != "scheduled", f"appointment {aid} is {said}", status)
    return appointment


def late(state: Record, visit: Record) -> bool:
    return hours_until(state["now"], visit["date"], visit["time"]) < CHANGE_NOTICE_HOURS


def cancel_fee(state: Record, appointment_id: str) -> float:
    return LATE_CANCEL_FEE if late(state, scheduled(state, appointment_id)) else 0.0


def check_move(state: Record, appointment_id: str, date: str, time: str) -> Record:
    appointment = scheduled(state, appointment_id)
    TooLateToChange.raise_if(
        late(state, appointment),
        f"an appointment can be moved only {CHANGE_NOTICE_HOURS} hours or more ahead, and "
        f"{appointment_id.strip()} is at {appointment['time']} on {appointment['date']}",
        appointment["time"],
    )
    doctor = state["doctors"][appointment["doctor_id"]]
    check_cover(state, state["patients"][appointment["patient_id"]], doctor)  # booking rules
    check_slot(state, doctor, date, time)
    return appointment


def refill_due(prescription: Record) -> str:
    return shift(prescription["last_filled"], prescription["days_supply"] - REFILL_EARLY_DAYS)


def fill_copay(state: Record, rx: Record) -> float:
    plan = state["plans"][state["patients"][rx["patient_id"]]["plan_id"]]
    return round(plan[f"{rx['tier']}_copay"] * rx["days_supply"] / 30, 2)


def check_active(state: Record, prescription_id: str) -> Record:
    """The prescription when it may be filled or moved: active, not controlled, not expired."""
    rx = lookup(state, "prescriptions", prescription_id)
    rid, status, schedule = rx["prescription_id"], rx["status"], rx["schedule"]
    Discontinued.raise_if(status != "active", f"prescription {rid} is {status}", status)
    ControlledSubstance.raise_if(
        bool(schedule),
        f"{rx['drug']} is a {schedule} controlled substance, which only our pharmacist can refill "
        "or transfer",
        schedule,
    )
    expires = shift(rx["written"], PRESCRIPTION_VALID_DAYS)
    Expired.raise_if(expires < TODAY, f"prescription {rid} expired on {expires}", expires)
    return rx


def check_refill(state: Record, prescription_id: str) -> Record:
    rx = check_active(state, prescription_id)
    doctor, due = state["doctors"][rx["prescriber_id"]]["name"], refill_due(rx)
    NoRefillsLeft.raise_if(
        rx["refills_left"] < 1,
        f"prescription {rx['prescription_id']} has no refills left; {doctor} must write a new one",
        doctor,
    )
    TooEarly.raise_if(due > TODAY, f"the next {rx['drug']} refill can be ordered from {due}", due)
    return rx


def check_transfer(state: Record, prescription_id: str, pharmacy_id: str) -> Record:
    rx = check_active(state, prescription_id)
    pharmacy = lookup(state, "pharmacies", pharmacy_id, "pharmacy")
    if pharmacy["pharmacy_id"] == rx["pharmacy_id"]:
        raise ToolError(f"prescription {rx['prescription_id']} is already at {pharmacy['name']}")
    return rx
