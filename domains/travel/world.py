"""Build a run's travel-desk world: 40 hotels in ten cities, 150 travellers, ~300 trips and
their hotel stays, and the visa table of the eight countries.

Trips run from six weeks before `rules.TODAY` (completed) to four months after (booked, some
cancelled, a few under way); some travellers go back to a city and some stays follow each other
at one hotel, so hotel nights fill up. The result depends only on the rng handed in.
"""

from __future__ import annotations

import random
from typing import Any

from domains.travel import rules
from toolscale.kit import Record, insert
from toolscale.kit.clock import shift
from toolscale.kit.people import people

PLACES = "Lisbon:Portugal Porto:Portugal Kyoto:Japan Osaka:Japan Marrakesh:Morocco Hanoi:Vietnam"
PLACES += " Cusco:Peru Cape_Town:South_Africa Istanbul:Turkey Reykjavik:Iceland"
CITIES = dict(p.replace("_", " ").split(":") for p in PLACES.split())
VISAS = "Portugal:IN:90 Iceland:IN:90 Japan:IN,BR:35 Morocco:IN:30 Vietnam:US,UK,DE,IN,BR,AU:25"
VISAS += " Peru::0 South_Africa:IN,BR:40 Turkey:US,IN,AU:50"  # who needs a visa, and its fee
NATIONALITIES = ("US", "UK", "DE", "IN", "BR", "AU")
FIRST = "Azure Olive Cedar Harbor Lotus Summit Coral Ivory Sable Linden Granite Meridian"
SECOND = "House Inn Lodge Suites Retreat Residence Court Palace"
BOARDS = ("room only", "breakfast", "half board")


def visas() -> dict[str, Record]:
    table = (v.replace("_", " ").split(":") for v in VISAS.split())
    return {
        c: {"needs": [n for n in needs.split(",") if n], "fee": float(f)} for c, needs, f in table
    }


def _trip(state: Record, rng: random.Random, traveller: Record, city: str) -> Record:
    start = shift(rules.TODAY, rng.choice((*range(-45, 0, 3), 0, 1, *range(2, 120))))
    end = shift(start, rng.randint(3, 14))
    status = "completed" if end < rules.TODAY else "booked"
    status = "cancelled" if status == "booked" and rng.random() < 0.1 else status
    fields = {"traveller_id": traveller["traveller_id"], "city": city, "country": CITIES[city]}
    price, insurance = float(rng.randrange(300, 6000, 10)), rng.choice(("", "", "basic", "full"))
    fields |= {"start": start, "end": end, "status": status, "price": price, "points_credit": 0.0}
    return insert(
        state, "trips", "TP", {**fields, "insurance": insurance.replace("full", "comprehensive")}
    )


def _stays(state: Record, rng: random.Random, trip: Record, hotels: list[Record]) -> None:
    day, hotel = trip["start"], rng.choice(hotels)
    status = {"booked": "booked", "cancelled": "cancelled"}.get(trip["status"], "completed")
    for _ in range(rng.choice((0, 1, 1, 2, 2))):
        nights = rng.randint(1, 4)
        if shift(day, nights) > trip["end"] or rules.rooms_left(state, hotel, day, nights) < 1:
            return
        price = rules.stay_price(state, trip, hotel, nights, 1)
        fields = {"trip_id": trip["trip_id"], "hotel_id": hotel["hotel_id"], "check_in": day}
        insert(
            state,
            "stays",
            "ST",
            {**fields, "nights": nights, "rooms": 1, "price": price, "status": status},
        )
        day, hotel = shift(day, nights), hotel if rng.random() < 0.3 else rng.choice(hotels)


def build_world(rng: random.Random) -> dict[str, Any]:
    names = rng.sample([f"{a} {b}" for a in FIRST.split() for b in SECOND.split()], 40)
    hotels = [
        {
            "hotel_id": f"H{n}",
            "name": name,
            "city": list(CITIES)[i % 10],
            "stars": rng.randint(3, 5),
            "board": rng.choice(BOARDS),
            "nightly_rate": float(rng.randrange(70, 400, 5)),
            "rooms": rng.randint(2, 6),
        }
        for i, (n, name) in enumerate(zip(rng.sample(range(100, 1000), 40), names, strict=True))
    ]
    travellers = people(rng, 150, "TR", "traveller_id")
    for traveller in travellers.values():
        traveller |= {
            "nationality": rng.choice(NATIONALITIES),
            "visas": [],
            "tier": rng.choices(rules.TIERS, weights=(6, 3, 2))[0],
        }
        traveller |= {
            "passport_expiry": shift(rules.TODAY, rng.randint(60, 3000)),
            "points": rng.randrange(0, 120000, 50),
        }
    state: dict[str, Any] = {
        "now": rules.NOW,
        "visas": visas(),
        "hotels": {h["hotel_id"]: h for h in hotels},
    }
    state |= {"travellers": travellers, "trips": {}, "stays": {}}
    state |= {"next_trip": rng.randint(10000, 50000), "next_stay": rng.randint(10000, 50000)}
    for traveller in travellers.values():
        city = rng.choice(list(CITIES))
        for _ in range(rng.randint(1, 3)):
            city = city if rng.random() < 0.3 else rng.choice(list(CITIES))
            trip = _trip(state, rng, traveller, city)
            _stays(state, rng, trip, [h for h in hotels if h["city"] == city])
    return state
