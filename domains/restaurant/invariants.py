"""The restaurant world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.restaurant.rules import TODAY
from toolscale.kit.clock import weekday
from toolscale.kit.invariants import Invariant, State, records


def _opening(state: State) -> list[str]:
    """A confirmed reservation is on a day its restaurant opens, at one of its times."""
    places = state.get("restaurants", {})
    found = []
    for key, r in records(state, "reservations"):
        place = places.get(r["restaurant_id"])
        if place is None or r.get("status") != "confirmed":
            continue
        if weekday(r["date"]) == place["closed_on"] or r["time"] not in place["times"]:
            found.append(f"reservation {key}: {weekday(r['date'])} {r['time']} is not served")
    return found


def _past(state: State) -> list[str]:
    """A reservation dated before today is over: not still confirmed."""
    return [
        f"reservation {key}: on {r['date']}, before today {TODAY}, still confirmed"
        for key, r in records(state, "reservations")
        if r["date"] < TODAY and r.get("status") == "confirmed"
    ]


INVARIANTS = (
    Invariant("reservations in opening hours", _opening),
    Invariant("past reservations are over", _past),
)
