"""The bank's records as callers and agents speak of them: entities, their words, phrase pools."""

from __future__ import annotations

from typing import Any

from domains.bank.rules import to_cents
from toolscale.kit import Entity
from toolscale.kit.words import day

Record = dict[str, Any]


CARD = ("customer", "account", "card")
LIMITS = {
    1000: "a thousand dollars",
    1500: "fifteen hundred dollars",
    2000: "two thousand dollars",
    2500: "twenty-five hundred dollars",
    3000: "three thousand dollars",
    3500: "thirty-five hundred dollars",
    4000: "four thousand dollars",
    5000: "five thousand dollars",
    6000: "six thousand dollars",
}
WHY = (
    ("unrecognized", "I never made that purchase"),
    ("unrecognized", "I don't recognise it at all"),
    ("duplicate", "I was charged twice for it"),
    ("not_received", "the order never arrived"),
    ("not_received", "I never got what I paid for"),
    ("incorrect_amount", "the amount is not what I agreed to pay"),
)
# Why a caller disputes a charge, by the reason they give (an order that never arrived was not
# "returned weeks ago"; a charge they do not recognise is not from a shop they write to).
DISPUTE_MOTIVES = {
    "unrecognized": (
        "I only just went through my statements.",
        "I'm quite upset about it.",
        "A friend said you could help.",
        "I've never shopped there.",
    ),
    "duplicate": (
        "I only just went through my statements.",
        "I'm quite upset about it.",
        "I've been charged before by them.",
        "The shop won't answer my emails.",
    ),
    "not_received": (
        "The shop won't answer my emails.",
        "I'm quite upset about it.",
        "A friend said you could help.",
        "I've waited long enough.",
    ),
    "incorrect_amount": (
        "The shop won't answer my emails.",
        "I've been charged before by them.",
        "I only just went through my statements.",
        "A friend said you could help.",
    ),
}
# Why a caller pays a payee, by the kind of payee ("They reminded me twice" is no brother's,
# "It's for the repairs they did" no tutor's).
PAY_MOTIVES = {
    "biller": (
        "It's due today.",
        "The invoice came yesterday.",
        "I'm behind on it.",
        "They reminded me twice.",
        "It's my share of the bills.",
    ),
    "landlord": (
        "I owe them for last month.",
        "It's due today.",
        "I'm behind on it.",
        "It's for the repairs they did.",
    ),
    "worker": ("I owe them for last month.", "The invoice came yesterday.", "It's due today."),
    "person": (
        "I promised to pay them back.",
        "It's a birthday present.",
        "We split a holiday.",
        "It's my share of the bills.",
    ),
}
PAYEE_KIND = {"landlord": "landlord", "cleaner": "worker", "tutor": "worker", "gardener": "worker"}
PAYEE_KIND |= dict.fromkeys(("electricity company", "water company", "phone company"), "biller")
CURIOUS = (
    "I'm planning a big purchase.",
    "I want to be sure my rent will clear.",
    "I've lost track of my spending this month.",
    "I'm doing my monthly budget.",
    "My banking app isn't loading for me.",
    "I'm about to book a holiday.",
    "My partner asked me to check.",
    "I'm applying for a mortgage.",
    "The statement hasn't come in the post.",
    "I'm sorting out my taxes.",
    "I'm saving up for a car.",
)
ACCOUNT_NOUNS = {
    "checking": ("checking account", "everyday checking account", "main checking account"),
    "savings": ("savings account", "savings", "rainy-day savings account"),
}
CARD_NOUNS = ("debit card", "bank card", "card", "Visa debit card")
LOSSES = (
    ("lost", "lost"),
    ("lost", "left in a taxi"),
    ("stolen", "stolen"),
    ("stolen", "taken from my bag"),
    ("stolen", "pickpocketed"),
    ("damaged", "damaged"),
    ("damaged", "snapped in half"),
)
# Why a caller blocks a card, by the reason they give (a stolen card was no kids' game).
BLOCK_MOTIVES = {
    "lost": (
        "I only just noticed.",
        "I've checked everywhere.",
        "I'm worried someone will use it.",
        "I was out at a concert last night.",
        "I'm travelling abroad.",
    ),
    "stolen": (
        "I only just noticed.",
        "It happened on the bus.",
        "I'm worried someone will use it.",
        "I was out at a concert last night.",
        "I've already told the police.",
    ),
    "damaged": (
        "My kids were playing with it.",
        "I don't want a replacement for now.",
        "I'd rather nobody could use the number.",
        "I'm travelling abroad.",
    ),
}


def usd(cents: int) -> str:
    """How a caller writes an amount: "$1,250" or "$87.40"."""
    whole, part = divmod(cents, 100)
    return f"${whole:,}" if part == 0 else f"${whole:,}.{part:02d}"


def _account_words(account: Record, world: Record, precise: bool) -> str:
    nouns = ACCOUNT_NOUNS[account["type"]]
    return f"my {nouns[int(account['account_id'][4:]) % 3]}" if precise else "my account"


def _card_words(card: Record, world: Record, precise: bool) -> str:
    noun = CARD_NOUNS[int(card["card_id"][5:], 16) % len(CARD_NOUNS)]
    return f"my {noun}" + (f" ending in {card['last4']}" if precise else "")


def _charge_words(txn: Record, world: Record, precise: bool) -> str:
    when = f" on {day(txn['date'])}" if precise else ""
    return f"the {txn['counterparty']} charge of {usd(-to_cents(txn['amount']))}{when}"


ENTITIES = (
    Entity("customer"),
    Entity(
        "account",
        owner="customer",
        describe=_account_words,
        alike=lambda a: "account",
        tell="type",
        labels={"type": "account type"},
    ),
    Entity(
        "card",
        owner="account",
        describe=_card_words,
        alike=lambda c: "card",
        tell="last4",
        labels={"card_id": "card number"},
    ),
    Entity(
        "transaction",
        owner="account",
        describe=_charge_words,
        alike=lambda t: t["counterparty"],
        tell="date",
        labels={"transaction_id": "transaction reference"},
    ),
    Entity(
        "payee",
        owner="customer",
        describe=lambda p, w, precise: f"my {p['relation']} {p['name']}",
        alike=lambda p: p["name"],
        tell="bank",
    ),
)
