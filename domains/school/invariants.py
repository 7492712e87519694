"""The school world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.school.rules import TODAY
from toolscale.kit.invariants import Invariant, State, distinct, not_after, records


def _absences(state: State) -> list[str]:
    """A recorded absence is not in the future."""
    return [
        f"student {key}: absence on {day}, after today {TODAY}"
        for key, s in records(state, "students")
        for day in s.get("absences", [])
        if day > TODAY
    ]


INVARIANTS = (
    not_after("invoices", "paid", TODAY),
    not_after("enrolments", "enrolled_on", TODAY),
    Invariant("absences not in the future", _absences),
    distinct("students", "guardian_id", "first_name"),  # a caller can say which child
)
