"""The bank's single requests that change something: block or replace a card, change its limit,
move or send money, dispute a charge, close a savings account."""

from __future__ import annotations

import random

from domains.bank.gold import Holder, State, cents_of, draw_amount, identify, pick_holder, usd
from domains.bank.reads import sent_today
from domains.bank.rules import TIERS, money, replacement_fee
from domains.bank.tools import BankTools
from toolscale.core.contract import Action
from toolscale.kit import Draft, GoldRunner, Request

DISPUTE_REASONS = (
    ("unrecognized", "I never made that purchase."),
    ("unrecognized", "I don't recognise it at all."),
    ("duplicate", "I was charged twice and this one is the duplicate."),
    ("not_received", "I paid but never received what I ordered."),
    ("not_received", "The order never arrived."),
    ("incorrect_amount", "The amount charged is not what I agreed to pay."),
)
LOST = {
    "lost": (
        "block my debit card, I've lost it",
        "put a block on my card since I can't find it anywhere",
        "stop my lost card from working",
    ),
    "stolen": (
        "block my debit card, it was stolen",
        "stop my stolen card before someone uses it",
        "block the card that was taken from my bag",
    ),
    "damaged": (
        "block my damaged card",
        "disable my debit card, it snapped in half",
        "block my card, the chip is broken",
    ),
}


def find_card(gold: GoldRunner, rng: random.Random, known: dict[str, str], h: Holder) -> None:
    """The agent finds the caller's debit card: from the card number they give, or through
    their checking account."""
    if rng.random() < 0.4:
        known["card number"] = h.card["card_id"]
        gold("get_card_details", card_id=h.card["card_id"])
    else:
        gold("list_accounts", customer_id=h.cid)
        gold("get_account_details", account_id=h.checking["account_id"])


def block_card(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng)
    if h is None:
        return None
    card_id = h.card["card_id"]
    reason = rng.choice(sorted(LOST))
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    find_card(gold, rng, known, h)
    gold("block_card", card_id=card_id, reason=reason)
    later = rng.random() < 0.5
    return Draft(
        Request(
            LOST[reason],
            known=known,
            motives=("I only noticed this morning.", "I've checked everywhere."),
            conditions=("I don't want a replacement for now.",) if later else (),
        ),
        gold.actions,
        f"Your card {card_id} ending in {h.card['last4']} is now blocked ({reason}).",
        [],
        writes=True,
    )


def card_limit_change(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng)
    if h is None:
        return None
    card_id, top = h.card["card_id"], TIERS[h.customer["tier"]].card_limit_max
    choices = [n for n in range(1000, 5001, 500) if min(n, top) != h.card["daily_limit"]]
    wanted = rng.choice(choices)
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer, profile=True)
    find_card(gold, rng, known, h)
    done = gold("update_daily_limit", card_id=card_id, new_limit=min(wanted, top))
    new, capped = str(done["daily_limit"]), wanted > top
    amount = usd(wanted * 100)
    goals = (
        f"raise the daily spending limit on my debit card to {amount}",
        f"change my card's daily limit to {amount}",
        f"set my card's daily limit at {amount}",
        f"let me spend up to {amount} a day with my card",
        f"bump my debit card's daily cap to {amount}",
    )
    return Draft(
        Request(
            goals,
            known=known,
            motives=("I'm buying furniture this weekend.", "I keep getting declined at the till."),
            conditions=(
                "If that is more than my tier allows, set it to the highest limit I'm allowed.",
            ),
        ),
        gold.actions,
        f"The daily limit of card {card_id} is now {new} USD"
        + (f", the maximum for the {h.customer['tier']} tier." if capped else "."),
        [new] if capped else [],
        writes=True,
    )


def internal_transfer(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, savings=True)
    if h is None:
        return None
    pair = (h.checking, h.savings_account)
    source, target = pair if rng.random() < 0.5 else pair[::-1]
    if cents_of(source) < 2_000:
        return None
    cents = draw_amount(rng, 2_000, min(200_000, cents_of(source)))
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    done = gold(
        "transfer_funds",
        from_account_id=source["account_id"],
        destination_id=target["account_id"],
        amount=cents / 100,
    )
    src, dst = source["type"], target["type"]
    goals = (
        f"move {usd(cents)} from my {src} to my {dst} account",
        f"transfer {usd(cents)} over from {src} into {dst}",
        f"put {usd(cents)} from my {src} account into {dst} and hear both new balances",
        f"shift {usd(cents)} across to {dst} from {src}",
        f"top up my {dst} with {usd(cents)} taken from {src}",
    )
    motives = ("I have a big bill coming up.", "I'm trying to save a bit more each month.")
    return Draft(
        Request(goals, known=known, motives=motives),
        gold.actions,
        f"Done: {done['amount']} USD moved. Your {src} balance is now "
        f"{done['from_account_balance']} USD and your {dst} balance is "
        f"{done['to_account_balance']} USD.",
        [done["from_account_balance"], done["to_account_balance"]],
        writes=True,
    )


def dispute_charge(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, where=lambda h: h.recent(True))
    if h is None:
        return None
    txn = rng.choice(h.recent(True))
    reason, why = rng.choice(DISPUTE_REASONS)
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    if rng.random() < 0.3:
        known["transaction reference"] = txn["transaction_id"]
        gold("list_accounts", customer_id=h.cid)
        gold("get_transaction", transaction_id=txn["transaction_id"])
    else:
        gold("list_accounts", customer_id=h.cid)
        gold("list_recent_transactions", account_id=h.checking["account_id"])
    done = gold("dispute_transaction", transaction_id=txn["transaction_id"], reason=reason)
    merchant, amount = txn["counterparty"], usd(-cents_of(txn, "amount"))
    goals = (
        f"dispute the {amount} charge from {merchant} on my checking account",
        f"contest a {merchant} payment of {amount}",
        f"raise a dispute about {merchant} charging me {amount}",
        f"get my money back for a {merchant} card charge of {amount}",
    )
    facts = [done["dispute_id"]]
    message = f"I opened dispute {done['dispute_id']} for the {merchant} charge."
    if done["provisional_credit"] != "0.00":
        facts.append(done["account_balance"])
        message += (
            f" You received a provisional credit of {done['provisional_credit']} USD; your "
            f"checking balance is now {done['account_balance']} USD."
        )
    return Draft(
        Request(goals, known=known, conditions=(why,)),
        gold.actions,
        message,
        facts,
        writes=True,
    )


def replace_lost_card(rng: random.Random, world: State) -> Draft | None:
    expedited = rng.random() < 0.5
    h = pick_holder(
        world,
        rng,
        where=lambda h: cents_of(h.checking) >= replacement_fee(h.customer["tier"], expedited),
    )
    if h is None:
        return None
    card_id = h.card["card_id"]
    reason = rng.choice(["lost", "stolen"])
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    find_card(gold, rng, known, h)
    gold("block_card", card_id=card_id, reason=reason)
    done = gold("replace_card", card_id=card_id, expedited=expedited)
    how = "expedited" if expedited else "standard"
    goals = (
        f"block my {reason} debit card and get a replacement sent with {how} delivery",
        f"stop my {reason} card and order a new one, {how} shipping",
        f"replace my {reason} card with {how} delivery after blocking it",
    )
    return Draft(
        Request(goals, known=known, conditions=("Tell me the fee and the new card's id.",)),
        gold.actions,
        f"Your card {card_id} is blocked and replacement card {done['new_card_id']} (ending in "
        f"{done['last4']}) is on its way. The fee is {done['fee']} USD.",
        [done["fee"], done["new_card_id"]],
        writes=True,
    )


def pay_payee(rng: random.Random, world: State) -> Draft | None:
    def fits(h: Holder) -> bool:
        return bool(h.payees) and cents_of(h.checking) > 5_000

    h = pick_holder(world, rng, where=fits)
    if h is None:
        return None
    cid, aid, tier = h.cid, h.checking["account_id"], h.customer["tier"]
    payee = rng.choice(h.payees)
    room = TIERS[tier].external_daily_limit - sent_today(world, aid)
    top = min(200_000, room, cents_of(h.checking) - 2_600)
    if top < 2_000:
        return None
    cents = draw_amount(rng, 2_000, top)
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_payees", customer_id=cid)
    gold("list_accounts", customer_id=cid)
    done = gold(
        "transfer_funds", from_account_id=aid, destination_id=payee["payee_id"], amount=cents / 100
    )
    quote = Action(
        "get_fee_quote", {"account_id": aid, "service": "external_transfer", "amount": cents / 100}
    )
    name = payee["name"]
    goals = (
        f"send {usd(cents)} to {name} from my checking account",
        f"pay {name} {usd(cents)} out of checking",
        f"transfer {usd(cents)} to my payee {name}",
        f"get {usd(cents)} over to {name} today",
    )
    return Draft(
        Request(goals, known=known, motives=("I owe them for last month.", "It's due today.")),
        gold.actions,
        f"I sent {done['amount']} USD to {name}. The fee was {done['fee']} USD and "
        f"your checking balance is now {done['from_account_balance']} USD.",
        [done["fee"], done["from_account_balance"]],
        writes=True,
        alternatives=[[*gold.actions[:-1], quote, gold.actions[-1]]],
    )


def close_savings(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, savings=True, where=lambda h: cents_of(h.savings or h.checking))
    if h is None:
        return None
    savings, chk = h.savings_account, h.checking["account_id"]
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    left = money(cents_of(savings))
    done = gold(
        "transfer_funds",
        from_account_id=savings["account_id"],
        destination_id=chk,
        amount=savings["balance"],
    )
    gold("close_account", account_id=savings["account_id"])
    goals = (
        "close my savings account and move what's left in it to checking",
        "shut my savings account, sweeping its balance into checking first",
        "empty my savings into my checking account and then close the savings",
    )
    motives = ("I'm simplifying my finances.", "I never use that account anymore.")
    return Draft(
        Request(goals, known=known, motives=motives),
        gold.actions,
        f"I moved the remaining {left} USD from savings {savings['account_id']} to checking "
        f"{chk} and closed the savings account. Your checking balance is now "
        f"{done['to_account_balance']} USD.",
        [left, done["to_account_balance"]],
        writes=True,
    )
