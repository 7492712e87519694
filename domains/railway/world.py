"""Build a run's seeded railway world (stations, trains, customers, bookings) as plain JSON.

Every task of a run starts from the same world (`RailwayDomain.world`) and shares one fixed clock
(`rules.TODAY`, `rules.NOW`, also stated in policy.md); dates of trains are drawn relative to it:
some have departed (earlier today or on a past day), a few were cancelled by the operator, some
bookings were cancelled, and some customers travel one route twice (the clarifications' case).
Money is a float rounded to 2 decimals. The result depends only on the rng handed in.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from faker import Faker

from domains.railway.rules import FARE_CLASSES, MAX_BAGS, NOW, TIERS, TODAY

# (code, city, station name)
STATIONS: tuple[tuple[str, str, str], ...] = (
    ("LDN", "London", "London Kings Cross"),
    ("EDB", "Edinburgh", "Edinburgh Waverley"),
    ("MAN", "Manchester", "Manchester Piccadilly"),
    ("BHM", "Birmingham", "Birmingham New Street"),
    ("LDS", "Leeds", "Leeds Station"),
    ("YRK", "York", "York Station"),
    ("NCL", "Newcastle", "Newcastle Central"),
    ("GLA", "Glasgow", "Glasgow Central"),
    ("BRI", "Bristol", "Bristol Temple Meads"),
    ("CDF", "Cardiff", "Cardiff Central"),
    ("LIV", "Liverpool", "Liverpool Lime Street"),
    ("OXF", "Oxford", "Oxford Station"),
    ("CAM", "Cambridge", "Cambridge Station"),
    ("NOT", "Nottingham", "Nottingham Station"),
    ("SHF", "Sheffield", "Sheffield Station"),
    ("PLY", "Plymouth", "Plymouth Station"),
)
DEPARTURES = ("06:15", "07:40", "08:30", "09:45", "11:10", "13:25", "15:50", "17:05", "18:40")
_SEATS = (0, 1, 2, 3, 4, 6, 9, 14, 22)


def shift(day: str, days: int) -> str:
    """The ISO date `days` after `day`."""
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def _arrival(departure: str, minutes: int) -> str:
    hours, mins = divmod(int(departure[:2]) * 60 + int(departure[3:]) + minutes, 60)
    return f"{hours % 24:02d}:{mins:02d}"


def make_train(
    rng: random.Random, number: str, route: tuple[str, str, float, int], day: str, departure: str
) -> dict[str, Any]:
    """One scheduled service of `route` = (origin, destination, base fare, minutes)."""
    origin, destination, base, minutes = route
    standard = round(base * rng.choice((0.9, 1.0, 1.0, 1.2, 1.35)), 2)
    return {
        "train_number": number,
        "origin": origin,
        "destination": destination,
        "date": day,
        "departure_time": departure,
        "arrival_time": _arrival(departure, minutes),
        "status": "scheduled",
        "fares": {
            "saver": round(standard * 0.6, 2),
            "standard": standard,
            "first": round(standard * 1.75, 2),
        },
        "seats_left": {c: rng.choice(_SEATS) for c in FARE_CLASSES},
    }


def make_booking(
    state: dict[str, Any], customer_id: str, train: dict[str, Any], fare_class: str, passengers: int
) -> dict[str, Any]:
    """Add a confirmed booking under the next booking id and return it (seats are not touched:
    `seats_left` counts what is still for sale)."""
    booking_id = f"BK{state['next_booking_number']}"
    state["next_booking_number"] += 1
    booking = {
        "booking_id": booking_id,
        "customer_id": customer_id,
        "train_number": train["train_number"],
        "origin": train["origin"],
        "destination": train["destination"],
        "travel_date": train["date"],
        "fare_class": fare_class,
        "passengers": passengers,
        "ticket_price": round(train["fares"][fare_class] * passengers, 2),
        "luggage": 0,
        "fees_paid": 0.0,
        "status": "confirmed",
        "refund_amount": 0.0,
    }
    state["bookings"][booking_id] = booking
    state["customers"][customer_id]["booking_ids"].append(booking_id)
    return booking


def _slug(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _routes(rng: random.Random, count: int) -> list[tuple[str, str, float, int]]:
    """`count` distinct routes (origin, destination, base fare, minutes) between the stations."""
    codes = [s[0] for s in STATIONS]
    pairs = rng.sample([(a, b) for a in codes for b in codes if a != b], count)
    return [
        (a, b, rng.randint(24, 110) + rng.choice((0.0, 0.25, 0.5, 0.75)), rng.randint(55, 320))
        for a, b in pairs
    ]


def build_world(rng: random.Random) -> dict[str, Any]:
    """One run's railway: every station, 14 routes with two or three services on each of five
    or six dates (one may be past), 140 customers with one to four bookings each (a quarter of
    them a second trip on one route) — about 900 records in all."""
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    routes = _routes(rng, 14)
    state: dict[str, Any] = {
        "today": TODAY,
        "now": NOW,
        "stations": {c: {"code": c, "city": t, "name": n} for c, t, n in STATIONS},
        "trains": {},
        "customers": {},
        "bookings": {},
        "next_booking_number": rng.randint(1000, 5000),
    }
    numbers = iter(rng.sample(range(100, 1000), 900))
    for route in routes:
        offsets = sorted(rng.sample(range(0, 31), rng.randint(4, 5)))
        if 0 not in offsets and rng.random() < 0.4:  # trains of today, some gone already
            offsets.insert(0, 0)
        if rng.random() < 0.6:
            offsets.insert(0, -rng.randint(1, 6))
        for offset in offsets:
            for departure in sorted(rng.sample(DEPARTURES, rng.randint(2, 3))):
                day = shift(TODAY, offset)
                train = make_train(rng, f"RW{next(numbers)}", route, day, departure)
                if offset > 0 and rng.random() < 0.05:
                    train["status"] = "cancelled"  # by the operator
                state["trains"][train["train_number"]] = train
    trains = list(state["trains"].values())
    emails: set[str] = set()
    for customer_number in rng.sample(range(10000, 100000), 140):
        first, last = fake.first_name(), fake.last_name()
        customer_id = f"C{customer_number}"
        email = f"{_slug(first)}.{_slug(last)}{rng.randint(1, 999)}@example.com"
        while email in emails:
            email = f"{_slug(first)}.{_slug(last)}{rng.randint(1, 999)}@example.com"
        emails.add(email)
        state["customers"][customer_id] = {
            "customer_id": customer_id,
            "name": f"{first} {last}",
            "email": email,
            "membership": rng.choices(TIERS, weights=(5, 3, 2))[0],
            "booking_ids": [],
        }
        picked = rng.sample(trains, rng.randint(1, 4))
        classes = rng.choices(FARE_CLASSES, weights=(2, 5, 3), k=len(picked))
        if rng.random() < 0.25:  # the same route in the same class again, on another date
            again = picked[0]["origin"], picked[0]["destination"]
            picked.append(
                rng.choice([t for t in trains if (t["origin"], t["destination"]) == again])
            )
            classes.append(classes[0])
        for train, fare_class in zip(picked, classes, strict=True):
            passengers = rng.randint(1, 3)
            booking = make_booking(state, customer_id, train, fare_class, passengers)
            booking["luggage"] = min(rng.choice((0, 0, 0, 1, 2, 3)), MAX_BAGS * passengers)
            if rng.random() < 0.08:
                booking["status"] = "cancelled"
    return state
