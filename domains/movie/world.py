"""Build a run's cinema chain: 8 cinemas with snack menus, ~300 showings of 14 films, 180
customers and ~450 bookings.

Showings run from five days before `rules.TODAY` (shown) to two weeks after (scheduled, a few
cancelled), at most one showing of a film per cinema and day; a fifth of the customers booked
one film at one cinema twice, on different days. The result depends only on the rng handed in.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from faker import Faker

from domains.movie import rules

PLACES = "Riverside, Old Mill, Harbourfront, Kingsway, Elm Park, Castlegate, Northpoint, Westbrook"
TITLES = (
    "Paper Moons, The Glass Orchard, Saltwater, Northern Static, Kite Season, The Ninth Lantern, "
    "Iron Meadow, Tidewater, Low Orbit, Small Hours, The Cartographer, Velvet Engine, Wild "
    "Arithmetic, Cold Harbour, Ember Road, Night Ferry, The Understudy, Moth Kingdom, Second Sun"
)
HOUSES = ("Picturehouse", "Cinema", "Screens", "Film House", "Playhouse")
SCREENS = ("Aurora", "Vista", "Orion", "Balcony", "Studio", "Grand Hall", "Nova", "Atrium")
RATINGS = ("U", "PG", "12A", "15", "18")
TIMES = ("13:00", "15:30", "18:00", "18:30", "20:45", "21:15")
FORMATS = {"standard": (10.5, 13.0), "3D": (13.5, 15.5), "IMAX": (16.5, 19.5)}
SNACKS = {"small popcorn": 4.5, "large popcorn": 6.75, "nachos": 5.95, "hot dog": 5.25}
SNACKS |= {"soda": 3.25, "ice cream": 4.0, "pick and mix": 3.8}


def _showing(rng: random.Random, sid: str, cinema: dict, film: dict, day: str) -> dict:
    kind = rng.choices(tuple(FORMATS), weights=(6, 2, 2))[0]
    low, high = FORMATS[kind]
    showing = {"showing_id": sid, "cinema_id": cinema["cinema_id"], "cinema": cinema["name"]}
    showing.update(film=film["title"], rating=film["rating"], runtime=film["runtime"])
    showing.update(date=day, time=rng.choice(TIMES), format=kind, screen=rng.choice(SCREENS))
    showing["price"] = round(rng.uniform(low, high) * 4) / 4
    showing["seats_left"] = rng.randint(0, 4) if rng.random() < 0.2 else rng.randint(10, 180)
    if rules.starts_in({"now": rules.NOW}, showing) < 0:
        showing["status"] = "shown"
    else:
        showing["status"] = "cancelled" if rng.random() < 0.05 else "scheduled"
    return showing


def _book(state: dict, rng: random.Random, customer: dict, showing: dict) -> None:
    if rules.age(customer["birth_date"], showing["date"]) < rules.MIN_AGE.get(showing["rating"], 0):
        return  # the desk never sold it
    bid = f"B{state['next_booking']}"
    state["next_booking"] += 1
    seats = rng.choices(range(1, 7), weights=(3, 8, 3, 4, 1, 1))[0]
    paid = round(rules.seat_cost(customer, showing) * seats, 2)
    fees = rules.BOOKING_FEE * seats if customer["plan"] == "none" else 0.0
    status = "used" if showing["status"] == "shown" else "confirmed"
    if status == "confirmed" and rng.random() < 0.1:
        status = "cancelled"
    keep = ("showing_id", "cinema_id", "cinema", "film", "date", "time")
    booking = {"booking_id": bid, "customer_id": customer["customer_id"]}
    booking |= {k: showing[k] for k in keep}
    booking |= {"seats": seats, "paid": paid, "fees": fees, "status": status}
    booking |= {"exchanged": rng.random() < 0.1, "snacks": []}
    if rng.random() < 0.3:
        booking["snacks"].append({"item": rng.choice(list(SNACKS)), "quantity": rng.randint(1, 6)})
    state["bookings"][bid] = booking


def build_world(rng: random.Random) -> dict[str, Any]:
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    state: dict[str, Any] = {"now": rules.NOW, "cinemas": {}, "showings": {}, "customers": {}}
    state.update(bookings={}, next_booking=rng.randint(300000, 800000))
    titles = rng.sample(TITLES.split(", "), 14)
    films = [
        {"title": t, "rating": rng.choice(RATINGS), "runtime": rng.randrange(85, 175, 5)}
        for t in titles
    ]
    for number, place in zip(rng.sample(range(10, 100), 8), PLACES.split(", "), strict=True):
        menu = dict(rng.sample(sorted(SNACKS.items()), 5))
        cinema = {
            "cinema_id": f"CN{number}",
            "name": f"{place} {rng.choice(HOUSES)}",
            "snacks": menu,
        }
        state["cinemas"][cinema["cinema_id"]] = cinema
    numbers = iter(rng.sample(range(1000, 10000), 8 * 20 * 2))
    for cinema in state["cinemas"].values():
        for offset in range(-5, 15):
            day = (date.fromisoformat(rules.TODAY) + timedelta(offset)).isoformat()
            for film in rng.sample(films, 2):
                sid = f"S{next(numbers)}"
                state["showings"][sid] = _showing(rng, sid, cinema, film, day)
    for number in rng.sample(range(1000, 10000), 180):
        first, last = fake.first_name(), fake.last_name()
        plan = rng.choices(rules.PLANS, weights=(6, 3, 2))[0]
        since = date.fromisoformat(rules.TODAY) - timedelta(rng.randint(20, 900))
        born = date(rng.randint(1950, 2012), rng.randint(1, 12), rng.randint(1, 28))
        customer = {"customer_id": f"C{number}", "name": f"{first} {last}", "plan": plan}
        customer |= {"email": f"{first}.{last[:3]}{number}@lumenmail.net".lower()}
        customer |= {"birth_date": born.isoformat(), "member_since": since.isoformat()}
        state["customers"][customer["customer_id"]] = customer
    showings = list(state["showings"].values())
    for customer in state["customers"].values():
        for showing in rng.sample(showings, rng.randint(1, 4)):
            _book(state, rng, customer, showing)
        if rng.random() < 0.2:  # the same film at the same cinema on two days
            first = rng.choice(showings)
            again = [
                s
                for s in showings
                if (s["film"], s["cinema_id"]) == (first["film"], first["cinema_id"])
            ]
            if len(again) > 1:
                for showing in rng.sample(again, 2):
                    _book(state, rng, customer, showing)
    return state
