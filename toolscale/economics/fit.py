"""Which tool a stateful task's caller may ask the agent not to use: one that fits the request.

The rule (`plausible_avoid`), checked by `toolscale.check.consistency` and drawn by
`toolscale.economics.preferences`: the avoided tool is one this caller could think of the agent
using for this request, never an unrelated one.
"""

from __future__ import annotations

from typing import Any

from toolscale.core.contract import ToolKind


def plausible_avoid(
    name: str, toolkit: Any, gold: list[dict[str, Any]], alternatives: list[list[Any]]
) -> bool:
    """Whether a caller of a stateful task could think of the agent using tool `name` for this
    request, so that asking it not to fits the task: a look-up of the records the gold route
    works on (a READ tool whose required parameters are all arguments of the gold calls: the
    caller's profile, their bookings, the quote of the booking they named), a hand-off, or the
    calculator only where some route does sums. A READ of records the request never touches
    (the trip of a caller recording an absence) does not fit, nor any READ where the request
    changes nothing (a question, a refusal: the look-ups are how it is answered)."""
    spec = toolkit.specs()[name]
    on_routes = {a.name for route in alternatives for a in route} | {a["name"] for a in gold}
    if name in ("calculate", "calculator"):
        return name in on_routes
    if spec.kind is not ToolKind.READ:
        return spec.kind is ToolKind.GENERIC
    writes = {n for n, s in toolkit.specs().items() if s.kind is ToolKind.WRITE}
    if not any(a["name"] in writes for a in gold):
        return False  # a question or a refusal is judged on its look-ups: "don't look it up" is
        # no wish its caller can have (asked "don't look up the showing", the agent refused a
        # past showing from the clock alone)
    given = {k for a in gold for k in a["arguments"]}
    schema = next(s for s in toolkit.schemas() if s["function"]["name"] == name)
    required = schema["function"]["parameters"].get("required", [])
    return bool(required) and set(required) <= given
