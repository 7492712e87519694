"""The travel world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.travel.rules import TODAY
from toolscale.kit.invariants import Invariant, State, records


def _over(state: State) -> list[str]:
    """A trip that ended before today is not still booked (one under way is: its caller is on
    it, and says it "began", not that it is "leaving", `_trip_words`)."""
    return [
        f"trip {key}: ended {t['end']}, before today {TODAY}, still booked"
        for key, t in records(state, "trips")
        if t["end"] < TODAY and t["status"] == "booked"
    ]


INVARIANTS = (Invariant("trips that ended are not booked", _over),)
