"""Ids and RNGs: content ids, state hashes and the one RNG of each item, from their inputs alone."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from toolscale.core.state_text import canonical_json, canonical_state


def item_rng(domain: str, seed: int, index: int) -> random.Random:
    """The one RNG of item (domain, seed, index): reproducible from those three values alone."""
    return random.Random(f"{domain}:{seed}:{index}")


def template_rng(domain: str, seed: int, template: str, draw: int) -> random.Random:
    """The one RNG of draw `draw` of template `template` (`Domain.sample_named`)."""
    return random.Random(f"{domain}:{seed}:{template}:{draw}")


def state_hash(state: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_state(state).encode()).hexdigest()


def content_id(value: Any) -> str:
    """A deterministic id: the first 16 hex digits of the SHA-256 of the canonical JSON."""
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()[:16]
