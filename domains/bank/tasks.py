"""The bank's easy and medium task templates, and the sampler that draws one task.

Each template picks a customer in a freshly built bank, adjusts the few records the request
depends on (a balance, a date), writes the customer's request, and plays the gold path on a
scratch copy of the state to learn the facts a correct agent reports.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domains.bank.gold import Draft, GoldPath, draw_amount, ensure_balance, pick_holder, usd
from domains.bank.reads import sent_today
from domains.bank.rules import TIERS, external_fee, money, to_cents
from domains.bank.state import DAYS_AGO, build_state
from domains.bank.tasks_multi import (
    DISPUTE_PHRASES,
    close_savings,
    dispute_or_block,
    limit_and_topup,
    pay_with_topup,
    stolen_card_sweep,
)
from toolscale.contract import Action, TaskSpec, normalize_text

State = dict[str, Any]


def account_balance(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    account = h.savings or h.checking
    kind = account["type"]
    gold = GoldPath(state)
    gold("find_customer_by_email", email=h.customer["email"])
    gold("list_accounts", customer_id=h.customer["customer_id"])
    balance = money(to_cents(account["balance"]))
    return Draft(
        f"{h.hello_email} What is the current balance of my {kind} account?",
        gold.actions,
        f"Your {kind} account {account['account_id']} has a balance of {balance} USD.",
        [balance],
    )


def last_deposit(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    aid = h.checking["account_id"]
    gold = GoldPath(state)
    gold("get_account_details", account_id=aid)
    rows = gold("list_recent_transactions", account_id=aid)
    deposit = next(t for t in rows if t["type"] == "deposit")
    return Draft(
        f"{h.hello_id} When was the last deposit into my checking account {aid}, and how much "
        "was it?",
        gold.actions,
        f"The last deposit into {aid} was {deposit['amount']} USD from "
        f"{deposit['counterparty']}, on {deposit['date']}.",
        [deposit["date"], deposit["amount"]],
    )


def transfer_fee_quote(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    aid = h.checking["account_id"]
    gold = GoldPath(state)
    if rng.random() < 0.7:
        cents = draw_amount(rng, 5_000, 300_000)
        quote = gold(
            "get_fee_quote", account_id=aid, service="external_transfer", amount=cents / 100
        )
        ask = f"send {usd(cents)} from my account {aid} to one of my payees at another bank"
    else:
        service = "card_replacement_expedited"
        quote = gold("get_fee_quote", account_id=aid, service=service)
        ask = f"get a replacement card for my account {aid} with expedited delivery"
    return Draft(
        f"{h.hello_id} I'm not doing anything yet, I only want to know: how much would the bank "
        f"charge me to {ask}?",
        gold.actions,
        f"As a {quote['tier']} customer, the fee would be {quote['fee']} USD.",
        [quote["fee"]],
    )


def block_card(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    card_id = h.card["card_id"]
    reason, story = rng.choice(
        [
            ("lost", "I lost my card"),
            ("stolen", "My card was stolen"),
            ("damaged", "My card is damaged, it snapped in half"),
        ]
    )
    gold = GoldPath(state)
    gold("get_card_details", card_id=card_id)
    gold("block_card", card_id=card_id, reason=reason)
    return Draft(
        f"{h.hello_id} {story}: card {card_id}. Please block it right away. I'll order a "
        "new one some other time.",
        gold.actions,
        f"Your card {card_id} ending in {h.card['last4']} is now blocked ({reason}).",
        [],
    )


def card_limit_change(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    card_id, top = h.card["card_id"], TIERS[h.customer["tier"]].card_limit_max
    wanted = rng.choice([n for n in range(1000, 5001, 500) if min(n, top) != h.card["daily_limit"]])
    gold = GoldPath(state)
    gold("get_card_details", card_id=card_id)
    gold("get_customer_details", customer_id=h.customer["customer_id"])
    done = gold("update_daily_limit", card_id=card_id, new_limit=min(wanted, top))
    new = str(done["daily_limit"])
    capped = wanted > top
    return Draft(
        f"{h.hello_id} Please change the daily limit of my card {card_id} to {usd(wanted * 100)}. "
        "If that is more than my tier allows, set it to the highest limit I'm allowed instead.",
        gold.actions,
        f"The daily limit of card {card_id} is now {new} USD"
        + (f", the maximum for the {h.customer['tier']} tier." if capped else "."),
        [new] if capped else [],
    )


def internal_transfer(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng, savings=True)
    pair = (h.checking, h.savings_account)
    source, target = pair if rng.random() < 0.5 else pair[::-1]
    cents = draw_amount(rng, 2_000, 200_000)
    ensure_balance(source, cents, rng)
    gold = GoldPath(state)
    gold("find_customer_by_email", email=h.customer["email"])
    gold("list_accounts", customer_id=h.customer["customer_id"])
    done = gold(
        "transfer_funds",
        from_account_id=source["account_id"],
        destination_id=target["account_id"],
        amount=cents / 100,
    )
    src, dst = done["from_account_balance"], done["to_account_balance"]
    return Draft(
        f"{h.hello_email} Please move {usd(cents)} from my {source['type']} account to my "
        f"{target['type']} account, and tell me the new balances of both accounts.",
        gold.actions,
        f"Done: {done['amount']} USD moved. Your {source['type']} balance is now {src} USD and "
        f"your {target['type']} balance is {dst} USD.",
        [src, dst],
    )


def dispute_charge(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    aid = h.checking["account_id"]
    purchases = [
        t
        for t in state["transactions"].values()
        if t["account_id"] == aid and t["type"] == "card_purchase"
    ]
    txn = rng.choice(purchases)
    txn["date"] = DAYS_AGO[rng.randint(1, 60)]
    reason, phrase = rng.choice(DISPUTE_PHRASES)
    gold = GoldPath(state)
    gold("find_customer_by_email", email=h.customer["email"])
    gold("list_accounts", customer_id=h.customer["customer_id"])
    gold("list_recent_transactions", account_id=aid)
    done = gold("dispute_transaction", transaction_id=txn["transaction_id"], reason=reason)
    facts = [done["dispute_id"]]
    message = f"I opened dispute {done['dispute_id']} for the {txn['counterparty']} charge."
    if done["provisional_credit"] != "0.00":
        facts.append(done["account_balance"])
        message += (
            f" You received a provisional credit of {done['provisional_credit']} USD; your "
            f"checking balance is now {done['account_balance']} USD."
        )
    return Draft(
        f"{h.hello_email} On my checking account there is a charge of "
        f"{usd(-to_cents(txn['amount']))} from {txn['counterparty']} on {txn['date']}: {phrase}. "
        "Please dispute it and give me the dispute number.",
        gold.actions,
        message,
        facts,
    )


def replace_lost_card(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    aid, card_id = h.checking["account_id"], h.card["card_id"]
    reason = rng.choice(["lost", "stolen"])
    expedited = rng.random() < 0.5
    gold = GoldPath(state)
    gold("list_accounts", customer_id=h.customer["customer_id"])
    gold("get_account_details", account_id=aid)
    gold("block_card", card_id=card_id, reason=reason)
    done = gold("replace_card", card_id=card_id, expedited=expedited)
    delivery = "with expedited delivery" if expedited else "with standard delivery"
    return Draft(
        f"{h.hello_id} The debit card of my checking account was {reason}. Please block it "
        f"and send me a replacement {delivery}. What is the fee, and what is the new card's id?",
        gold.actions,
        f"Your card {card_id} is blocked and replacement card {done['new_card_id']} (ending in "
        f"{done['last4']}) is on its way. The fee is {done['fee']} USD.",
        [done["fee"], done["new_card_id"]],
    )


def pay_payee(state: State, rng: random.Random) -> Draft:
    h = pick_holder(state, rng)
    cid, aid, tier = h.customer["customer_id"], h.checking["account_id"], h.customer["tier"]
    payee = rng.choice([p for p in state["payees"].values() if p["customer_id"] == cid])
    room = TIERS[tier].external_daily_limit - sent_today(state, aid)
    cents = draw_amount(rng, 2_000, min(200_000, room))
    ensure_balance(h.checking, cents + external_fee(tier, cents), rng)
    gold = GoldPath(state)
    gold("find_customer_by_email", email=h.customer["email"])
    gold("list_payees", customer_id=cid)
    gold("list_accounts", customer_id=cid)
    done = gold(
        "transfer_funds", from_account_id=aid, destination_id=payee["payee_id"], amount=cents / 100
    )
    quote = Action(
        "get_fee_quote", {"account_id": aid, "service": "external_transfer", "amount": cents / 100}
    )
    return Draft(
        f"{h.hello_email} Please send {usd(cents)} to {payee['name']} from my checking account. "
        "Tell me the fee and my new checking balance.",
        gold.actions,
        f"I sent {done['amount']} USD to {payee['name']}. The fee was {done['fee']} USD and "
        f"your checking balance is now {done['from_account_balance']} USD.",
        [done["fee"], done["from_account_balance"]],
        [[*gold.actions[:3], quote, gold.actions[3]]],
    )


TEMPLATES: dict[str, Callable[[State, random.Random], Draft]] = {
    "account_balance": account_balance,
    "last_deposit": last_deposit,
    "transfer_fee_quote": transfer_fee_quote,
    "block_card": block_card,
    "card_limit_change": card_limit_change,
    "internal_transfer": internal_transfer,
    "dispute_charge": dispute_charge,
    "replace_lost_card": replace_lost_card,
    "pay_payee": pay_payee,
    "close_savings": close_savings,
    "dispute_or_block": dispute_or_block,
    "stolen_card_sweep": stolen_card_sweep,
    "limit_and_topup": limit_and_topup,
    "pay_with_topup": pay_with_topup,
}


def sample_task(rng: random.Random) -> TaskSpec:
    """Draw one task: a template, a fresh bank, the request and its gold path. A draft whose
    facts already appear in the request is redrawn (a fact must come from the tools)."""
    name = rng.choice(list(TEMPLATES))
    for _ in range(100):
        state = build_state(rng)
        draft = TEMPLATES[name](state, rng)
        asked = normalize_text(draft.instruction)
        if not any(normalize_text(f) in asked for f in draft.facts):
            break
    else:
        raise RuntimeError(f"template {name} kept stating its facts in the request")
    return TaskSpec(
        template=name,
        difficulty=draft.difficulty,
        instruction=draft.instruction,
        initial_state=state,
        gold_actions=draft.actions,
        final_message=draft.final_message,
        required_facts=list(dict.fromkeys(draft.facts)),
        alternatives=draft.alternatives,
    )
