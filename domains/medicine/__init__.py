"""The medicine domain (stateful, kit v2): a clinic's front desk and pharmacy counter.

Patients book, move and cancel visits, order refills and move prescriptions between pharmacies,
and ask about their plan's copays; the policy covers insurance networks and referrals, notice
periods, refill windows, expiry, and controlled substances (handed to the pharmacist). The desk
gives no medical advice: clinical questions go to the nurse line (a human agent). The world is
`world.build_world`, the tool graph `tools`, the policy `rules` (rendered into policy.md).
"""

from __future__ import annotations

import random
from datetime import date
from typing import Any

from domains.medicine import rules
from domains.medicine.tools import ClinicTools
from domains.medicine.world import SPECIALTIES, build_world
from toolscale.kit import Draw, Entity, Goal, StatefulDomain
from toolscale.kit.words import day

Record = dict[str, Any]


def _visit_words(visit: Record, world: Record, precise: bool) -> str:
    doctor = world["doctors"][visit["doctor_id"]]["name"]
    noun = ("appointment", "visit", "appointment")[int(visit["appointment_id"][2:]) % 3]
    return f"my {noun} with {doctor}" + (f" on {day(visit['date'])}" if precise else "")


def _rx_words(rx: Record, world: Record, precise: bool) -> str:
    drug = f"{rx['drug']} {rx['strength']}" if precise else rx["drug"]
    form = ("my {} prescription", "my {}", "the {} I'm on")[int(rx["prescription_id"][2:]) % 3]
    return form.format(drug)


ENTITIES = (
    Entity("patient", "patients", "patient_id", labels={"phone": "phone number"}),
    Entity("doctor", "doctors", "doctor_id", said=("name",), describe=lambda r, w, p: r["name"]),
    Entity(
        "pharmacy", "pharmacies", "pharmacy_id", said=("name",), describe=lambda r, w, p: r["name"]
    ),
    Entity(
        "appointment",
        "appointments",
        "appointment_id",
        owner="patient",
        owner_key="patient_id",
        describe=_visit_words,
        alike=lambda r: r["doctor_id"],
        tell="date",
        labels={"date": "appointment date"},
    ),
    Entity(
        "prescription",
        "prescriptions",
        "prescription_id",
        owner="patient",
        owner_key="patient_id",
        describe=lambda r, w, p: (
            f"my {r['drug']}" + (f" {r['strength']}" if p else "") + " prescription"
        ),
        alike=lambda r: r["drug"],
        tell="strength",
    ),
)


def _slot(draw: Draw, doctor: Record, moving: str = "") -> dict[str, str]:
    rng, world = draw.rng, draw.world
    booked = [
        a
        for a in world["appointments"].values()
        if (a["doctor_id"], a["status"]) == (doctor["doctor_id"], "scheduled")
        and a["date"] > rules.TODAY
        and a["appointment_id"] != moving
    ]
    if booked and rng.random() < 0.15:
        taken = rng.choice(booked)
        return {"date": taken["date"], "time": taken["time"]}
    for _ in range(8):
        when = rules.shift(rules.TODAY, rng.choice((*range(2, 45), 48, 52, 60)))
        if f"{date.fromisoformat(when):%A}" in doctor["days"] or rng.random() < 0.2:
            break
    return {"date": when, "time": rng.choice(doctor["times"])}


def _booking(draw: Draw) -> dict[str, Any]:
    doctor = draw["doctor"]
    ids = {"patient_id": draw["patient"]["patient_id"], "doctor_id": doctor["doctor_id"]}
    return {**ids, **_slot(draw, doctor)}


def _aid(draw: Draw) -> dict[str, Any]:
    return {"appointment_id": draw["appointment"]["appointment_id"]}


def _move(draw: Draw) -> dict[str, Any]:
    visit = draw["appointment"]
    doctor = draw.world["doctors"][visit["doctor_id"]]
    return {**_aid(draw), **_slot(draw, doctor, visit["appointment_id"])}


def _rx(draw: Draw) -> dict[str, Any]:
    return {"prescription_id": draw["prescription"]["prescription_id"]}


def _upcoming(draw: Draw) -> bool:
    return draw["appointment"]["date"] >= rules.TODAY


def _open_day(draw: Draw) -> dict[str, Any]:
    days = [rules.shift(rules.TODAY, n) for n in range(1, 21)]
    works = [d for d in days if f"{date.fromisoformat(d):%A}" in draw["doctor"]["days"]]
    return {"date": draw.rng.choice(works)}


def _fills(draw: Draw) -> dict[str, Any]:
    fills, rx = draw.extra["fills"], draw["prescription"]
    return {"expression": f"{rules.fill_copay(draw.world, rx)} * {fills}"}


def _said(*lines: str) -> tuple[str, ...]:
    """Phrases written several to a line, split at " | "."""
    return tuple(p.strip() for line in lines for p in line.split(" | "))


GOALS = (
    Goal(
        "book",
        "book_appointment",
        ("patient", "doctor"),
        _booking,
        words=_said(
            "book an appointment with {doctor} on {date} at {time}",
            "see {doctor} on {date}, {time} | get a {time} slot with {doctor} on {date}",
            "come in to see {doctor} at {time} on {date}",
        ),
        done="You are booked with {doctor} on {date} at {time}: appointment {appointment_id}; "
        "the copay is {copay}.",
        report=("appointment_id",),
        before=(
            ("get_doctor_schedule", lambda d: {k: d.args[k] for k in ("doctor_id", "date")}),
            ("quote_visit", lambda d: {k: d.args[k] for k in ("patient_id", "doctor_id")}),
        ),
        check=rules.check_booking,
        price="copay",
        price_noun="copay",
        motives=_said(
            "I've had a rash that won't clear up. | It's time for my yearly check.",
            "My knee has been bothering me. | I need my blood pressure looked at.",
            "A friend recommended this doctor. | I just moved to the area.",
            "I've been sleeping badly for weeks. | My employer wants a health form signed.",
            "I need a follow-up after my lab results. | My back has been stiff since the move.",
        ),
        weight=4,
    ),
    Goal(
        "cancel",
        "cancel_appointment",
        ("appointment",),
        _aid,
        words=_said(
            "cancel {appointment} | call off {appointment} | drop {appointment}",
            "take {appointment} off the books",
        ),
        done="{appointment} is cancelled; the late fee is {late_fee}.",
        report=("late_fee",),
        check=rules.cancel_fee,
        motives=_said(
            "I'm feeling better now. | I have to travel for work. | My car broke down.",
            "My daughter's school called me in. | I got an earlier slot at another clinic.",
            "I'm stuck at home with the flu. | Our childcare fell through.",
        ),
    ),
    Goal(
        "move",
        "reschedule_appointment",
        ("appointment",),
        _move,
        words=_said(
            "move {appointment} to {date} at {time} | reschedule {appointment} for {date}, {time}",
            "push {appointment} to {time} on {date}",
        ),
        done="{appointment} is moved to {date} at {time}.",
        check=rules.check_move,
        when=_upcoming,
        motives=_said(
            "That morning I have a school run. | My shift pattern changed.",
            "I have a job interview that day. | My ride can only take me another day.",
            "I'll be out of town then. | I'd rather not miss a meeting at work.",
        ),
    ),
    Goal(
        "refill",
        "request_refill",
        ("prescription",),
        _rx,
        words=_said(
            "refill {prescription} | order a refill of {prescription}",
            "get a refill of {prescription} | have {prescription} refilled",
        ),
        done="Your refill of {prescription} is ordered at {pharmacy_name}, ready on {ready_on}; "
        "the copay is {copay}.",
        report=("ready_on", "copay"),
        before=(("get_refill_quote", _rx),),
        check=rules.check_refill,
        price="copay",
        price_noun="copay",
        motives=_said(
            "I'm down to my last few pills. | I'm going away next week. | I ran low.",
            "I dropped the bottle down the sink. | I want to stock up before a trip.",
            "My pharmacy said to call you. | I don't want to miss a day.",
        ),
        weight=4,
    ),
    Goal(
        "transfer",
        "transfer_prescription",
        ("prescription", "pharmacy"),
        lambda d: {**_rx(d), "pharmacy_id": d["pharmacy"]["pharmacy_id"]},
        words=_said(
            "move {prescription} to {pharmacy}",
            "have {prescription} filled at {pharmacy} from now on",
            "switch {prescription} over to {pharmacy}",
        ),
        done="{prescription} now goes to {pharmacy}, with its {refills_left} refills left.",
        check=rules.check_transfer,
        when=lambda d: d["pharmacy"]["pharmacy_id"] != d["prescription"]["pharmacy_id"],
        motives=_said(
            "The new one is closer to my office. | My old pharmacy keeps running out.",
            "I moved across town. | The other one is open later. | The queue there is shorter.",
        ),
    ),
    Goal(
        "when",
        "get_appointment",
        ("appointment",),
        _aid,
        words=_said(
            "what time {appointment} is | at what time {appointment} starts",
            "what time I should be there for {appointment}",
        ),
        done="{appointment} is at {time} on {date}.",
        report=("time",),
        when=lambda d: _upcoming(d) and d["appointment"]["status"] == "scheduled",
        motives=_said(
            "I lost the reminder card. | I need to book time off work.",
            "I have to arrange a ride. | My calendar got wiped.",
        ),
    ),
    Goal(
        "refills",
        "get_prescription",
        ("prescription",),
        _rx,
        words=_said(
            "how many refills are left on {prescription} and when it expires",
            "when {prescription} runs out of refills and expires",
            "what the refill count and expiry date of {prescription} are",
        ),
        done="{prescription} has {refills_left} refills left and expires on {expires}.",
        report=("refills_left", "expires"),
        motives=_said(
            "I want to plan ahead. | My doctor asked me to check.",
            "I'm switching insurance soon. | I'm travelling for two months.",
        ),
    ),
    Goal(
        "openings",
        "get_doctor_schedule",
        ("doctor",),
        lambda d: {"doctor_id": d["doctor"]["doctor_id"], "date": d.extra["date"]},
        words=_said(
            "which times {doctor} has open on {date} | when {doctor} is free on {date}",
            "what slots {doctor} still has on {date}",
        ),
        done="{doctor} has these times open on {date}: {open}.",
        report=("open",),
        extra=_open_day,
        motives=_said(
            "I'm trying to fit a visit around work. | I'd like to come in soon.",
            "I can only get away for an hour. | My son needs to come with me.",
        ),
        weight=2,
    ),
    Goal(
        "search",
        "search_doctors",
        (),
        lambda d: {"specialty": d.rng.choice(SPECIALTIES)},
        words=_said(
            "which {specialty} doctors the clinic has | who does {specialty} at the clinic",
            "which doctors there practise {specialty}",
        ),
        done="Our {specialty} doctors are: {names}.",
        report=("names",),
        derive=lambda found: {"names": [d["name"] for d in found]},
        motives=_said(
            "My GP suggested I see a specialist. | I'm new to the clinic.",
            "My mother needs a specialist. | I'd like a second opinion.",
        ),
        weight=2,
    ),
    Goal(
        "coverage",
        "get_insurance_plan",
        ("patient",),
        lambda d: {"plan_id": d["patient"]["plan_id"]},
        words=_said(
            "what my insurance charges for a specialist visit and what my deductible is",
            "what the specialist copay and the deductible on my plan are",
            "how much a specialist visit costs me on my plan, and my deductible",
            "what my plan's deductible is and what I pay to see a specialist",
        ),
        done="On the {name} plan a specialist visit costs {specialist_copay} and the "
        "deductible is {deductible}.",
        report=("specialist_copay", "deductible"),
        motives=_said(
            "I'm budgeting for the year. | I might need to see a specialist.",
            "My employer changed our insurance. | I'm comparing plans for next year.",
            "My knee might need a specialist. | A colleague said her copay went up.",
        ),
        weight=2,
    ),
    Goal(
        "cost",
        "calculate",
        ("prescription",),
        _fills,
        words=_said(
            "what {fills} fills of {prescription} would cost me in copays",
            "how much {fills} refills of {prescription} come to",
            "what I'd pay in copays for {fills} fills of {prescription}",
        ),
        done="{fills} fills of {prescription} come to {result} dollars in copays.",
        extra=lambda d: {"fills": d.rng.randint(2, 6)},
        report=("result",),
        before=(("get_refill_quote", _rx),),
        motives=_said(
            "I'm planning my expenses. | Money is tight this year.",
            "I'm setting up a health savings account. | My partner asked what it costs us.",
        ),
        weight=2,
    ),
    Goal(
        "nurse",
        "transfer_to_human_agents",
        ("prescription",),
        lambda d: {"summary": f"Clinical question about {d['prescription']['prescription_id']}"},
        words=_said(
            "find out whether I can take {prescription} together with ibuprofen",
            "check if it's safe to double up on {prescription} after a missed dose",
            "ask someone whether {prescription} is fine with a glass of wine",
        ),
        done="I can't give medical advice, so I have transferred you to our nurse line about "
        "prescription {prescription[prescription_id]}.",
        report=("prescription.prescription_id",),
        motives=_said(
            "I have a headache. | I forgot yesterday's dose.",
            "We have a wedding on Saturday. | I feel a bit dizzy today.",
        ),
        weight=2,
    ),
    Goal(
        "billing",
        "transfer_to_human_agents",
        ("appointment",),
        lambda d: {"summary": f"Billing dispute, appointment {d['appointment']['appointment_id']}"},
        words=_said(
            "dispute the bill for {appointment} | complain about the charge for {appointment}",
            "query the invoice I got for {appointment}",
        ),
        done="Billing disputes go to our billing team, so I have transferred you to a human "
        "agent about {appointment} at {appointment[time]}.",
        report=("appointment.time",),
        when=lambda d: d["appointment"]["status"] == "completed",
        motives=_said(
            "I was charged twice. | My insurance should have covered it.",
            "The amount looks far too high. | I paid the copay at the desk already.",
        ),
        weight=2,
    ),
)


class MedicineDomain(StatefulDomain):
    """A clinic desk: 30 doctors, 7 pharmacies, 200 patients, ~450 visits, ~500 prescriptions."""

    name = "medicine"
    version = "1.0"
    toolkit = ClinicTools
    rules = rules
    entities = ENTITIES
    goals = GOALS

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return build_world(rng)
