"""Build a run's weather-service world: 5 API plans, 36 locations with a week of forecasts and
two weeks of observations each, 150 accounts with ~300 alert subscriptions and ~120 stations.

Some accounts hold two alerts for one location, or two stations in one town, so clarifications
have records to choose between. Depends only on the rng handed in.
"""

from __future__ import annotations

import random
from typing import Any

from faker import Faker

from domains.weather.rules import CHANNELS, FORECAST_DAYS, HISTORY_DAYS, KINDS, TODAY, shift

# name, monthly fee, calls a month, active alerts, price of a call pack (0: none sold)
PLANS = (
    ("Free", 0.0, 1_000, 2, 0.0),
    ("Basic", 19.0, 50_000, 5, 15.0),
    ("Pro", 79.0, 250_000, 12, 12.0),
    ("Business", 249.0, 1_000_000, 30, 9.0),
    ("Enterprise", 990.0, 10_000_000, 100, 6.0),
)
SKIES = ("sunny", "partly cloudy", "overcast", "light rain", "showers", "thunderstorms", "fog")
SITES = ("rooftop", "garden", "orchard", "dock", "barn", "schoolyard", "hilltop", "allotment")


def _day(rng: random.Random, location: dict[str, Any], day: str) -> dict[str, Any]:
    high = round(location["mean_c"] + rng.uniform(-6, 6))
    sky = rng.choice(SKIES)
    wet = sky in ("light rain", "showers", "thunderstorms")
    return {
        "location_id": location["location_id"],
        "date": day,
        "high_c": high,
        "low_c": high - rng.randint(3, 11),
        "sky": sky,
        "wind_kmh": rng.randint(0, 70),
        "rain_mm": round(rng.uniform(0.5, 30.0), 1) if wet else 0.0,
    }


def build_world(rng: random.Random) -> dict[str, Any]:
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    ids = iter(rng.sample(range(10000, 100000), 900))
    state: dict[str, Any] = {"now": f"{TODAY}T10:00", "next_id": rng.randint(100000, 900000)}
    plans = state["plans"] = {}
    for number, (name, fee, quota, alerts, pack) in enumerate(PLANS, start=1):
        plans[f"AP{number}"] = {
            "plan_id": f"AP{number}",
            "name": name,
            "monthly_fee": fee,
            "quota": quota,
            "max_alerts": alerts,
            "pack_price": pack,
        }
    locations: dict[str, Any] = {}
    forecasts: dict[str, Any] = {}
    observations: dict[str, Any] = {}
    state.update(locations=locations, forecasts=forecasts, observations=observations)
    towns = sorted({fake.city() for _ in range(60)})
    for town in rng.sample(towns, 36):
        lid = f"L{next(ids)}"
        locations[lid] = {
            "location_id": lid,
            "name": town,
            "region": fake.state(),
            "mean_c": rng.randint(-5, 24),
        }
        for n in range(FORECAST_DAYS):
            forecasts[f"{lid}:{shift(TODAY, n)}"] = _day(rng, locations[lid], shift(TODAY, n))
        for n in range(1, HISTORY_DAYS + 1):
            observations[f"{lid}:{shift(TODAY, -n)}"] = _day(rng, locations[lid], shift(TODAY, -n))
    accounts: dict[str, Any] = {}
    subscriptions: dict[str, Any] = {}
    stations: dict[str, Any] = {}
    state.update(accounts=accounts, subscriptions=subscriptions, stations=stations)
    places = list(locations.values())
    for number in rng.sample(range(1000, 10000), 150):
        first, last = fake.first_name(), fake.last_name()
        plan = rng.choices(sorted(plans), weights=(5, 4, 3, 2, 1))[0]
        aid = f"AC{number}"
        used = rng.randint(0, plans[plan]["quota"])
        packs = rng.choice((0, 0, 1, 3, 5))  # drawn for every account: the draws after it stay
        accounts[aid] = {
            "account_id": aid,
            "name": f"{first} {last}",
            "email": f"{first}.{last}{number % 89}@example.net".lower(),
            "plan_id": plan,
            "calls_used": used,
            "packs_bought": packs if plans[plan]["pack_price"] else 0,  # Free sells none
            "balance_due": rng.choice((0.0,) * 8 + (19.0, 42.5)),
        }
        home = rng.choice(places)
        for kind in rng.sample(KINDS, rng.randint(0, 4)):
            where = home if rng.random() < 0.6 else rng.choice(places)
            sid = f"SB{next(ids)}"
            subscriptions[sid] = {
                "subscription_id": sid,
                "account_id": aid,
                "location_id": where["location_id"],
                "kind": kind,
                "channel": rng.choice(CHANNELS),
                "status": "active" if rng.random() < 0.8 else "cancelled",
            }
        for spot in rng.sample(SITES, rng.choice((0, 0, 1, 1, 2))):
            tid = f"ST{next(ids)}"
            stations[tid] = {
                "station_id": tid,
                "account_id": aid,
                "site": spot,
                "location_id": home["location_id"],
                "status": "suspended" if rng.random() < 0.12 else "online",
                "calibrated": shift(TODAY, -rng.randint(20, 460)),
                "reports": sorted(shift(TODAY, -n) for n in rng.sample(range(1, 9), 3)),
            }
    return state
