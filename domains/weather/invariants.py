"""The weather world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.weather.rules import TODAY
from toolscale.kit.invariants import Invariant, State, not_after, records


def _reports(state: State) -> list[str]:
    """A station has not reported on a day after today."""
    return [
        f"station {key}: report on {day}, after today {TODAY}"
        for key, s in records(state, "stations")
        for day in s.get("reports", [])
        if day > TODAY
    ]


INVARIANTS = (
    not_after("observations", "date", TODAY),
    not_after("stations", "calibrated", TODAY),
    Invariant("station reports not in the future", _reports),
)
