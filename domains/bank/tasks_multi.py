"""The bank's multi-step templates: closing an account, conditional requests, combined requests.

Conditional templates ("dispute it if still allowed, otherwise block the card") draw which branch
holds by adjusting the state, so a correct agent must check the policy condition itself.
"""

from __future__ import annotations

import random
from typing import Any

from domains.bank.gold import Draft, GoldPath, draw_amount, ensure_balance, pick_holder, usd
from domains.bank.reads import sent_today
from domains.bank.rules import TIERS, external_fee, money, to_cents, to_dollars
from domains.bank.state import DAYS_AGO

State = dict[str, Any]

DISPUTE_PHRASES = (
    ("unrecognized", "I don't recognize it, I never made that purchase"),
    ("duplicate", "I was charged twice for the same purchase and this is the duplicate"),
    ("not_received", "I paid but never received what I ordered"),
    ("incorrect_amount", "the amount charged is wrong, it's not what I agreed to pay"),
)


def _purchase(state: State, account_id: str, rng: random.Random, days_ago: int) -> dict[str, Any]:
    """One card purchase of the account, moved to `days_ago` days before today."""
    purchases = [
        t
        for t in state["transactions"].values()
        if t["account_id"] == account_id and t["type"] == "card_purchase"
    ]
    txn = rng.choice(purchases)
    txn["date"] = DAYS_AGO[days_ago]
    return txn


def close_savings(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng, savings=True)
    savings, chk = h.savings_account, h.checking["account_id"]
    gold = GoldPath(state)
    gold("find_customer_by_email", email=h.customer["email"])
    gold("list_accounts", customer_id=h.customer["customer_id"])
    left = money(to_cents(savings["balance"]))
    done = gold(
        "transfer_funds",
        from_account_id=savings["account_id"],
        destination_id=chk,
        amount=savings["balance"],
    )
    gold("close_account", account_id=savings["account_id"])
    return Draft(
        f"{h.hello_email} I want to close my savings account. Move whatever is left in it to my "
        "checking account first. How much was moved, and what is my checking balance afterwards?",
        gold.actions,
        f"I moved the remaining {left} USD from savings {savings['account_id']} to checking "
        f"{chk} and closed the savings account. Your checking balance is now "
        f"{done['to_account_balance']} USD.",
        [left, done["to_account_balance"]],
    )


def dispute_or_block(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    aid, card_id = h.checking["account_id"], h.card["card_id"]
    in_window = rng.random() < 0.5
    txn = _purchase(state, aid, rng, rng.randint(20, 60) if in_window else rng.randint(61, 100))
    gold = GoldPath(state)
    gold("find_customer_by_email", email=h.customer["email"])
    gold("list_accounts", customer_id=h.customer["customer_id"])
    gold("list_recent_transactions", account_id=aid)
    if in_window:
        done = gold(
            "dispute_transaction", transaction_id=txn["transaction_id"], reason="unrecognized"
        )
        message = f"The charge is within the dispute window: I opened dispute {done['dispute_id']}."
        facts = [done["dispute_id"]]
    else:
        gold("block_card", card_id=card_id, reason="suspected_fraud")
        done = gold("replace_card", card_id=card_id, expedited=False)
        message = (
            f"The charge from {txn['date']} is older than 60 days and can no longer be disputed. "
            f"I blocked card {card_id} and ordered replacement card {done['new_card_id']}; the "
            f"fee is {done['fee']} USD."
        )
        facts = [done["new_card_id"], done["fee"]]
    return Draft(
        f"{h.hello_email} There's a charge of {usd(-to_cents(txn['amount']))} from "
        f"{txn['counterparty']} on my checking account that I don't recognize. Please dispute it "
        "as unrecognized. If it's too old to be disputed, then instead block my debit card for "
        "suspected fraud and order a replacement with standard delivery. Tell me what you did, "
        "with the dispute number or the new card's id and the fee.",
        gold.actions,
        message,
        facts,
    )


def stolen_card_sweep(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    aid, card_id = h.checking["account_id"], h.card["card_id"]
    txn = _purchase(state, aid, rng, rng.randint(1, 30))
    gold = GoldPath(state)
    gold("get_account_details", account_id=aid)
    gold("block_card", card_id=card_id, reason="stolen")
    gold("list_recent_transactions", account_id=aid)
    disputed = gold(
        "dispute_transaction", transaction_id=txn["transaction_id"], reason="unrecognized"
    )
    done = gold("replace_card", card_id=card_id, expedited=True)
    return Draft(
        f"{h.hello_id} My debit card on checking account {aid} was stolen and the thief used it "
        f"at {txn['counterparty']}. Block the card, dispute that charge as unrecognized, and send "
        "me a replacement card with expedited delivery. Tell me the dispute number, the new "
        "card's id and the replacement fee.",
        gold.actions,
        f"Card {card_id} is blocked. Dispute {disputed['dispute_id']} is open for the "
        f"{txn['counterparty']} charge. Replacement card {done['new_card_id']} ships expedited; "
        f"the fee is {done['fee']} USD.",
        [disputed["dispute_id"], done["new_card_id"], done["fee"]],
    )


def limit_and_topup(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng, savings=True)
    savings, tier = h.savings_account, h.customer["tier"]
    top = TIERS[tier].card_limit_max
    h.card["daily_limit"] = rng.choice(range(500, top, 250))
    cents = draw_amount(rng, 5_000, 150_000)
    ensure_balance(savings, cents, rng)
    chk = h.checking["account_id"]
    gold = GoldPath(state)
    gold("find_customer_by_email", email=h.customer["email"])
    gold("get_customer_details", customer_id=h.customer["customer_id"])
    gold("list_accounts", customer_id=h.customer["customer_id"])
    gold("get_account_details", account_id=chk)
    gold("update_daily_limit", card_id=h.card["card_id"], new_limit=top)
    done = gold(
        "transfer_funds",
        from_account_id=savings["account_id"],
        destination_id=chk,
        amount=cents / 100,
    )
    return Draft(
        f"{h.hello_email} Two things: raise the daily limit of my debit card to the maximum my "
        f"tier allows, and move {usd(cents)} from my savings to my checking account. Tell me "
        "the new limit and my new checking balance.",
        gold.actions,
        f"Your card {h.card['card_id']} now has a daily limit of {top} USD, the {tier} maximum. "
        f"After the transfer your checking balance is {done['to_account_balance']} USD.",
        [str(top), done["to_account_balance"]],
    )


def pay_with_topup(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng, savings=True)
    savings, chk, tier = h.savings_account, h.checking, h.customer["tier"]
    cid = h.customer["customer_id"]
    payee = rng.choice([p for p in state["payees"].values() if p["customer_id"] == cid])
    room = TIERS[tier].external_daily_limit - sent_today(state, chk["account_id"])
    cents = draw_amount(rng, 60_000, min(200_000, room))
    needed = cents + external_fee(tier, cents)
    short = rng.randint(1_000, 50_000) if rng.random() < 0.5 else 0
    if short:
        chk["balance"] = to_dollars(needed - short)
        ensure_balance(savings, short, rng)
    else:
        ensure_balance(chk, needed, rng)
    gold = GoldPath(state)
    gold("find_customer_by_email", email=h.customer["email"])
    gold("list_accounts", customer_id=cid)
    gold("list_payees", customer_id=cid)
    quote = gold(
        "get_fee_quote",
        account_id=chk["account_id"],
        service="external_transfer",
        amount=cents / 100,
    )
    facts, message = [quote["fee"]], ""
    if short:
        topup = gold(
            "transfer_funds",
            from_account_id=savings["account_id"],
            destination_id=chk["account_id"],
            amount=short / 100,
        )
        facts += [money(short), topup["from_account_balance"]]
        message = (
            f"Your checking account was {money(short)} USD short, so I first moved {money(short)} "
            f"USD from savings (savings balance now {topup['from_account_balance']} USD). "
        )
    done = gold(
        "transfer_funds",
        from_account_id=chk["account_id"],
        destination_id=payee["payee_id"],
        amount=cents / 100,
    )
    facts.append(done["from_account_balance"])
    return Draft(
        f"{h.hello_email} Please pay {usd(cents)} to {payee['name']} from my checking account. "
        "If my checking account can't cover the payment plus the fee, first move exactly the "
        "missing amount from my savings account into checking. Tell me the fee and the "
        "resulting balances.",
        gold.actions,
        message + f"I sent {done['amount']} USD to {payee['name']} with a fee of {quote['fee']} "
        f"USD. Your checking balance is now {done['from_account_balance']} USD.",
        facts,
    )
