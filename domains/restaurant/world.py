"""Build a run's restaurant world: 24 restaurants with menus, 160 customers, ~450 reservations.

Reservations lie from ten days before `rules.TODAY` (completed, no-show) to four weeks after
(confirmed, some cancelled); a few evenings of each restaurant are fully booked, so some slots
have no table left. The result depends only on the rng handed in.
"""

from __future__ import annotations

import random
from typing import Any

from domains.restaurant import rules
from toolscale.kit import Record, insert
from toolscale.kit.clock import shift, weekday
from toolscale.kit.people import people

FIRST = "Copper Saffron Olive Juniper Velvet Golden Harbour Maple Cedar Indigo Amber Willow"
SECOND = "Lantern Table Kitchen Fig Spoon Hearth Garden Pantry Terrace Orchard Vine Ember"
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


def _restaurant(rng: random.Random, number: int, name: str) -> dict[str, Any]:
    menu = [
        {"dish": dish, "kind": kind, "price": rng.randint(9, 31) + rng.choice((0.0, 0.5, 0.95))}
        for kind, dishes in DISHES.items()
        for dish in rng.sample(dishes, 2)
    ]
    return {
        "restaurant_id": f"R{number}",
        "name": name,
        "area": rng.choice(AREAS),
        "cuisine": rng.choice(CUISINES),
        "closed_on": rng.choice(WEEKDAYS),
        "times": sorted(rng.sample(TIMES, rng.randint(4, 7))),
        "tables": rng.randint(3, 7),
        "menu": menu,
    }


def _reserve(
    state: Record, rng: random.Random, who: Record, place: Record, day: str, time: str
) -> Record:
    past = day < rules.TODAY
    status = rng.choice(("completed", "completed", "no_show")) if past else "confirmed"
    if not past and rng.random() < 0.12:
        status = "cancelled"
    party = rng.choices(range(1, 11), weights=(2, 8, 4, 6, 3, 3, 2, 2, 1, 1))[0]
    fields = {
        "customer_id": who["customer_id"],
        "restaurant_id": place["restaurant_id"],
        "date": day,
        "time": time,
        "party_size": party,
        "status": status,
        "deposit_paid": rules.deposit(state, who, party),
        "requests": rng.sample(NOTES, rng.choice((0, 0, 1, 2))),
    }
    return insert(state, "reservations", "RS", fields)


def build_world(rng: random.Random) -> dict[str, Any]:
    names = rng.sample([f"{a} {b}" for a in FIRST.split() for b in SECOND.split()], 24)
    numbers = rng.sample(range(100, 1000), 24)
    restaurants = [_restaurant(rng, n, name) for n, name in zip(numbers, names, strict=True)]
    customers = people(rng, 160, "CU", "customer_id")
    for customer in customers.values():
        customer["tier"] = rng.choices(rules.TIERS, weights=(6, 3, 2))[0]
    state: dict[str, Any] = {
        "now": rules.NOW,
        "restaurants": {r["restaurant_id"]: r for r in restaurants},
        "customers": customers,
        "reservations": {},
        "next_reservation": rng.randint(10000, 60000),
    }
    for customer in customers.values():
        favourite = rng.choice(restaurants)
        for _ in range(rng.randint(1, 4)):
            place = favourite if rng.random() < 0.35 else rng.choice(restaurants)
            day = shift(rules.TODAY, rng.choice((*range(-10, 0), 0, 1, 1, *range(2, 29))))
            if weekday(day) == place["closed_on"]:
                day = shift(day, 1)
            _reserve(state, rng, customer, place, day, rng.choice(place["times"]))
    for place in restaurants:  # a few fully booked evenings
        for _ in range(2):
            day, time = shift(rules.TODAY, rng.randint(2, 20)), place["times"][-1]
            while (
                weekday(day) != place["closed_on"]
                and rules.tables_free(state, place, day, time) > 0
            ):
                customer = rng.choice(list(customers.values()))
                _reserve(state, rng, customer, place, day, time)["status"] = "confirmed"
    return state
