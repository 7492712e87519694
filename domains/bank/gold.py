"""Helpers of the bank templates: find the customer a task is about, identify them, edit a record.

Templates read the run's world and never change it. `pick_holder` finds a customer whose records
fit the request as they are; a template that must adjust a record (a balance) takes a private
copy of just that record with `edited`, whose result is a full state sharing everything else
with the world. `identify` plays the policy's first step (the caller's email or customer id)
and returns what the caller must be asked for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from domains.bank.rules import DISPUTE_CUTOFF, to_cents
from toolscale.kit import GoldRunner

State = dict[str, Any]
Record = dict[str, Any]


def usd(cents: int) -> str:
    """How a customer writes an amount: "$1,250" or "$87.40"."""
    whole, part = divmod(cents, 100)
    return f"${whole:,}" if part == 0 else f"${whole:,}.{part:02d}"


def draw_amount(rng: random.Random, low: int, high: int) -> int:
    """An amount in cents within [low, high]: whole dollars half of the time."""
    cents = rng.randint(low, high)
    return max(low, cents - cents % 100) if rng.random() < 0.5 else cents


def cents_of(record: Record, name: str = "balance") -> int:
    return to_cents(record[name])


@dataclass(frozen=True)
class Holder:
    """A customer of the world with their records (read-only: they are the world's)."""

    customer: Record
    checking: Record
    card: Record
    savings: Record | None
    payees: list[Record] = field(default_factory=list)
    purchases: list[Record] = field(default_factory=list)

    @property
    def cid(self) -> str:
        return self.customer["customer_id"]

    @property
    def savings_account(self) -> Record:
        """The savings account, for holders picked with `savings=True`."""
        if self.savings is None:
            raise LookupError("this holder was picked without a savings account")
        return self.savings

    def recent(self, fresh: bool) -> list[Record]:
        """The checking account's posted card purchases inside (`fresh`) or outside the
        dispute window."""
        cutoff = DISPUTE_CUTOFF.isoformat()
        return [
            t for t in self.purchases if t["status"] == "posted" and (t["date"] >= cutoff) == fresh
        ]


_HOLDERS: list[tuple[State, list[Holder]]] = []  # the last worlds' holders (worlds are cached)


def holders(world: State) -> list[Holder]:
    """Every customer whose checking account is open with its card active (computed once per
    world: a world is never changed)."""
    for seen, found in _HOLDERS:
        if seen is world:
            return found
    found = _holders(world)
    _HOLDERS[:] = [(world, found), *_HOLDERS[:3]]
    return found


def _holders(world: State) -> list[Holder]:
    accounts: dict[str, list[Record]] = {}
    for account in world["accounts"].values():
        accounts.setdefault(account["customer_id"], []).append(account)
    cards = {c["account_id"]: c for c in world["cards"].values()}
    payees: dict[str, list[Record]] = {}
    for payee in world["payees"].values():
        payees.setdefault(payee["customer_id"], []).append(payee)
    purchases: dict[str, list[Record]] = {}
    for txn in world["transactions"].values():
        if txn["type"] == "card_purchase":
            purchases.setdefault(txn["account_id"], []).append(txn)
    found = []
    for cid, customer in world["customers"].items():
        mine = accounts.get(cid, [])
        checking = next((a for a in mine if a["type"] == "checking"), None)
        if checking is None or checking["status"] != "open":
            continue
        card = cards.get(checking["account_id"])
        if card is None or card["status"] != "active":
            continue
        savings = next((a for a in mine if a["type"] == "savings"), None)
        if savings is not None and savings["status"] != "open":
            savings = None
        found.append(
            Holder(
                customer,
                checking,
                card,
                savings,
                payees.get(cid, []),
                sorted(purchases.get(checking["account_id"], []), key=lambda t: t["date"]),
            )
        )
    return found


def pick_holder(
    world: State, rng: random.Random, *, savings: bool = False, where: Any = None
) -> Holder | None:
    """A customer of the world whose checking account is open with an active card, with an open
    savings account when `savings`, and for whom `where(holder)` holds; None when none fits."""
    fits = [
        h
        for h in holders(world)
        if (not savings or h.savings is not None) and (where is None or where(h))
    ]
    return rng.choice(fits) if fits else None


def edited(world: State, *records: tuple[str, str]) -> State:
    """A full state equal to `world` whose named records (table, id) are private copies the
    caller may change; every other record is shared with the world and must stay as it is."""
    state = dict(world)
    for table, key in records:
        if state[table] is world[table]:
            state[table] = dict(world[table])
        state[table][key] = dict(world[table][key])
    return state


def identify(
    gold: GoldRunner, rng: random.Random, customer: Record, profile: bool = False
) -> dict[str, str]:
    """Identify the caller as the policy says: by email (then their profile when `profile`, for
    the tier) or by customer id (their profile). Returns what the caller is asked for."""
    if rng.random() < 0.6:
        gold("find_customer_by_email", email=customer["email"])
        if profile:
            gold("get_customer_details", customer_id=customer["customer_id"])
        return {"email": customer["email"]}
    gold("get_customer_details", customer_id=customer["customer_id"])
    return {"customer id": customer["customer_id"]}
