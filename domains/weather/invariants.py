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


def _packs(state: State) -> list[str]:
    """An account holds call packs only on a plan that sells them (the Free plan sells none)."""
    plans = state.get("plans", {})
    return [
        f"account {key}: {a['packs_bought']} packs on {plans[a['plan_id']]['name']}"
        for key, a in records(state, "accounts")
        if a.get("packs_bought") and not plans.get(a["plan_id"], {}).get("pack_price", 1)
    ]


INVARIANTS = (
    not_after("observations", "date", TODAY),
    not_after("stations", "calibrated", TODAY),
    Invariant("station reports not in the future", _reports),
    Invariant("call packs only on plans that sell them", _packs),
)
