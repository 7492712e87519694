"""The bank's two hand-written tasks: sweep and close a savings account; dispute or block."""

from __future__ import annotations

import random
from typing import Any

from domains.bank import rules
from domains.bank.entities import _charge_words
from domains.bank.rules import money, to_cents
from domains.bank.tools import BankTools
from toolscale.core.contract import Action, ToolError
from toolscale.kit import Draft, GoldRunner, Request
from toolscale.kit.broken_rules import reasons
from toolscale.kit.shots import you

Record = dict[str, Any]


def _holder(rng: random.Random, world: Record, fits: Any) -> tuple[Record, Record, Record] | None:
    """A customer with an open checking and an open savings account for which `fits(checking,
    savings)` holds."""
    by_owner: dict[str, dict[str, Record]] = {}
    for account in world["accounts"].values():
        if account["status"] == "open":
            by_owner.setdefault(account["customer_id"], {})[account["type"]] = account
    found = [
        (world["customers"][cid], mine["checking"], mine["savings"])
        for cid, mine in by_owner.items()
        if {"checking", "savings"} <= set(mine) and fits(mine["checking"], mine["savings"])
    ]
    return rng.choice(found) if found else None


def _identified(rng: random.Random, world: Record, customer: Record) -> tuple[GoldRunner, dict]:
    run = GoldRunner(BankTools, world)
    if rng.random() < 0.6:
        run("find_customer_by_email", email=customer["email"])
        known = {"email": customer["email"]}
    else:
        run("get_customer_details", customer_id=customer["customer_id"])
        known = {"customer id": customer["customer_id"]}
    run("list_accounts", customer_id=customer["customer_id"])
    return run, known


def close_savings(rng: random.Random, world: Record) -> Draft | None:
    """Sweep a savings account into checking, then close it: two writes, the second possible
    only after the first (a goal makes one)."""
    found = _holder(rng, world, lambda c, s: s["balance"] > 0)
    if found is None:
        return None
    customer, checking, savings = found
    run, known = _identified(rng, world, customer)
    done = run(
        "transfer_funds",
        from_account_id=savings["account_id"],
        destination_id=checking["account_id"],
        amount=savings["balance"],
    )
    run("close_account", account_id=savings["account_id"])
    goals = (
        "close my savings account and move what's left in it to checking",
        "shut my savings account, sweeping its balance into checking first",
        "empty my savings into my checking account and then close the savings",
        "move everything from savings to checking and close the savings account",
        "wind up my savings account, with the money going to checking",
    )
    motives = (  # the caller's words: the opening says one, the reason gives the same
        "I'm simplifying my finances.",
        "I never use that account any more.",
        "I'm switching to another bank for savings.",
        "I need all my money in one place.",
        "The interest rate is too low.",
        "I'm buying a house.",
        "My adviser told me to.",
    )
    left = money(to_cents(savings["balance"]))
    return Draft(
        Request(
            goals,
            known=known,
            motives=motives,
            reason=you(f"You want to {rng.choice(goals)}."),
        ),
        run.actions,
        f"I moved the remaining {left} USD from savings {savings['account_id']} to checking and "
        f"closed the savings account. Your checking balance is now {done['to_account_balance']} "
        "USD.",
        [left, done["to_account_balance"]],
        writes=True,
    )


def dispute_or_block(rng: random.Random, world: Record) -> Draft | None:
    """Dispute a charge, or, when it is too old to dispute, block the card and order a new one:
    the dispute window chooses which writes happen (a goal refuses or writes, never switches)."""
    fresh = rng.random() < 0.5
    cutoff = rules.DISPUTE_CUTOFF.isoformat()
    cards = {c["account_id"]: c for c in world["cards"].values() if c["status"] == "active"}

    def fits(checking: Record, savings: Record) -> bool:
        return checking["account_id"] in cards and to_cents(checking["balance"]) >= 2_500

    found = _holder(rng, world, fits)
    if found is None:
        return None
    customer, checking, _ = found
    aid, card = checking["account_id"], cards[checking["account_id"]]
    charges = [
        t
        for t in world["transactions"].values()
        if t["account_id"] == aid
        and t["type"] == "card_purchase"
        and (t["date"] >= cutoff) == fresh
    ]
    if not fresh:  # too old to dispute, and for no other reason: the condition decides alone
        charges = [t for t in charges if _too_old_only(world, t["transaction_id"])]
    if not charges:
        return None
    txn = rng.choice(charges)
    run, known = _identified(rng, world, customer)
    run("list_recent_transactions", account_id=aid)
    if fresh:
        done = run(
            "dispute_transaction", transaction_id=txn["transaction_id"], reason="unrecognized"
        )
        message, facts = (
            f"The charge is recent enough: I opened dispute {done['dispute_id']}.",
            [done["dispute_id"]],
        )
    else:
        run("block_card", card_id=card["card_id"], reason="suspected_fraud")
        done = run("replace_card", card_id=card["card_id"], expedited=False)
        message = (
            f"The charge from {txn['date']} is older than {rules.DISPUTE_WINDOW_DAYS} days and can "
            f"no longer be disputed, so I blocked card {card['card_id']} and ordered replacement "
            f"card {done['new_card_id']}; the fee is {done['fee']} USD."
        )
        facts = [done["new_card_id"], done["fee"]]
    charge = _charge_words(txn, world, False)
    goals = (
        f"dispute {charge}, which I don't recognise",
        f"challenge {charge}, I never made it",
        f"get {charge} taken off my account, it wasn't me",
    )
    condition = (
        "If it's too old to be disputed, block my debit card for suspected fraud instead and send "
        "me a replacement with standard delivery."
    )
    asked = {"transaction_id": txn["transaction_id"], "reason": "unrecognized"}
    return Draft(
        Request(
            goals,
            known=known,
            conditions=(condition,),
            reason=you(f"You want to {rng.choice(goals)}.") + _INSTEAD,
        ),
        run.actions,
        message,
        facts,
        writes=True,
        refused=None if fresh else Action("dispute_transaction", asked),
    )


# The condition told to the user: what they want done, not an order to them ("block your card").
_INSTEAD = (
    " If it's too old to be disputed, you want your debit card blocked for suspected fraud "
    "instead and a replacement sent with standard delivery."
)


def _too_old_only(world: Record, transaction_id: str) -> bool:
    """Whether the dispute policy refuses the charge as too old, and for nothing else."""
    try:
        found = reasons(lambda: rules.check_dispute(world, transaction_id, "unrecognized"))
    except ToolError:  # not a posted card purchase: no dispute at all
        return False
    return isinstance(found.only(), rules.TooOld)
