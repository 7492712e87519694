"""The bank world's invariants (`toolscale.kit.invariants`): what every world it builds keeps."""

from __future__ import annotations

from domains.bank.rules import TIERS, TODAY
from toolscale.kit.invariants import Invariant, State, not_after, records

DAY = TODAY.isoformat()


def _limits(state: State) -> list[str]:
    """A card's daily limit is one its holder's tier allows (the policy ties the cap to it)."""
    owner = {a["account_id"]: a["customer_id"] for _, a in records(state, "accounts")}
    tier = {c["customer_id"]: c["tier"] for _, c in records(state, "customers")}
    found = []
    for key, card in records(state, "cards"):
        holder = tier.get(owner.get(card["account_id"], ""), "")
        if holder in TIERS and card["daily_limit"] > TIERS[holder].card_limit_max:
            found.append(f"card {key}: limit {card['daily_limit']} over the {holder} tier's cap")
    return found


INVARIANTS = (
    not_after("transactions", "date", DAY),
    not_after("accounts", "opened", DAY),
    Invariant("card limits within the tier", _limits),
)
