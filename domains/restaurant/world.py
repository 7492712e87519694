"""Build a run's restaurant world: 24 restaurants with menus, 160 customers, ~450 reservations.

Reservations lie from ten days before `rules.TODAY` (completed, no-show) to four weeks after
(confirmed, some cancelled); a few evenings of each restaurant are fully booked, so some slots
have no table left. The result depends only on the rng handed in.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from faker import Faker

from domains.restaurant import rules

FIRST = [
    "Copper",
    "Saffron",
    "Olive",
    "Juniper",
    "Velvet",
    "Golden",
    "Harbour",
    "Maple",
    "Cedar",
    "Indigo",
    "Amber",
    "Willow",
]
SECOND = [
    "Lantern",
    "Table",
    "Kitchen",
    "Fig",
    "Spoon",
    "Hearth",
    "Garden",
    "Pantry",
    "Terrace",
    "Orchard",
    "Vine",
    "Ember",
]
AREAS = ("Riverside", "Old Town", "Harbour", "Northgate", "Westfield", "Market Square")
CUISINES = ("Italian", "Thai", "Indian", "French", "Japanese", "Mexican", "Greek", "Lebanese")
DISHES = {
    "vegetarian": ("mushroom risotto", "aubergine curry", "halloumi salad", "spinach gnocchi"),
    "vegan": ("lentil dhal", "tofu noodles", "roasted squash", "falafel plate"),
    "fish": ("grilled sea bass", "prawn linguine", "salmon teriyaki", "fish stew"),
    "meat": ("lamb shank", "chicken tagine", "beef ragu", "pork belly", "duck confit"),
}
TIMES = ("12:00", "12:30", "13:00", "18:00", "18:30", "19:00", "19:30", "20:00", "21:00")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
NOTES = ("window seat", "high chair", "birthday cake", "wheelchair access", "quiet corner")


def shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def _restaurant(rng: random.Random, number: int, name: str) -> dict[str, Any]:
    rid = f"R{number}"
    menu = []
    for kind, dishes in DISHES.items():
        for dish in rng.sample(dishes, 2):
            price = rng.randint(9, 31) + rng.choice((0.0, 0.5, 0.95))
            menu.append({"dish": dish, "kind": kind, "price": price})
    return {
        "restaurant_id": rid,
        "name": name,
        "area": rng.choice(AREAS),
        "cuisine": rng.choice(CUISINES),
        "closed_on": rng.choice(WEEKDAYS),
        "times": sorted(rng.sample(TIMES, rng.randint(4, 7))),
        "tables": rng.randint(3, 7),
        "menu": menu,
    }


def _reservation(
    state: dict[str, Any], rng: random.Random, customer: dict, restaurant: dict, day: str, time: str
) -> None:
    rid = f"RS{state['next_reservation']}"
    state["next_reservation"] += 1
    past = day < rules.TODAY
    status = rng.choice(("completed", "completed", "no_show")) if past else "confirmed"
    if not past and rng.random() < 0.12:
        status = "cancelled"
    party = rng.choices(range(1, 11), weights=(2, 8, 4, 6, 3, 3, 2, 2, 1, 1))[0]
    state["reservations"][rid] = {
        "reservation_id": rid,
        "customer_id": customer["customer_id"],
        "restaurant_id": restaurant["restaurant_id"],
        "date": day,
        "time": time,
        "party_size": party,
        "status": status,
        "deposit_paid": rules.deposit(state, customer, party),
        "requests": rng.sample(NOTES, rng.choice((0, 0, 1, 2))),
    }


def build_world(rng: random.Random) -> dict[str, Any]:
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    names = rng.sample([f"{a} {b}" for a in FIRST for b in SECOND], 24)
    state: dict[str, Any] = {
        "now": rules.NOW,
        "restaurants": {},
        "customers": {},
        "reservations": {},
        "next_reservation": rng.randint(10000, 60000),
    }
    for number, name in zip(rng.sample(range(100, 1000), 24), names, strict=True):
        restaurant = _restaurant(rng, number, name)
        state["restaurants"][restaurant["restaurant_id"]] = restaurant
    emails: set[str] = set()
    for number in rng.sample(range(1000, 10000), 160):
        first, last = fake.first_name(), fake.last_name()
        email = ""
        while not email or email in emails:
            email = f"{first}.{last}{rng.randint(1, 999)}@example.com".lower()
        emails.add(email)
        cid = f"CU{number}"
        state["customers"][cid] = {
            "customer_id": cid,
            "name": f"{first} {last}",
            "email": email,
            "phone": f"555-{number:04d}",
            "tier": rng.choices(rules.TIERS, weights=(6, 3, 2))[0],
        }
    customers = list(state["customers"].values())
    restaurants = list(state["restaurants"].values())
    for customer in customers:
        favourite = rng.choice(restaurants)
        for _ in range(rng.randint(1, 4)):
            place = favourite if rng.random() < 0.35 else rng.choice(restaurants)
            day = shift(rules.TODAY, rng.choice((*range(-10, 0), 0, 1, 1, *range(2, 29))))
            if f"{date.fromisoformat(day):%A}" == place["closed_on"]:
                day = shift(day, 1)
            _reservation(state, rng, customer, place, day, rng.choice(place["times"]))
    for restaurant in restaurants:  # a few fully booked evenings
        for _ in range(2):
            day, time = shift(rules.TODAY, rng.randint(2, 20)), restaurant["times"][-1]
            if f"{date.fromisoformat(day):%A}" == restaurant["closed_on"]:
                continue
            while rules.tables_free(state, restaurant, day, time) > 0:
                _reservation(state, rng, rng.choice(customers), restaurant, day, time)
                state["reservations"][f"RS{state['next_reservation'] - 1}"]["status"] = "confirmed"
    return state
