"""Requests the policy does not allow: the agent checks, changes nothing and explains why, or
hands the caller to a human agent (a frozen account, which agents cannot unfreeze)."""

from __future__ import annotations

import random

from domains.bank.gold import State, cents_of, draw_amount, identify, pick_holder, usd
from domains.bank.rules import TIERS, money
from domains.bank.tools import BankTools
from toolscale.kit import Draft, GoldRunner, Request

HANDOFF = "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."
ACCEPT = "If the agent explains that it cannot be done, accept it and end the conversation."


def refuse_old_dispute(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, where=lambda h: h.recent(False))
    if h is None:
        return None
    txn = rng.choice(h.recent(False))
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer)
    gold("list_accounts", customer_id=h.cid)
    gold("list_recent_transactions", account_id=h.checking["account_id"])
    merchant, amount = txn["counterparty"], usd(-cents_of(txn, "amount"))
    goals = (
        f"dispute an old {merchant} charge of {amount}",
        f"get a refund through a dispute for {amount} that {merchant} took a while back",
        f"contest the {amount} {merchant} purchase from a few months ago",
        f"open a dispute on a {merchant} charge of {amount} from a couple of months back",
    )
    return Draft(
        Request(
            goals,
            known=known,
            motives=("I only just went through my old statements.",),
            notes=ACCEPT,
        ),
        gold.actions,
        f"I'm sorry, I can't dispute the {merchant} charge: it is dated {txn['date']}, more than "
        "60 days ago, and disputes are only possible within 60 days of the purchase.",
        [txn["date"]],
        writes=False,
        nl_assertions=["The agent does not open a dispute and explains the 60-day window."],
    )


def refuse_limit(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, where=lambda h: h.customer["tier"] != "platinum")
    if h is None:
        return None
    tier = h.customer["tier"]
    top = TIERS[tier].card_limit_max
    wanted = rng.choice([n for n in range(2000, 6001, 500) if n > top])
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer, profile=True)
    gold("list_accounts", customer_id=h.cid)
    amount = usd(wanted * 100)
    goals = (
        f"set my card's daily limit to exactly {amount}",
        f"raise my debit card's daily limit to {amount}, nothing less",
        f"have a daily card limit of {amount}",
    )
    return Draft(
        Request(
            goals,
            known=known,
            motives=("I'm buying a used car in cash.",),
            conditions=("If that isn't possible, leave my limit as it is.",),
            notes=ACCEPT,
        ),
        gold.actions,
        f"I can't set the daily limit of the card on your checking account "
        f"{h.checking['account_id']} to {wanted} USD: as a {tier} customer the highest daily "
        f"limit is {top} USD, so I left your limit unchanged.",
        [tier, h.checking["account_id"]],  # the tier alone is a guess: the account is looked up
        writes=False,
        nl_assertions=[f"The agent explains that the {tier} tier allows at most {top} a day."],
    )


def refuse_external_limit(rng: random.Random, world: State) -> Draft | None:
    h = pick_holder(world, rng, where=lambda h: bool(h.payees))
    if h is None:
        return None
    tier = h.customer["tier"]
    limit = TIERS[tier].external_daily_limit
    cents = draw_amount(rng, limit + 10_000, limit + 500_000)
    payee = rng.choice(h.payees)
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, h.customer, profile=True)
    gold("list_payees", customer_id=h.cid)
    name = payee["name"]
    goals = (
        f"send {usd(cents)} to {name} in one go today",
        f"wire {usd(cents)} to my payee {name} right now",
        f"pay {name} {usd(cents)} from checking today",
    )
    return Draft(
        Request(
            goals,
            known=known,
            conditions=("Don't split it into smaller payments.",),
            notes=ACCEPT,
        ),
        gold.actions,
        f"I can't send {money(cents)} USD to {name} (payee {payee['payee_id']}) today: as a "
        f"{tier} customer you can send at most {money(limit)} USD a day to payees from one "
        "account.",
        [tier, payee["payee_id"]],  # the tier alone is a guess: the payee is looked up
        writes=False,
    )


def handoff_frozen(rng: random.Random, world: State) -> Draft | None:
    frozen = [a for a in world["accounts"].values() if a["status"] == "frozen"]
    if not frozen:
        return None
    account = rng.choice(frozen)
    customer = world["customers"][account["customer_id"]]
    kind = account["type"]
    gold = GoldRunner(BankTools, world)
    known = identify(gold, rng, customer)
    gold("list_accounts", customer_id=customer["customer_id"])
    gold("get_account_details", account_id=account["account_id"])
    gold(
        "transfer_to_human_agents",
        summary=f"Customer {customer['customer_id']} asks to use {kind} account "
        f"{account['account_id']}, which is frozen; it needs unfreezing.",
    )
    goals = (
        f"find out why I can't move money out of my {kind} account, and fix it",
        f"get my {kind} account working again, every transfer from it fails",
        f"sort out my {kind} account, it keeps refusing payments",
    )
    return Draft(
        Request(
            goals,
            known=known,
            motives=("It's been like this for two days.",),
            unknown="You do not know that the account is frozen.",
            notes="If the agent transfers you to a human agent, end the conversation.",
        ),
        gold.actions,
        f"Your {kind} account {account['account_id']} is frozen, and I'm not able to unfreeze "
        f"accounts, so I have passed your case to a human agent. {HANDOFF}",
        ["frozen", account["account_id"]],  # "frozen" alone is a guess from the policy
        writes=False,
        nl_assertions=["The agent transfers the customer to a human agent."],
    )
