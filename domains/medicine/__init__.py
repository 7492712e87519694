"""The medicine domain (stateful, kit v2): a clinic's front desk and pharmacy counter: visits,
refills, pharmacy transfers and copays; no medical advice (the nurse line, a human agent, gives it).
The world is `world.build_world`, the tool graph `tools`, the policy `rules` (policy.md)."""

from __future__ import annotations

from domains.medicine import rules, world
from domains.medicine.invariants import INVARIANTS
from domains.medicine.tools import ClinicTools
from toolscale.kit import Draw, Entity, Goal, Record, StatefulDomain
from toolscale.kit.clock import shift, weekday
from toolscale.kit.identify import Identification
from toolscale.kit.words import day


def _visit_words(visit: Record, world: Record, precise: bool) -> str:
    doctor = world["doctors"][visit["doctor_id"]]["name"]
    noun = ("appointment", "visit", "appointment")[int(visit["appointment_id"][2:]) % 3]
    return f"my {noun} with {doctor}" + (f" on {day(visit['date'])}" if precise else "")


def _rx_words(rx: Record, world: Record, precise: bool) -> str:
    return f"my {rx['drug']}" + (f" {rx['strength']}" if precise else "") + " prescription"


ENTITIES = (
    Entity("patient", labels={"phone": "phone number"}),
    Entity("doctor", said=("name",)),
    Entity("pharmacy", "pharmacies", said=("name",)),
    Entity(
        "appointment",
        owner="patient",
        describe=_visit_words,
        alike=lambda r: r["doctor_id"],
        tell="date",
        labels={"date": "appointment date"},
    ),
    Entity(
        "prescription",
        owner="patient",
        describe=_rx_words,
        alike=lambda r: r["drug"],
        tell="strength",
    ),
)


OPEN = world.WEEKDAYS  # the clinic's days


def _slot(draw: Draw) -> dict[str, str]:
    """A date and time with the doctor (of the visit being moved), now and then a taken one."""
    rng, visit = draw.rng, draw.records.get("appointment", {})
    doctor = draw.records.get("doctor") or draw.world["doctors"][visit["doctor_id"]]
    mine = (doctor["doctor_id"], "scheduled")
    booked = [
        a for a in draw.world["appointments"].values() if (a["doctor_id"], a["status"]) == mine
    ]
    booked = [a for a in booked if a["date"] > rules.TODAY and a != visit]
    if booked and rng.random() < 0.15:
        taken = rng.choice(booked)
        return {"date": taken["date"], "time": taken["time"]}
    # The clinic is open on weekdays: a day the doctor is out is one of those, never a weekend
    # (a Sunday would be refused for the clinic's days before the doctor's).
    offsets = [n for n in (*range(2, 45), 48, 52, 60) if weekday(shift(rules.TODAY, n)) in OPEN]
    for _ in range(8):
        when = shift(rules.TODAY, rng.choice(offsets))
        if weekday(when) in doctor["days"] or rng.random() < 0.2:
            break
    return {"date": when, "time": rng.choice(doctor["times"])}


def _open_day(draw: Draw) -> dict[str, str]:
    days = [shift(rules.TODAY, n) for n in range(1, 21)]
    return {"date": draw.rng.choice([d for d in days if weekday(d) in draw["doctor"]["days"]])}


# Why a caller wants a refill: running low only when the record says the supply runs low.
LOW = ("I'm down to my last few pills.", "I ran low.")
ANY_SUPPLY = (
    "I'm going away next week.",
    "I dropped the bottle down the sink.",
    "I want to stock up before a trip.",
    "My pharmacy said to call you.",
    "I don't want to miss a day.",
)


def _refill_motives(draw: Draw) -> tuple[str, ...]:
    """A caller whose supply lasts beyond the refill window (a 90-day fill 45 days ago) is not
    "down to my last few pills"."""
    rx = draw["prescription"]
    runs_out = shift(rx["last_filled"], rx["days_supply"])
    low = runs_out <= shift(rules.TODAY, rules.REFILL_EARLY_DAYS)
    return (*LOW, *ANY_SUPPLY) if low else ANY_SUPPLY


# One question a nurse-line caller asks, in every wording, and the motives that lead to it (the
# opening and the reason once asked two: ibuprofen, then a glass of wine).
NURSE_MOTIVES = {
    "together with ibuprofen": ("I have a headache.", "My back is aching."),
    "twice today after a missed dose": ("I forgot yesterday's dose.", "I feel a bit dizzy today."),
    "with a glass of wine": ("We have a wedding on Saturday.", "We're going out for dinner."),
}

GOALS = (
    Goal(
        "book_appointment",
        extra=_slot,
        words="book an appointment with {doctor} on {date} at {time} | see {doctor} on {date}, "
        "{time} | get a {time} slot with {doctor} on {date} | come in to see {doctor} at {time} "
        "on {date}",
        done="You are booked with {doctor} on {date} at {time}: appointment {appointment_id}; "
        "the copay is {copay}.",
        report=("appointment_id",),
        before=("get_doctor_schedule", "quote_visit"),
        check=rules.check_booking,
        price="copay",
        motives="I've had a rash that won't clear up. | It's time for my yearly check. | My knee "
        "has been bothering me. | I need my blood pressure looked at. | A friend recommended "
        "this doctor. | I just moved to the area. | I've been sleeping badly for weeks. | My "
        "employer wants a health form signed. | I need a follow-up after my lab results. | My "
        "back has been stiff since the move.",
        weight=4,
    ),
    Goal(
        "cancel_appointment",
        words="cancel {appointment} | call off {appointment} | drop {appointment} | take "
        "{appointment} off the books",
        done="{appointment} is cancelled; the late fee is {late_fee}.",
        check=rules.cancel_fee,
        motives="I'm feeling better now. | I have to travel for work. | My car broke down. | My "
        "daughter's school called me in. | I got an earlier slot at another clinic. | I'm stuck "
        "at home with the flu. | Our childcare fell through.",
    ),
    Goal(
        "reschedule_appointment",
        extra=_slot,
        words="move {appointment} to {date} at {time} | reschedule {appointment} for {date}, "
        "{time} | push {appointment} to {time} on {date}",
        done="{appointment} is moved to {date} at {time}.",
        check=rules.check_move,
        when=lambda d: d["appointment"]["date"] >= rules.TODAY,
        motives="That morning I have a school run. | My shift pattern changed. | I have a job "
        "interview that day. | My ride can only take me another day. | I'll be out of town "
        "then. | I'd rather not miss a meeting at work.",
    ),
    Goal(
        "request_refill",
        words="refill {prescription} | order a refill of {prescription} | get a refill of "
        "{prescription} | have {prescription} refilled",
        done="Your refill of {prescription} is ordered at {pharmacy_name}, ready on {ready_on}; "
        "the copay is {copay}.",
        report=("ready_on", "copay"),
        before=("get_refill_quote",),
        check=rules.check_refill,
        price="copay",
        motives=(*LOW, *ANY_SUPPLY),
        motives_for=_refill_motives,
        weight=4,
    ),
    Goal(
        "transfer_prescription",
        extra=lambda d: {"pharmacy_id": d["pharmacy"]["pharmacy_id"]},
        words="move {prescription} to {pharmacy} | have {prescription} filled at {pharmacy} "
        "from now on | switch {prescription} over to {pharmacy}",
        done="{prescription} now goes to {pharmacy}, with its {refills_left} refills left.",
        check=rules.check_transfer,
        when=lambda d: d["pharmacy"]["pharmacy_id"] != d["prescription"]["pharmacy_id"],
        motives="The new one is closer to my office. | My old pharmacy keeps running out. | I "
        "moved across town. | The other one is open later. | The queue there is shorter.",
    ),
    Goal(
        "get_appointment",
        words="what time {appointment} is | at what time {appointment} starts | what time I "
        "should be there for {appointment}",
        done="{appointment} is at {time}.",
        when=lambda d: d["appointment"]["status"] == "scheduled",  # scheduled: today or later
        motives="I lost the reminder card. | I need to book time off work. | I have to arrange "
        "a ride. | My calendar got wiped.",
    ),
    Goal(
        "get_prescription",
        words="how many refills are left on {prescription} and when it expires | when "
        "{prescription} runs out of refills and expires | what the refill count and expiry date "
        "of {prescription} are",
        done="{prescription} has {refills_left} refills left and expires on {expires}.",
        motives="I want to plan ahead. | My doctor asked me to check. | I'm switching insurance "
        "soon. | I'm travelling for two months.",
    ),
    Goal(
        "get_doctor_schedule",
        extra=_open_day,
        words="which times {doctor} has open on {date} | when {doctor} is free on {date} | what "
        "slots {doctor} still has on {date}",
        done="{doctor} has these times open on {date}: {open}.",
        motives="I'm trying to fit a visit around work. | I'd like to come in soon. | I can only "
        "get away for an hour. | My son needs to come with me.",
        weight=2,
    ),
    Goal(
        "search_doctors",
        extra=lambda d: {"specialty": d.rng.choice(world.SPECIALTIES)},
        words="which {specialty} doctors the clinic has | who does {specialty} at the clinic | "
        "which doctors there practise {specialty}",
        done="Our {specialty} doctors are: {names}.",
        derive=lambda found: {"names": [d["name"] for d in found]},
        motives="My GP suggested I see a specialist. | I'm new to the clinic. | My mother needs "
        "a specialist. | I'd like a second opinion.",
        weight=2,
    ),
    Goal(
        "coverage",
        "get_insurance_plan",
        ("patient",),
        words="what my insurance charges for a specialist visit and what my deductible is | what "
        "the specialist copay and the deductible on my plan are | how much a specialist visit "
        "costs me on my plan, and my deductible | what my plan's deductible is and what I pay "
        "to see a specialist",
        done="On your plan a specialist visit costs {specialist_copay}; the deductible is "
        "{deductible}.",
        motives="I'm budgeting for the year. | I might need to see a specialist. | My employer "
        "changed our insurance. | I'm comparing plans for next year. | My knee might need a "
        "specialist. | A colleague said her copay went up.",
        weight=2,
    ),
    Goal(
        "cost",
        "calculate",
        ("prescription",),
        lambda d: {
            "expression": f"{rules.fill_copay(d.world, d['prescription'])} * {d.extra['fills']}"
        },
        extra=lambda d: {"fills": d.rng.randint(2, 6)},
        words="what {fills} fills of {prescription} would cost me in copays | how much {fills} "
        "refills of {prescription} come to | what I'd pay in copays for {fills} fills of "
        "{prescription}",
        done="{fills} fills of {prescription} come to {result} dollars in copays.",
        before=("get_refill_quote",),
        motives="I'm planning my expenses. | Money is tight this year. | I'm setting up a health "
        "savings account. | My partner asked what it costs us.",
        weight=2,
    ),
    Goal(
        "nurse",
        "transfer_to_human_agents",
        ("prescription",),
        extra=lambda d: {"with": d.rng.choice(tuple(NURSE_MOTIVES))},
        words="find out whether I can take {prescription} {with} | check if it's safe to take "
        "{prescription} {with} | ask someone whether I may take {prescription} {with}",
        done="I can't give medical advice, so I have transferred you to our nurse line about "
        "prescription {prescription[prescription_id]}.",
        motives=tuple(dict.fromkeys(m for ms in NURSE_MOTIVES.values() for m in ms)),
        motives_for=lambda d: NURSE_MOTIVES[d.extra["with"]],
        weight=2,
    ),
    Goal(
        "billing",
        "transfer_to_human_agents",
        ("appointment",),
        words="dispute the bill for {appointment} | complain about the charge for {appointment} "
        "| query the invoice I got for {appointment}",
        done="Billing disputes go to our billing team, so I have transferred you to a human "
        "agent about {appointment} at {appointment[time]}.",
        when=lambda d: d["appointment"]["status"] == "completed",
        motives="I was charged twice. | My insurance should have covered it. | The amount looks "
        "far too high. | I paid the copay at the desk already.",
        weight=2,
    ),
)


class MedicineDomain(StatefulDomain):
    """A clinic desk: 30 doctors, 7 pharmacies, 200 patients, ~450 visits, ~500 prescriptions."""

    name = "medicine"
    version = "1.9"
    invariants = INVARIANTS
    identification = Identification("patient", ("email", "phone", "patient_id"))
    toolkit = ClinicTools
    rules = rules
    entities = ENTITIES
    goals = GOALS
    build_world = staticmethod(world.build_world)
