"""The shop world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.ecommerce.rules import TODAY
from toolscale.kit.invariants import not_after

INVARIANTS = (
    not_after("orders", "placed_on", TODAY),
    not_after("gift_cards", "redeemed_on", TODAY),
)
