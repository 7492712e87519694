"""The basketball world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.basketball.rules import COURTSIDE_TIERS, TODAY
from toolscale.kit.invariants import Invariant, State, records


def _courtside(state: State) -> list[str]:
    """Courtside seats are held by insider and elite fans only (the policy's entitlement)."""
    fans = state.get("fans", {})
    return [
        f"ticket {key}: courtside held by {t['fan_id']}, a {fans[t['fan_id']]['tier']} fan"
        for key, t in records(state, "tickets")
        if t["section"] == "courtside"
        and t["fan_id"] in fans
        and fans[t["fan_id"]]["tier"] not in COURTSIDE_TIERS
    ]


def _finals(state: State) -> list[str]:
    """A game dated before today is over: not still scheduled."""
    return [
        f"game {key}: on {g['date']}, before today {TODAY}, still {g['status']}"
        for key, g in records(state, "games")
        if g["date"] < TODAY and g["status"] == "scheduled"
    ]


INVARIANTS = (
    Invariant("courtside for insider and elite fans", _courtside),
    Invariant("past games are over", _finals),
)
