"""A task's user preference as stored on its row: the vector P and the checked constraints.

What a preference means and how one is drawn is `toolscale.economics.preferences`; this module
holds only the serialised form, which `Task` rows carry.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer


class PreferenceVector(BaseModel):
    """ToolOrchestra's P: weights over calls per tool, outcome, -cost and -latency. A positive tool
    weight asks for more calls of that tool, a negative one for fewer; `cost` and `latency`
    weigh the negated cost and latency, so a positive weight prefers cheap and fast."""

    model_config = ConfigDict(frozen=True)

    tools: dict[str, float] = {}
    outcome: float = 1.0
    cost: float = 0.0
    latency: float = 0.0


class Preference(BaseModel):
    """One task's preference profile: instruction, vector P, and the checked constraints."""

    model_config = ConfigDict(frozen=True)

    profile: str
    instruction: str
    vector: PreferenceVector
    forbidden_tools: list[str] = []
    answer_format: Literal["text", "json_confidence"] = "text"
    max_latency_ms: float | None = None
    max_cost: float | None = None
    # The user stated the budget as an amount ("keep it under 1 cent", "within 5 seconds"):
    # it binds exactly, where an unstated one (the gold route's) allows twice itself
    # (`toolscale.economics.preferences.BUDGET_SLACK`).
    budget_stated: bool = False

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """The fields, less `budget_stated` when it is False: a row (and a task id) without a
        stated budget reads as it did before the field existed."""
        body: dict[str, Any] = handler(self)
        if not body.get("budget_stated", True):
            body.pop("budget_stated")
        return body
