"""The bank's multi-step templates: conditional requests and several requests in one call.

A conditional template ("dispute it if still allowed, otherwise block the card") picks a record
for which the branch it drew holds, so a correct agent must check the condition itself; where
no record fits as it is (a checking account just short of a payment), the template edits a
private copy of that one record.
"""

from __future__ import annotations

import random

from domains.bank.gold import (
    Holder,
    State,
    cents_of,
    draw_amount,
    edited,
    identify,
    pick_holder,
    usd,
)
from domains.bank.reads import sent_today
from domains.bank.rules import TIERS, external_fee, money, to_dollars
from domains.bank.tools import BankTools
from toolscale.kit import Draft, GoldRunner, Request


def dispute_or_block(rng: random.Random, world: State) -> Draft | None:
    fresh = rng.random() < 0.5
    h = pick_holder(world, rng, where=lambda h: h.recent(fresh) and cents_of(h.checking) >= 1_000)
    if h is None:
        return None
    aid, card_id = h.checking["account_id"], h.card["card_id"]
    txn = rng.choice(h.recent(fresh))
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    gold("list_recent_transactions", account_id=aid)
    if fresh:
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
    merchant, amount = txn["counterparty"], usd(-cents_of(txn, "amount"))
    goals = (
        f"dispute a {amount} charge from {merchant} that I don't recognize",
        f"challenge a {merchant} payment of {amount} I never made",
        f"report a {amount} {merchant} charge on my checking as not mine",
        f"get a strange {merchant} charge of {amount} taken off my account",
        f"flag the {amount} that {merchant} took from me, it wasn't me",
    )
    return Draft(
        Request(
            goals,
            known=known,
            conditions=(
                "If it's too old to be disputed, block my debit card for suspected fraud instead "
                "and send me a replacement with standard delivery.",
            ),
        ),
        gold.actions,
        message,
        facts,
        writes=True,
    )


def stolen_card_sweep(rng: random.Random, world: State) -> Draft | None:
    count = rng.choice((1, 2))

    def fits(h: Holder) -> bool:
        return len(h.recent(True)) >= count and cents_of(h.checking) >= 4_000

    h = pick_holder(world, rng, where=fits)
    if h is None:
        return None
    aid, card_id = h.checking["account_id"], h.card["card_id"]
    charges = rng.sample(h.recent(True), count)
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    gold("get_account_details", account_id=aid)
    gold("block_card", card_id=card_id, reason="stolen")
    gold("list_recent_transactions", account_id=aid)
    disputes = [
        gold("dispute_transaction", transaction_id=t["transaction_id"], reason="unrecognized")
        for t in charges
    ]
    done = gold("replace_card", card_id=card_id, expedited=True)
    shops = " and ".join(t["counterparty"] for t in charges)
    charge = "charges" if count > 1 else "charge"
    goals = (
        f"block my stolen card, dispute the {shops} {charge} the thief made, and get a new card "
        "sent express",
        f"stop my stolen debit card, contest the {shops} {charge} I didn't make, and order an "
        "expedited replacement",
        f"deal with my stolen card: block it, dispute the {charge} at {shops}, and rush me a "
        "replacement",
        f"make my stolen card unusable, fight the {shops} {charge}, and ship a new card fast",
    )
    ids = [d["dispute_id"] for d in disputes]
    return Draft(
        Request(
            goals,
            known=known,
            motives=("My bag was taken on the train.", "Someone pickpocketed me yesterday."),
        ),
        gold.actions,
        f"Card {card_id} is blocked. Dispute {' and '.join(ids)} opened for the {shops} "
        f"{charge}. Replacement card {done['new_card_id']} ships expedited; the fee is "
        f"{done['fee']} USD.",
        [*ids, done["new_card_id"], done["fee"]],
        writes=True,
    )


def limit_and_topup(rng: random.Random, world: State) -> Draft | None:
    def fits(h: Holder) -> bool:
        top = TIERS[h.customer["tier"]].card_limit_max
        return h.card["daily_limit"] < top and cents_of(h.savings_account) >= 5_000

    h = pick_holder(world, rng, savings=True, where=fits)
    if h is None:
        return None
    savings, tier = h.savings_account, h.customer["tier"]
    top = TIERS[tier].card_limit_max
    cents = draw_amount(rng, 5_000, min(150_000, cents_of(savings)))
    chk = h.checking["account_id"]
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer, profile=True)
    gold("list_accounts", customer_id=h.cid)
    gold("get_account_details", account_id=chk)
    gold("update_daily_limit", card_id=h.card["card_id"], new_limit=top)
    done = gold(
        "transfer_funds",
        from_account_id=savings["account_id"],
        destination_id=chk,
        amount=cents / 100,
    )
    goals = (
        f"raise my card's daily limit to the most my tier allows and move {usd(cents)} from "
        "savings to checking",
        f"put {usd(cents)} from savings into checking and max out my card's daily limit",
        f"get my debit card limit as high as it can go, and top up checking with {usd(cents)} "
        "from savings",
        f"move {usd(cents)} into checking from savings and give my card the top daily limit",
    )
    return Draft(
        Request(goals, known=known, motives=("I'm travelling next week.",)),
        gold.actions,
        f"Your card {h.card['card_id']} now has a daily limit of {top} USD, the {tier} maximum. "
        f"After the transfer your checking balance is {done['to_account_balance']} USD.",
        [str(top), done["to_account_balance"]],
        writes=True,
    )


def pay_with_topup(rng: random.Random, world: State) -> Draft | None:
    short = rng.randint(1_000, 50_000) if rng.random() < 0.5 else 0

    def fits(h: Holder) -> bool:
        room = TIERS[h.customer["tier"]].external_daily_limit - sent_today(
            world, h.checking["account_id"]
        )
        return bool(h.payees) and room >= 60_000 and cents_of(h.savings_account) >= short

    h = pick_holder(world, rng, savings=True, where=fits)
    if h is None:
        return None
    savings, chk, tier, cid = h.savings_account, h.checking, h.customer["tier"], h.cid
    payee = rng.choice(h.payees)
    room = TIERS[tier].external_daily_limit - sent_today(world, chk["account_id"])
    if short:
        cents = draw_amount(rng, 60_000, min(200_000, room))
        state = edited(world, ("accounts", chk["account_id"]))
        state["accounts"][chk["account_id"]]["balance"] = to_dollars(
            cents + external_fee(tier, cents) - short
        )
    elif cents_of(chk) >= 62_600:
        cents = draw_amount(rng, 60_000, min(200_000, room, cents_of(chk) - 2_600))
        state = world
    else:
        return None
    gold = GoldRunner(BankTools, state)
    known = identify(gold, rng, h.customer)
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
    name = payee["name"]
    goals = (
        f"pay {usd(cents)} to {name} from my checking account",
        f"send {name} {usd(cents)} out of checking",
        f"settle {usd(cents)} with {name} from my checking",
        f"make a {usd(cents)} payment to {name} from checking",
    )
    return Draft(
        Request(
            goals,
            known=known,
            conditions=(
                "If checking can't cover the payment plus the fee, first move exactly the missing "
                "amount over from my savings.",
            ),
        ),
        gold.actions,
        message + f"I sent {done['amount']} USD to {name} with a fee of {quote['fee']} "
        f"USD. Your checking balance is now {done['from_account_balance']} USD.",
        facts,
        writes=True,
        state=None if state is world else state,
    )


def tidy_up(rng: random.Random, world: State) -> Draft | None:
    def fits(h: Holder) -> bool:
        return cents_of(h.savings_account) > 0

    h = pick_holder(world, rng, savings=True, where=fits)
    if h is None:
        return None
    savings, chk, card = h.savings_account, h.checking["account_id"], h.card
    top = TIERS[h.customer["tier"]].card_limit_max
    limits = [n for n in range(500, top + 1, 250) if n != card["daily_limit"]]
    limit = rng.choice(limits)
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer, profile=True)
    gold("list_accounts", customer_id=h.cid)
    left = money(cents_of(savings))
    done = gold(
        "transfer_funds",
        from_account_id=savings["account_id"],
        destination_id=chk,
        amount=savings["balance"],
    )
    gold("close_account", account_id=savings["account_id"])
    gold("get_account_details", account_id=chk)
    gold("update_daily_limit", card_id=card["card_id"], new_limit=limit)
    amount = usd(limit * 100)
    goals = (
        f"close my savings account into checking and set my card's daily limit to {amount}",
        f"move everything from savings to checking, close the savings, and change my daily card "
        f"limit to {amount}",
        f"tidy up my accounts: shut the savings (money into checking) and put my card limit at "
        f"{amount}",
    )
    return Draft(
        Request(goals, known=known, motives=("I'm reorganising my banking.",)),
        gold.actions,
        f"I moved {left} USD from savings to checking and closed the savings account; your "
        f"checking balance is {done['to_account_balance']} USD. Card {card['card_id']} now has a "
        f"daily limit of {limit} USD.",
        [left, done["to_account_balance"]],
        writes=True,
    )
