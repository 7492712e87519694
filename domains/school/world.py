"""Build a run's school: 45 classes over years 7-11, 160 families with ~250 students, their
enrolments (~1,100) with grades, attendance, invoices (~500) and ten trips.

Every student takes the three core subjects of their year and up to three electives, enrolled
from the term's start to a few days before `rules.TODAY`; some electives are full, some families
owe overdue fees, and some trips' consent dates have passed. Depends only on the rng handed in.
"""

from __future__ import annotations

import random
from typing import Any

from faker import Faker

from domains.school import rules
from domains.school.rules import shift

CORE = ("Maths", "English", "Science")
ELECTIVES = ("Robotics", "Drama", "Art", "Music", "Spanish", "Coding")
YEARS = (7, 8, 9, 10, 11)
GRADES = ("A", "B", "B", "C", "C", "D", "E")
TRIPS = (
    "Science Museum",
    "Coastal Fieldwork",
    "Theatre Matinee",
    "Castle History",
    "Ski Week",
    "Art Gallery",
    "Space Centre",
    "Farm Visit",
    "French Exchange",
    "Robotics Fair",
)
PICKUPS = ("Grandma", "Uncle Joe", "Aunt May", "Mrs Patel", "Mr Okafor")
BILLS = (("lunch", 42, 96), ("music lessons", 60, 180), ("uniform", 25, 90))
MONTHS = (("2025-08-15", "August"), ("2025-09-15", "September"), ("2025-10-15", "October"))


def _classes(rng: random.Random) -> dict[str, Any]:
    classes = {}
    pairs = [(year, subject) for year in YEARS for subject in CORE + ELECTIVES]
    for number, (year, subject) in zip(rng.sample(range(100, 1000), 45), pairs, strict=True):
        cid, elective = f"CL{number}", subject in ELECTIVES
        classes[cid] = {
            "class_id": cid,
            "name": f"Year {year} {subject}",
            "subject": subject,
            "year": year,
            "elective": elective,
            "capacity": rng.choice((12, 14, 16, 18)) if elective else 120,
        }
    return classes


def _student(rng: random.Random, names: dict, sid: str, guardian: dict, taken: set) -> dict:
    """A child of `guardian`, named apart from the siblings named `taken`."""
    child = rng.choice(("son", "daughter"))
    return {
        "student_id": sid,
        "guardian_id": guardian["guardian_id"],
        "first_name": rng.choice([n for n in names[child] if n not in taken]),
        "last_name": guardian["name"].split()[-1],
        "child": child,
        "year": rng.choice(YEARS),
        "tutor": f"Mr {rng.choice(names['last'])}",
        "bursary": rng.random() < 0.15,
        "pickups": rng.sample(PICKUPS, rng.choice((0, 1, 2, 3))),
        "days_present": rng.randint(18, 25),
        "absences": sorted(
            shift(rules.TODAY, -rng.randint(1, 30)) for _ in range(rng.randint(0, 2))
        ),
    }


def _courses(state: dict, rng: random.Random, ids: Any, student: dict, count: dict) -> None:
    year = [c for c in state["classes"].values() if c["year"] == student["year"]]
    electives = rng.sample([c for c in year if c["elective"]], rng.randint(0, 3))
    for course in [c for c in year if not c["elective"]] + electives:
        if count.get(course["class_id"], 0) >= course["capacity"]:
            continue
        count[course["class_id"]] = count.get(course["class_id"], 0) + 1
        eid = f"E{next(ids)}"
        state["enrolments"][eid] = {
            "enrolment_id": eid,
            "student_id": student["student_id"],
            "class_id": course["class_id"],
            "subject": course["subject"],
            "enrolled_on": shift("2025-09-01", rng.randint(0, 30) if course["elective"] else 0),
            "grade": rng.choice(GRADES),
        }
    for due, month in rng.sample(MONTHS, rng.randint(1, 3)):
        kind, low, high = rng.choice(BILLS)
        iid = f"IN{next(ids)}"
        state["invoices"][iid] = {
            "invoice_id": iid,
            "student_id": student["student_id"],
            "kind": kind,
            "month": month,
            "due": due,
            "amount": float(rng.randint(low, high)),
            # paid before today, however late it falls due (`invariants`)
            "paid": min(shift(due, -rng.randint(1, 9)), shift(rules.TODAY, -rng.randint(1, 5)))
            if rng.random() < 0.55
            else "",
        }


def build_world(rng: random.Random) -> dict[str, Any]:
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    state: dict[str, Any] = {"today": rules.TODAY, "guardians": {}, "students": {}}
    state |= {"classes": _classes(rng), "enrolments": {}, "invoices": {}, "trips": {}}
    ids = iter(rng.sample(range(10000, 100000), 3000))
    count: dict[str, int] = {}
    names = {  # faker's draws are slow: a pool of each kind, drawn once
        "son": [fake.first_name_male() for _ in range(30)],
        "daughter": [fake.first_name_female() for _ in range(30)],
        "last": [fake.last_name() for _ in range(60)],
        "first": [fake.first_name() for _ in range(40)],
    }
    for number in rng.sample(range(1000, 10000), 160):
        first, last = rng.choice(names["first"]), rng.choice(names["last"])
        guardian = {"guardian_id": f"G{number}", "name": f"{first} {last}"}
        guardian |= {"email": f"{first}.{last}{number % 89}@mail.test".lower()}
        state["guardians"][guardian["guardian_id"]] = guardian | {"phone": f"555-{number:04d}"}
        taken: set[str] = set()
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
            student = _student(rng, names, f"S{next(ids)}", guardian, taken)
            taken.add(student["first_name"])
            state["students"][student["student_id"]] = student
            _courses(state, rng, ids, student, count)
    students = list(state["students"].values())
    for name in TRIPS:
        tid, years = f"T{next(ids)}", sorted(rng.sample(YEARS, rng.randint(1, 3)))
        going = [s["student_id"] for s in students if s["year"] in years and rng.random() < 0.3]
        state["trips"][tid] = {
            "trip_id": tid,
            "name": f"{name} trip",
            "years": years,
            "date": shift(rules.TODAY, rng.randint(10, 60)),
            "consent_by": shift(rules.TODAY, rng.randint(-10, 20)),
            "cost": float(rng.choice((12, 18, 25, 40, 65, 240))),
            "seats": len(going) + rng.choice((0, 1, 4, 10)),
            "going": going,
        }
    return state
