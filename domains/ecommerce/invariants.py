"""The shop world's invariants (`toolscale.kit.invariants`)."""

from __future__ import annotations

from domains.ecommerce.rules import TODAY
from toolscale.kit.invariants import Invariant, State, not_after, records


def _one_category(state: State) -> list[str]:
    """An order's items are of one category: a caller says "my clothing order" of it."""
    return [
        f"order {key}: items of {sorted({i['category'] for i in order['items']})}"
        for key, order in records(state, "orders")
        if len({i["category"] for i in order["items"]}) > 1
    ]


INVARIANTS = (
    not_after("orders", "placed_on", TODAY),
    not_after("gift_cards", "redeemed_on", TODAY),
    Invariant("an order is of one category", _one_category),
)
