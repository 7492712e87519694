"""Build a run's travel-desk world: 40 hotels in ten cities, 150 travellers, ~300 trips and
their hotel stays, and the visa table of the eight countries.

Trips run from six weeks before `rules.TODAY` (completed) to four months after (booked, some
cancelled, a few under way); some travellers go back to a city, some stays share a hotel, and a
few hotel nights are full. The result depends only on the rng handed in.
"""

from __future__ import annotations

import random
from typing import Any

from domains.travel import rules
from toolscale.kit import Record, insert
from toolscale.kit.clock import shift
from toolscale.kit.people import people

CITIES = {
    "Lisbon": "Portugal",
    "Porto": "Portugal",
    "Kyoto": "Japan",
    "Osaka": "Japan",
    "Marrakesh": "Morocco",
    "Hanoi": "Vietnam",
    "Cusco": "Peru",
    "Cape Town": "South Africa",
    "Istanbul": "Turkey",
    "Reykjavik": "Iceland",
}
VISAS = {  # country: the nationalities that need a visa, and its fee
    "Portugal": "IN 90",
    "Iceland": "IN 90",
    "Japan": "IN BR 35",
    "Morocco": "IN 30",
    "Vietnam": "US UK DE IN BR AU 25",
    "Peru": "0",
    "South Africa": "IN BR 40",
    "Turkey": "US IN AU 50",
}
NATIONALITIES = ("US", "UK", "DE", "IN", "BR", "AU")
FIRST = "Azure Olive Cedar Harbor Lotus Summit Coral Ivory Sable Linden Granite Meridian"
SECOND = "House Inn Lodge Suites Retreat Residence Court Palace"
BOARDS = ("room only", "breakfast", "half board")


def _hotel(rng: random.Random, number: int, name: str, city: str) -> Record:
    return {
        "hotel_id": f"H{number}",
        "name": name,
        "city": city,
        "stars": rng.randint(3, 5),
        "board": rng.choice(BOARDS),
        "nightly_rate": float(rng.randrange(70, 400, 5)),
        "rooms": rng.randint(2, 6),
    }


def _trip(state: Record, rng: random.Random, traveller: Record, city: str) -> Record:
    start = shift(rules.TODAY, rng.choice((*range(-45, 0, 3), 0, 1, *range(2, 120))))
    end = shift(start, rng.randint(3, 14))
    status = "completed" if end < rules.TODAY else "booked"
    if status == "booked" and rng.random() < 0.1:
        status = "cancelled"
    fields = {
        "traveller_id": traveller["traveller_id"],
        "city": city,
        "country": CITIES[city],
        "start": start,
        "end": end,
        "status": status,
        "price": float(rng.randrange(300, 6000, 10)),
        "points_credit": 0.0,
        "insurance": rng.choice(("", "", "basic", "comprehensive")),
    }
    return insert(state, "trips", "TP", fields)


def _stays(state: Record, rng: random.Random, trip: Record, hotels: list[Record]) -> None:
    day, hotel = trip["start"], rng.choice(hotels)
    for _ in range(rng.choice((0, 1, 1, 2, 2))):
        nights = rng.randint(1, 4)
        if shift(day, nights) > trip["end"]:
            return
        left = rules.rooms_left(state, hotel, day, nights)
        status = {"booked": "booked", "cancelled": "cancelled"}.get(trip["status"], "completed")
        if left > 0:
            fields = {"trip_id": trip["trip_id"], "hotel_id": hotel["hotel_id"], "check_in": day}
            price = rules.stay_price(state, trip, hotel, nights, 1)
            insert(
                state,
                "stays",
                "ST",
                {**fields, "nights": nights, "rooms": 1, "price": price, "status": status},
            )
        day = shift(day, nights)
        hotel = hotel if rng.random() < 0.3 else rng.choice(hotels)


def build_world(rng: random.Random) -> dict[str, Any]:
    names = rng.sample([f"{a} {b}" for a in FIRST.split() for b in SECOND.split()], 40)
    numbers = rng.sample(range(100, 1000), 40)
    hotels = [
        _hotel(rng, n, name, list(CITIES)[i % 10])
        for i, (n, name) in enumerate(zip(numbers, names, strict=True))
    ]
    travellers = people(rng, 150, "TR", "traveller_id")
    for traveller in travellers.values():
        traveller["nationality"] = rng.choice(NATIONALITIES)
        traveller["passport_expiry"] = shift(rules.TODAY, rng.randint(60, 3000))
        traveller["visas"] = []
        traveller["tier"] = rng.choices(rules.TIERS, weights=(6, 3, 2))[0]
        traveller["points"] = rng.randrange(0, 120000, 50)
    state: dict[str, Any] = {
        "now": rules.NOW,
        "visas": {
            c: {"needs": v.split()[:-1], "fee": float(v.split()[-1])} for c, v in VISAS.items()
        },
        "hotels": {h["hotel_id"]: h for h in hotels},
        "travellers": travellers,
        "trips": {},
        "stays": {},
        "next_trip": rng.randint(10000, 50000),
        "next_stay": rng.randint(10000, 50000),
    }
    for traveller in travellers.values():
        city = rng.choice(list(CITIES))
        for _ in range(rng.randint(1, 3)):
            city = city if rng.random() < 0.3 else rng.choice(list(CITIES))
            trip = _trip(state, rng, traveller, city)
            _stays(state, rng, trip, [h for h in hotels if h["city"] == city])
    return state
