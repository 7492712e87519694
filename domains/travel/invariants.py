"""The travel world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.travel.rules import TODAY
from toolscale.kit.invariants import Invariant, State, records


def _left(state: State) -> list[str]:
    """A trip that left before today is not still booked (to be changed, insured, cancelled)."""
    return [
        f"trip {key}: left {t['start']}, before today {TODAY}, still booked"
        for key, t in records(state, "trips")
        if t["start"] < TODAY and t["status"] == "booked"
    ]


INVARIANTS = (Invariant("trips that left are not booked", _left),)
