"""Build a run's clinic world: 5 insurance plans, 30 doctors, 7 pharmacies, 200 patients, with
~450 appointments (three weeks back to six weeks ahead) and ~500 prescriptions.

Some patients hold two prescriptions of one drug in different strengths, and see one doctor
twice, so clarifications have records to choose between. Depends only on the rng handed in.
"""

from __future__ import annotations

import random
from datetime import date
from typing import Any

from faker import Faker

from domains.medicine.rules import PRIMARY, TODAY, shift

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


def _slot(rng: random.Random, doctor: dict[str, Any], low: int, high: int) -> tuple[str, str]:
    while True:
        day = shift(TODAY, rng.randint(low, high))
        if f"{date.fromisoformat(day):%A}" in doctor["days"]:
            return day, rng.choice(doctor["times"])


def build_world(rng: random.Random) -> dict[str, Any]:
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    ids = iter(rng.sample(range(10000, 100000), 1300))
    state: dict[str, Any] = {"now": f"{TODAY}T08:00", "next_id": rng.randint(100000, 900000)}
    plans = state["plans"] = {}
    for number, name in enumerate(PLANS, start=1):
        primary = rng.choice((10.0, 15.0, 20.0, 25.0))
        plans[f"PL{number}"] = {
            "plan_id": f"PL{number}",
            "name": name,
            "referrals": name.endswith("HMO"),
            "primary_copay": primary,
            "specialist_copay": primary + rng.choice((15.0, 25.0, 35.0)),
            "generic_copay": rng.choice((5.0, 8.0, 10.0, 12.0)),
            "brand_copay": rng.choice((30.0, 40.0, 45.0, 60.0)),
            "deductible": float(rng.choice((500, 1000, 1500, 2500, 3000))),
        }
    doctors = state["doctors"] = {}
    for number in rng.sample(range(100, 1000), 30):
        special = PRIMARY if len(doctors) < 12 else rng.choice(SPECIALTIES)
        doctors[f"D{number}"] = {
            "doctor_id": f"D{number}",
            "name": f"Dr. {fake.first_name()} {fake.last_name()}",
            "specialty": special,
            "days": [d for d in WEEKDAYS if d in rng.sample(WEEKDAYS, rng.randint(2, 4))],
            "times": sorted(rng.sample(TIMES, rng.randint(5, 9))),
            "networks": sorted(rng.sample(sorted(plans), rng.randint(2, 4))),
        }
    pharmacies = state["pharmacies"] = {}
    for street, number in zip(STREETS, rng.sample(range(10, 99), len(STREETS)), strict=True):
        kind = rng.choice(("Pharmacy", "Drugstore", "Apothecary"))
        pharmacies[f"PH{number}"] = {"pharmacy_id": f"PH{number}", "name": f"{street} {kind}"}
    patients, appointments, prescriptions = {}, {}, {}
    state.update(patients=patients, appointments=appointments, prescriptions=prescriptions)
    primaries = [d for d in doctors.values() if d["specialty"] == PRIMARY]
    slots: set[tuple[str, str, str]] = set()
    for number in rng.sample(range(1000, 10000), 200):
        first, last = fake.first_name(), fake.last_name()
        pid = f"PT{number}"
        patients[pid] = {
            "patient_id": pid,
            "name": f"{first} {last}",
            "email": f"{first}.{last}{number % 97}@example.org".lower(),
            "phone": f"555-{number:04d}",
            "date_of_birth": fake.date_of_birth(minimum_age=18, maximum_age=90).isoformat(),
            "plan_id": rng.choice(sorted(plans)),
            "referrals": rng.sample(SPECIALTIES, rng.choice((0, 0, 1, 2))),
            "pharmacy_id": rng.choice(sorted(pharmacies)),
        }
        usual = rng.choice(primaries)
        for _ in range(rng.randint(1, 4)):
            doctor = usual if rng.random() < 0.5 else rng.choice(list(doctors.values()))
            day, time = _slot(rng, doctor, -21, 40)
            if (doctor["doctor_id"], day, time) in slots:
                continue
            slots.add((doctor["doctor_id"], day, time))
            past = day < TODAY
            status = rng.choice(("completed", "completed", "no_show")) if past else "scheduled"
            aid = f"AP{next(ids)}"
            appointments[aid] = {
                "appointment_id": aid,
                "patient_id": pid,
                "doctor_id": doctor["doctor_id"],
                "date": day,
                "time": time,
                "status": "cancelled" if not past and rng.random() < 0.1 else status,
            }
        drugs = rng.sample(DRUGS, rng.randint(1, 3))
        if rng.random() < 0.2:
            drugs.append(drugs[0])  # the same drug again, in another strength
        strengths: set[tuple[str, str]] = set()
        for drug, doses, tier, schedule in drugs:
            dose = rng.choice([d for d in doses if (drug, d) not in strengths])
            strengths.add((drug, dose))
            supply = rng.choice((30, 30, 90))
            rid, written = f"RX{next(ids)}", shift(TODAY, -rng.randint(5, 420))
            prescriber = usual if rng.random() < 0.7 else rng.choice(primaries)
            prescriptions[rid] = {
                "prescription_id": rid,
                "patient_id": pid,
                "drug": drug,
                "strength": dose,
                "tier": tier,
                "schedule": schedule,
                "prescriber_id": prescriber["doctor_id"],
                "pharmacy_id": patients[pid]["pharmacy_id"],
                "written": written,
                "days_supply": supply,
                "last_filled": max(written, shift(TODAY, -rng.randint(0, supply + 10))),
                "refills_left": rng.choice((0, 1, 2, 3, 5)),
                "status": "active" if rng.random() < 0.9 else "discontinued",
            }
    return state
