"""Helpers of the railway templates: queries over the world and the words a caller uses.

Gold actions are played with the kit's `GoldRunner` (`gold(state)` here), so every fact a
template reports is read from a real tool output; a template that must change the world for its
task (an operator cancellation) works on `own(world)`, a copy, and returns it as its state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from domains.railway import rules
from domains.railway.tools import RailwayTools
from toolscale.kit import GoldRunner
from toolscale.sample import worlds

Record = dict[str, Any]
T = TypeVar("T")
# What a caller gives when the agent asks (UserScenario.known keys the scripted user answers).
BOOKING = "booking id"
EMAIL = "email"


def gold(state: Record) -> GoldRunner:
    return GoldRunner(RailwayTools, state)


def own(world: Record) -> Record:
    """A copy of the world that a template may change for its task."""
    return worlds.MEMO.copy(world)


def search(run: GoldRunner, train: Record, day: str | None = None) -> Any:
    """Play search_trains on `train`'s route, on `day` or the train's own date."""
    return run(
        "search_trains",
        origin=train["origin"],
        destination=train["destination"],
        date=day or train["date"],
    )


def money(amount: float) -> str:
    return f"{amount:.2f}"


def facts(*values: str | float) -> list[str]:
    """Required facts: strings as given, amounts as the tool output writes them (45.0, 20.9:
    substrings of `money(amount)`). Zero amounts are left out: "0.0" is inside too many texts."""
    return [v if isinstance(v, str) else str(v) for v in values if v != 0]


def clear_of(threshold: int, found: list[str], step: int) -> int:
    """`threshold` moved by `step` until it equals no amount in `found`: a request must not state
    an amount the agent has to report (the kit checks it). Moving away from the quote keeps the
    condition's outcome."""
    amounts = {float(f) for f in found if f.replace(".", "", 1).isdigit()}
    while threshold in amounts:
        threshold += step
    return threshold


def pick(rng: random.Random, items: list[T]) -> T | None:
    return rng.choice(items) if items else None


def upcoming(state: Record, test: Callable[[Record, Record], bool] | None = None) -> list[Record]:
    """Confirmed bookings whose train is scheduled and that pass `test(booking, train)`."""
    found = []
    for booking in state["bookings"].values():
        train = state["trains"][booking["train_number"]]
        if booking["status"] != "confirmed" or rules.train_status(state, train) != "scheduled":
            continue
        if test is None or test(booking, train):
            found.append(booking)
    return found


def customer_of(state: Record, booking: Record) -> Record:
    return state["customers"][booking["customer_id"]]


def train_of(state: Record, booking: Record) -> Record:
    return state["trains"][booking["train_number"]]


def trip(state: Record, train: Record) -> str:
    """'from London to York' for the train's route."""
    cities = [state["stations"][train[end]]["city"] for end in ("origin", "destination")]
    return f"from {cities[0]} to {cities[1]}"


def _trip_key(state: Record, booking: Record) -> tuple[str, str, str]:
    train = train_of(state, booking)
    return train["origin"], train["destination"], train["date"]


def unique_trip(state: Record, booking: Record) -> bool:
    """Whether route and date single this booking out among its customer's bookings."""
    key = _trip_key(state, booking)
    ids = customer_of(state, booking)["booking_ids"]
    return sum(_trip_key(state, state["bookings"][i]) == key for i in ids) == 1


def route_trains(state: Record, train: Record, day: str | None = None) -> list[Record]:
    """Scheduled trains on `train`'s route (on `day` when given), earliest first."""
    route = (train["origin"], train["destination"])
    return sorted(
        (
            t
            for t in state["trains"].values()
            if (t["origin"], t["destination"]) == route
            and (day is None or t["date"] == day)
            and rules.train_status(state, t) == "scheduled"
        ),
        key=lambda t: (t["date"], t["departure_time"]),
    )


def bags_text(bags: int) -> str:
    return f"{bags} checked bag" + ("" if bags == 1 else "s")


def tickets_text(passengers: int, fare_class: str) -> str:
    """'1 standard ticket', '2 first-class tickets'."""
    label = "first-class" if fare_class == "first" else fare_class
    return f"{passengers} {label} ticket" + ("" if passengers == 1 else "s")


def fits(train: Record, fare_class: str, passengers: int) -> bool:
    return train["seats_left"][fare_class] >= passengers


def other_day_trains(state: Record, booking: Record) -> dict[str, list[Record]]:
    """Other dates on the booking's route -> scheduled trains there that can take the booking."""
    found: dict[str, list[Record]] = {}
    for t in route_trains(state, train_of(state, booking)):
        if t["date"] != booking["travel_date"] and fits(
            t, booking["fare_class"], booking["passengers"]
        ):
            found.setdefault(t["date"], []).append(t)
    return found
