"""The bank's information requests: balances, deposits, fees, a statement line, card and payee
details, sums the agent works out with `calculate`, and an ambiguous "my balance" the agent
resolves by asking which account. Their gold paths only read."""

from __future__ import annotations

import random

from domains.bank.gold import State, cents_of, draw_amount, identify, pick_holder, usd
from domains.bank.rules import external_fee, money
from domains.bank.tools import BankTools
from toolscale.kit import Draft, GoldRunner, Request

CURIOUS = (
    "I'm planning a big purchase.",
    "I want to be sure my rent will clear.",
    "I've lost track of my spending this month.",
    "I'm doing my monthly budget.",
    "My banking app isn't loading for me.",
)


def account_balance(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, savings=rng.random() < 0.5)
    if h is None:
        return None
    account = h.savings or h.checking
    kind = account["type"]
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    balance = money(cents_of(account))
    goals = (
        f"what the balance of my {kind} account is",
        f"how much money is in my {kind} account",
        f"how much I have in {kind} right now",
        f"what my {kind} balance is today",
        f"where my {kind} account stands at the moment",
        f"the current balance on my {kind}",
    )
    return Draft(
        Request(goals, "know", known, CURIOUS),
        gold.actions,
        f"Your {kind} account {account['account_id']} has a balance of {balance} USD.",
        [balance],
        writes=False,
    )


def last_deposit(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng)
    if h is None:
        return None
    aid = h.checking["account_id"]
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    if rng.random() < 0.5:
        known["account number"] = aid
        gold("get_account_details", account_id=aid)
    else:
        gold("list_accounts", customer_id=h.cid)
    rows = gold("list_recent_transactions", account_id=aid)
    deposit = next((t for t in rows if t["type"] == "deposit"), None)
    if deposit is None:
        return None
    goals = (
        "when my last paycheck landed in checking and how much it was",
        "what the most recent deposit into my checking account was",
        "when my salary was last paid in, and how much came in",
        "the date and amount of the latest deposit to my checking",
    )
    motives = ("My employer says they paid me.", "I'm checking whether my pay came through.")
    return Draft(
        Request(goals, "know", known, motives),
        gold.actions,
        f"The last deposit into {aid} was {deposit['amount']} USD from "
        f"{deposit['counterparty']}, on {deposit['date']}.",
        [deposit["date"], deposit["amount"]],
        writes=False,
    )


def fee_quote(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng)
    if h is None:
        return None
    aid = h.checking["account_id"]
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    if rng.random() < 0.6:
        cents = draw_amount(rng, 5_000, 300_000)
        quote = gold(
            "get_fee_quote", account_id=aid, service="external_transfer", amount=cents / 100
        )
        goals: tuple[str, ...] = (
            f"how much the bank would charge me to send {usd(cents)} to one of my payees",
            f"what fee I'd pay on an external transfer of {usd(cents)}",
            f"the fee for sending {usd(cents)} to someone at another bank",
        )
    else:
        expedited = rng.random() < 0.5
        service = "card_replacement_expedited" if expedited else "card_replacement"
        quote = gold("get_fee_quote", account_id=aid, service=service)
        how = "expedited" if expedited else "standard"
        goals = (
            f"how much a replacement debit card with {how} delivery would cost me",
            f"what a new card would cost, with {how} shipping",
            f"the fee for replacing my card, {how} delivery",
        )
    motives = ("I'm not doing anything yet, just asking.", "I'm comparing costs with my old bank.")
    return Draft(
        Request(goals, "know", known, motives),
        gold.actions,
        f"As a {quote['tier']} customer, the fee would be {quote['fee']} USD.",
        [quote["fee"]],
        writes=False,
    )


def statement_line(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, where=lambda h: h.purchases)
    if h is None:
        return None
    txn = rng.choice(h.purchases)
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    known["transaction reference"] = txn["transaction_id"]
    gold("list_accounts", customer_id=h.cid)
    row = gold("get_transaction", transaction_id=txn["transaction_id"])
    goals = (
        "what a charge on my statement was for and when it happened",
        "who a payment on my statement went to, and on which date",
        "what one transaction on my statement is about",
        "which merchant a card payment on my statement came from",
    )
    motives = ("I don't remember buying anything like that.", "I'm going through my statement.")
    return Draft(
        Request(goals, "know", known, motives),
        gold.actions,
        f"That transaction is a card purchase at {row['counterparty']} of "
        f"{row['amount'][1:]} USD on {row['date']}.",
        [row["counterparty"], row["date"]],
        writes=False,
    )


def card_status(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng)
    if h is None:
        return None
    card_id = h.card["card_id"]
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    known["card number"] = card_id
    card = gold("get_card_details", card_id=card_id)
    goals = (
        "whether my debit card is active and what its daily limit is",
        "what the daily spending limit on my card is",
        "how much I can spend with my card in one day",
        "what my card's daily cap is",
    )
    motives = ("I'm about to buy a new laptop.", "My card was declined yesterday.")
    limit = str(card["daily_limit"])
    return Draft(
        Request(goals, "know", known, motives),
        gold.actions,
        f"Your card {card_id} is {card['status']} with a daily limit of {limit} USD.",
        [limit],
        writes=False,
    )


def payee_details(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, where=lambda h: h.payees)
    if h is None:
        return None
    payee = rng.choice(h.payees)
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_payees", customer_id=h.cid)
    name = payee["name"]
    goals = (
        f"which bank my saved payee {name} is with",
        f"what account details I have saved for {name}",
        f"where my payments to {name} go",
    )
    return Draft(
        Request(goals, "know", known, ("I want to double-check before I pay them.",)),
        gold.actions,
        f"Your payee {name} is saved with {payee['bank']}, account ending in "
        f"{payee['account_last4']}.",
        [payee["bank"], payee["account_last4"]],
        writes=False,
    )


def spending_total(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, where=lambda h: len(h.purchases) >= 2)
    if h is None:
        return None
    first, second = rng.sample(h.purchases, 2)
    a, b = first["counterparty"], second["counterparty"]
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    gold("list_recent_transactions", account_id=h.checking["account_id"])
    total = -cents_of(first, "amount") - cents_of(second, "amount")
    expression = f"{money(-cents_of(first, 'amount'))} + {money(-cents_of(second, 'amount'))}"
    gold("calculate", expression=expression)
    goals = (
        f"how much I spent at {a} and {b} altogether",
        f"what my {a} and {b} purchases add up to",
        f"the total of my card payments to {a} and {b}",
    )
    return Draft(
        Request(goals, "know", known, CURIOUS),
        gold.actions,
        f"Your purchases at {a} and {b} add up to {money(total)} USD.",
        [money(total)],
        writes=False,
    )


def combined_balance(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, savings=True)
    if h is None:
        return None
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    parts = [h.checking, h.savings_account]
    gold("calculate", expression=" + ".join(money(cents_of(a)) for a in parts))
    total = money(sum(cents_of(a) for a in parts))
    goals = (
        "how much I have in total across my checking and savings",
        "what my checking and savings add up to together",
        "the combined balance of my checking and savings accounts",
    )
    return Draft(
        Request(goals, "know", known, CURIOUS),
        gold.actions,
        f"Together your checking and savings accounts hold {total} USD.",
        [total],
        writes=False,
    )


def left_after_payment(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, where=lambda h: h.payees and cents_of(h.checking) > 10_000)
    if h is None:
        return None
    payee = rng.choice(h.payees)
    tier = h.customer["tier"]
    cents = draw_amount(rng, 2_000, cents_of(h.checking) // 2)
    fee = external_fee(tier, cents)
    aid, balance = h.checking["account_id"], cents_of(h.checking)
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    gold("list_payees", customer_id=h.cid)
    gold("get_fee_quote", account_id=aid, service="external_transfer", amount=cents / 100)
    gold("calculate", expression=f"{money(balance)} - {money(cents)} - {money(fee)}")
    left = money(balance - cents - fee)
    goals = (
        f"how much would be left in my checking if I paid {usd(cents)} to {payee['name']}",
        f"what my checking balance would be after sending {payee['name']} {usd(cents)}, fee "
        "included",
        f"whether I can afford to pay {payee['name']} {usd(cents)} and what would remain",
    )
    return Draft(
        Request(goals, "know", known, ("I'm not sending it yet.",)),
        gold.actions,
        f"The fee would be {money(fee)} USD, so your checking balance would be {left} USD "
        "after the payment.",
        [money(fee), left],
        writes=False,
    )


def which_balance(rng: random.Random, world: State) -> Draft | None:
    """An ambiguous request ("my balance", with two accounts): the caller names the account
    by its number when the agent asks which one."""
    h = pick_holder(world, rng, savings=True)
    if h is None:
        return None
    account = rng.choice([h.checking, h.savings_account])
    aid, kind = account["account_id"], account["type"]
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    known["account number"] = aid
    shown = gold("get_account_details", account_id=aid)
    goals = (
        "what my balance is",
        "how much is in my account",
        "what I've got in the bank at the moment",
        "my current balance",
    )
    return Draft(
        Request(
            goals,
            "know",
            known,
            CURIOUS,
            notes=f"You mean your {kind} account; give its number if the agent asks which one.",
        ),
        gold.actions,
        f"Your {kind} account {aid} has a balance of {shown['balance']} USD.",
        [shown["balance"]],
        writes=False,
    )
