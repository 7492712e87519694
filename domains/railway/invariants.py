"""The railway world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from toolscale.kit.invariants import Invariant, State, records


def _dates(state: State) -> list[str]:
    """A booking travels on its train's date, between its train's stations."""
    trains = state.get("trains", {})
    found = []
    for key, b in records(state, "bookings"):
        train = trains.get(b["train_number"])
        if train is not None and b["travel_date"] != train["date"]:
            found.append(f"booking {key}: travels {b['travel_date']}, its train {train['date']}")
    return found


def _seats(state: State) -> list[str]:
    """No train has fewer than no seats left in a class."""
    return [
        f"train {key}: {cls} has {left} seats left"
        for key, t in records(state, "trains")
        for cls, left in t.get("seats_left", {}).items()
        if left < 0
    ]


INVARIANTS = (
    Invariant("bookings on their train's date", _dates),
    Invariant("seats left not negative", _seats),
)
