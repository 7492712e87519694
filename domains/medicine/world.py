"""Build a run's clinic world from the rng alone: 5 plans, 30 doctors, 7 pharmacies, 200 patients,
~450 visits (three weeks back to six ahead), ~450 prescriptions (some of one drug in two strengths,
so clarifications have records to choose between)."""

from __future__ import annotations

import random
from typing import Any

from faker import Faker

from domains.medicine.rules import PRIMARY, TODAY
from toolscale.kit import Record, insert
from toolscale.kit.clock import shift, weekday
from toolscale.kit.people import people

SPECIALTIES = ("cardiology", "dermatology", "orthopedics", "neurology", "endocrinology")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
TIMES = tuple(f"{h:02d}:{m}" for h in range(8, 17) if h != 12 for m in ("00", "30"))
PLANS = ("Bronze HMO", "Silver HMO", "Gold PPO", "Platinum PPO", "Valley Care HMO")
STREETS = ("Elm Street", "Harbor", "Maple Row", "Northside", "Union Square", "Westgate", "Oak Hill")
# drug, strengths, formulary tier, controlled-substance schedule ("" when none)
DRUGS = (
    ("atorvastatin", ("10 mg", "20 mg", "40 mg"), "generic", ""),
    ("lisinopril", ("5 mg", "10 mg", "20 mg"), "generic", ""),
    ("metformin", ("500 mg", "850 mg", "1000 mg"), "generic", ""),
    ("levothyroxine", ("50 mcg", "75 mcg", "100 mcg"), "generic", ""),
    ("sertraline", ("25 mg", "50 mg", "100 mg"), "generic", ""),
    ("omeprazole", ("20 mg", "40 mg"), "generic", ""),
    ("amlodipine", ("2.5 mg", "5 mg", "10 mg"), "generic", ""),
    ("fluticasone inhaler", ("110 mcg", "220 mcg"), "brand", ""),
    ("insulin glargine", ("100 units/mL", "300 units/mL"), "brand", ""),
    ("apixaban", ("2.5 mg", "5 mg"), "brand", ""),
    ("oxycodone", ("5 mg", "10 mg"), "generic", "C-II"),
    ("methylphenidate", ("10 mg", "20 mg"), "brand", "C-II"),
)


def _plan(rng: random.Random, number: int, name: str) -> Record:
    primary, more = rng.choice((10.0, 15.0, 20.0, 25.0)), rng.choice((15.0, 25.0, 35.0))
    plan = {"plan_id": f"PL{number}", "name": name, "referrals": name.endswith("HMO")}
    plan |= {"primary_copay": primary, "specialist_copay": primary + more}
    plan |= {"generic_copay": rng.choice((5.0, 8.0, 10.0, 12.0))}
    plan |= {"brand_copay": rng.choice((30.0, 40.0, 45.0, 60.0))}
    return plan | {"deductible": float(rng.choice((500, 1000, 1500, 2500, 3000)))}


def _visit(state: Record, rng: random.Random, pid: str, doctor: Record, taken: set) -> None:
    day = shift(TODAY, rng.randint(-21, 40))
    while weekday(day) not in doctor["days"]:
        day = shift(TODAY, rng.randint(-21, 40))
    time = rng.choice(doctor["times"])
    if (doctor["doctor_id"], day, time) in taken:
        return
    taken.add((doctor["doctor_id"], day, time))
    past = day < TODAY
    status = rng.choice(("completed", "completed", "no_show")) if past else "scheduled"
    status = "cancelled" if not past and rng.random() < 0.1 else status
    fields = {"patient_id": pid, "doctor_id": doctor["doctor_id"], "date": day, "time": time}
    insert(state, "appointments", "AP", {**fields, "status": status}, counter="next_id")


def _prescribe(state: Record, rng: random.Random, pid: str, drug: tuple, prescriber: str) -> None:
    name, strengths, tier, schedule = drug
    mine = [r for r in state["prescriptions"].values() if r["patient_id"] == pid]
    held = {(r["drug"], r["strength"]) for r in mine}
    supply, written = rng.choice((30, 30, 90)), shift(TODAY, -rng.randint(5, 420))
    fields = {"patient_id": pid, "drug": name, "tier": tier, "schedule": schedule}
    fields |= {"strength": rng.choice([s for s in strengths if (name, s) not in held])}
    fields |= {"prescriber_id": prescriber, "pharmacy_id": state["patients"][pid]["pharmacy_id"]}
    fields |= {
        "written": written,
        "days_supply": supply,
        "refills_left": rng.choice((0, 1, 2, 3, 5)),
    }
    fields |= {"last_filled": max(written, shift(TODAY, -rng.randint(0, supply + 10)))}
    fields |= {"status": "active" if rng.random() < 0.9 else "discontinued"}
    insert(state, "prescriptions", "RX", fields, counter="next_id")


def build_world(rng: random.Random) -> dict[str, Any]:
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    plans = {f"PL{n}": _plan(rng, n, name) for n, name in enumerate(PLANS, start=1)}
    doctors: dict[str, Record] = {}
    for number in rng.sample(range(100, 1000), 30):
        doctors[f"D{number}"] = {
            "doctor_id": f"D{number}",
            "name": f"Dr. {fake.first_name()} {fake.last_name()}",
            "specialty": PRIMARY if len(doctors) < 12 else rng.choice(SPECIALTIES),
            "days": sorted(rng.sample(WEEKDAYS, rng.randint(2, 4)), key=WEEKDAYS.index),
            "times": sorted(rng.sample(TIMES, rng.randint(5, 9))),
            "networks": sorted(rng.sample(sorted(plans), rng.randint(2, 4))),
        }
    kinds = ("Pharmacy", "Drugstore", "Apothecary")
    pharmacies = {
        f"PH{n}": {"pharmacy_id": f"PH{n}", "name": f"{street} {rng.choice(kinds)}"}
        for street, n in zip(STREETS, rng.sample(range(10, 99), len(STREETS)), strict=True)
    }
    patients = people(rng, 200, "PT", "patient_id")
    state: dict[str, Any] = {"now": f"{TODAY}T08:00", "next_id": rng.randint(10000, 80000)}
    state |= {"plans": plans, "doctors": doctors, "pharmacies": pharmacies, "patients": patients}
    state |= {"appointments": {}, "prescriptions": {}}
    primaries = [d for d in doctors.values() if d["specialty"] == PRIMARY]
    taken: set[tuple[str, str, str]] = set()
    for pid, patient in patients.items():
        patient["date_of_birth"] = fake.date_of_birth(minimum_age=18, maximum_age=90).isoformat()
        patient |= {
            "plan_id": rng.choice(sorted(plans)),
            "pharmacy_id": rng.choice(sorted(pharmacies)),
        }
        patient["referrals"] = rng.sample(SPECIALTIES, rng.choice((0, 0, 1, 2)))
        usual = rng.choice(primaries)
        for _ in range(rng.randint(1, 4)):
            doctor = usual if rng.random() < 0.5 else rng.choice(list(doctors.values()))
            _visit(state, rng, pid, doctor, taken)
        chosen = rng.sample(DRUGS, rng.randint(1, 3))
        for drug in chosen + chosen[:1] * (rng.random() < 0.2):  # the first again, another strength
            prescriber = usual if rng.random() < 0.7 else rng.choice(primaries)
            _prescribe(state, rng, pid, drug, prescriber["doctor_id"])
    return state
