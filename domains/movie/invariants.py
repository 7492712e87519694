"""The cinema world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.movie.rules import TODAY
from toolscale.kit.invariants import Invariant, State, not_after, records


def _shown(state: State) -> list[str]:
    """A showing dated before today has been shown (or cancelled): not still scheduled."""
    return [
        f"showing {key}: on {s['date']}, before today {TODAY}, still {s['status']}"
        for key, s in records(state, "showings")
        if s["date"] < TODAY and s["status"] == "scheduled"
    ]


INVARIANTS = (
    Invariant("past showings are over", _shown),
    not_after("customers", "member_since", TODAY),
)
