"""The rows and states of candidates: a rejected candidate's `rejected_tasks` row, the reason a
near-duplicate is given, and the state an intents batch is grounded in (shared by the pipeline
and `toolscale merge`)."""

from __future__ import annotations

import json
from typing import Any

from toolscale.core.contract import Domain, content_id, item_rng


def rejected_row(
    domain: str,
    seed: int,
    index: int,
    stage: str,
    reasons: list[str],
    intent: str,
    text: str,
    provenance: dict[str, Any],
) -> dict[str, Any]:
    """The `rejected_tasks` row of a candidate (`text`: the model's answer as written)."""
    return {
        "id": content_id([domain, seed, index, stage, text]),
        "domain": domain,
        "seed": seed,
        "index": index,
        "stage": stage,
        "reasons": reasons,
        "intent": intent,
        "candidate": text,
        "provenance": json.dumps(provenance, sort_keys=True),
    }


def duplicate_reason(twin: str) -> str:
    return f"near-duplicate of candidate {twin}"


def base_state(domain: Domain, seed: int, index: int) -> dict[str, Any]:
    """The state intents batch `index` (its view, and every candidate of its intents) is
    grounded in: the state of the domain's sampled task `index` (the run's world plus that
    task's own changes, for a domain with a world); a row stores only its changes to the world."""
    return domain.sample(item_rng(domain.name, seed, index), seed, index).initial_state
