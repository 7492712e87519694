"""What a task template returns: the caller's `Request` and the gold `Draft` around it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from toolscale.core.contract import Action


@dataclass(frozen=True)
class Request:
    """The caller, in words: what they want and what they can tell when asked.

    `goal` is a verb phrase for a `do` request ("cancel my trip from Leeds to York on
    2025-06-20") or an indirect question for a `know` request ("what time my train leaves");
    give several wordings and one is drawn. Nothing in `known` (what the agent must ask for:
    "booking id" -> "BK1234") may appear in a goal; `stated` are the details a goal already gives
    (the user repeats them when asked). `motives` are optional reasons the caller
    may give ("My plans changed."); `conditions` are instructions that decide the outcome ("Only
    if the refund is at least $50."), said in the opening (a tuple of wordings: one is drawn).
    `notes` tell the simulated user how to behave beyond that (tau2's task instructions).
    `reason` is the scenario's reason for the call, written for this task (its records, its
    goal, the caller's motive); empty: derived from the first goal and the conditions.
    """

    goals: tuple[str, ...]
    kind: Literal["do", "know"] = "do"
    known: dict[str, str] = field(default_factory=dict)
    motives: tuple[str, ...] = ()
    conditions: tuple[str | tuple[str, ...], ...] = ()
    unknown: str = ""
    notes: str = ""
    stated: dict[str, str] = field(default_factory=dict)
    reason: str = ""


@dataclass(frozen=True)
class Draft:
    """A template's task: the request, the gold actions (played by `GoldRunner`), the correct
    final reply and the facts it must state. `state` is the task's own initial state when the
    template changed the world (None: the world as it is); `writes` says the request implies a
    change of state; `nl_assertions` are statements about a correct conversation (tau2).
    `refused` is the call the caller asked for that the policy refuses (a refusal task): it must
    break exactly one rule (`toolscale.kit.broken_rules`), which check-domain checks.
    `caller` is (entity, id) of the person whose records the request is about (a composed
    draft's owner at the top of its records; None: not known), so that a caller who changes
    their mind opens with a request of their own (`toolscale.kit.sampling.opener_of`)."""

    request: Request
    actions: list[Action]
    final_message: str
    facts: list[str]
    writes: bool
    state: dict[str, Any] | None = None
    alternatives: list[list[Action]] = field(default_factory=list)
    nl_assertions: list[str] = field(default_factory=list)
    refused: Action | None = None
    caller: tuple[str, str] | None = None
