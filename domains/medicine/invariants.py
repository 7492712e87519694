"""The clinic world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.medicine.rules import TODAY
from toolscale.kit.clock import weekday
from toolscale.kit.invariants import Invariant, State, not_after, records


def _slots(state: State) -> list[str]:
    """A scheduled appointment is on one of its doctor's days, at one of their times."""
    doctors = state.get("doctors", {})
    found = []
    for key, visit in records(state, "appointments"):
        doctor = doctors.get(visit["doctor_id"])
        if doctor is None or visit.get("status") != "scheduled":
            continue
        if weekday(visit["date"]) not in doctor["days"] or visit["time"] not in doctor["times"]:
            found.append(f"appointment {key}: {weekday(visit['date'])} {visit['time']} is no slot")
    return found


INVARIANTS = (
    Invariant("appointments in their doctor's slots", _slots),
    not_after("prescriptions", "last_filled", TODAY),
    not_after("prescriptions", "written", TODAY),
)
