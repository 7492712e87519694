"""The bank domain (stateful, kit v2): customers, accounts, cards, transfers, fees, disputes.

Declared, not templated: the world (`world.build_world`: one bank of about 1,700 records per run
seed), the tool graph (`tools`, with `@finds` / `@lists` / `@raises`), the policy (`rules`,
rendered into policy.md) and the goals below; the kit composes the tasks from them
(toolscale.kit.compose). Every goal starts from the caller (their email or customer id), as the
policy asks. Two tasks are hand-written (`close_savings`, `dispute_or_block`).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from domains.bank import rules
from domains.bank.rules import money, to_cents
from domains.bank.tools import BankTools
from domains.bank.world import build_world
from toolscale.kit import Draft, Draw, Entity, Goal, GoldRunner, Request, StatefulDomain, Template
from toolscale.kit.shots import you
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
    Entity("customer", "customers", "customer_id"),
    Entity(
        "account",
        "accounts",
        "account_id",
        owner="customer",
        owner_key="customer_id",
        describe=_account_words,
        alike=lambda a: "account",
        tell="type",
        labels={"type": "account type"},
    ),
    Entity(
        "card",
        "cards",
        "card_id",
        owner="account",
        owner_key="account_id",
        describe=_card_words,
        alike=lambda c: "card",
        tell="last4",
        labels={"card_id": "card number"},
    ),
    Entity(
        "transaction",
        "transactions",
        "transaction_id",
        owner="account",
        owner_key="account_id",
        describe=_charge_words,
        alike=lambda t: t["counterparty"],
        tell="date",
        labels={"transaction_id": "transaction reference"},
    ),
    Entity(
        "payee",
        "payees",
        "payee_id",
        owner="customer",
        owner_key="customer_id",
        describe=lambda p, w, precise: f"my {p['relation']} {p['name']}",
        alike=lambda p: p["name"],
        tell="bank",
    ),
)


def _aid(draw: Draw) -> dict[str, Any]:
    return {"account_id": draw["account"]["account_id"]}


def _checking(draw: Draw) -> bool:
    return draw["account"]["type"] == "checking"


def _history(draw: Draw, kind: str) -> list[Record]:
    aid = draw["account"]["account_id"]
    found = draw.world["transactions"].values()
    return [t for t in found if t["account_id"] == aid and t["type"] == kind]


def _others(draw: Draw) -> list[Record]:
    """The caller's accounts other than the drawn one."""
    aid, cid = draw["account"]["account_id"], draw["customer"]["customer_id"]
    found = draw.world["accounts"].values()
    return [a for a in found if a["customer_id"] == cid and a["account_id"] != aid]


def _sum(draw: Draw) -> dict[str, Any]:
    """An amount for a transfer: mostly within the balance, sometimes above it or the tier's
    daily limit to payees (the refusals' cases)."""
    balance = to_cents(draw["account"]["balance"])
    top = max(2_000, balance * 6 // 5)
    if draw.rng.random() < 0.2:
        top = rules.TIERS[draw["customer"]["tier"]].external_daily_limit + 300_000
    cents = draw.rng.randint(2_000, top)
    cents = max(2_000, cents - cents % 100) if draw.rng.random() < 0.5 else cents
    other = draw.rng.choice(_others(draw) or [draw["account"]])
    return {"cents": cents, "sum": usd(cents), "other": other["type"], "to": other}


def _send(destination: str) -> Any:
    def args(draw: Draw) -> dict[str, Any]:
        target = draw.extra["to"]["account_id"] if destination == "other" else destination
        if destination == "payee":
            target = draw["payee"]["payee_id"]
        return {
            "from_account_id": draw["account"]["account_id"],
            "destination_id": target,
            "amount": draw.extra["cents"] / 100,
        }

    return args


def _two_purchases(draw: Draw) -> dict[str, Any]:
    first, second = draw.rng.sample(_history(draw, "card_purchase"), 2)
    amounts = [money(-to_cents(t["amount"])) for t in (first, second)]
    return {"a": first["counterparty"], "b": second["counterparty"], "expr": " + ".join(amounts)}


def _combined(draw: Draw) -> dict[str, Any]:
    savings = next(a for a in _others(draw) if a["type"] == "savings")
    return {"expr": f"{draw['account']['balance']:.2f} + {savings['balance']:.2f}"}


def _left(draw: Draw) -> dict[str, Any]:
    balance = to_cents(draw["account"]["balance"])
    cents = draw.rng.randint(2_000, balance // 2)
    fee = rules.external_fee(draw["customer"]["tier"], cents)
    expr = f"{money(balance)} - {money(cents)} - {money(fee)}"
    return {"cents": cents, "sum": usd(cents), "expr": expr}


def _quote(draw: Draw) -> dict[str, Any]:
    cents = draw.extra["cents"]
    return {**_aid(draw), "service": "external_transfer", "amount": cents / 100}


def _new_limit(draw: Draw) -> dict[str, Any]:
    limit = draw.rng.choice([n for n in LIMITS if n != draw["card"]["daily_limit"]])
    return {"new": limit, "limit": LIMITS[limit]}


def _latest_deposit(rows: list[Record]) -> dict[str, Any]:
    found = next(t for t in rows if t["type"] == "deposit")
    return {f"deposit_{k}": found[k] for k in ("date", "amount", "counterparty")}


GOALS = (
    Goal(
        "balance",
        "get_account_details",
        ("account",),
        _aid,
        words=(
            "what the balance of {account} is",
            "how much money is in {account}",
            "what {account} holds right now",
            "where {account} stands at the moment",
            "how much I've got left in {account}",
            "the current balance of {account}",
        ),
        done="{account} ({account_id}) has a balance of {balance} USD.",
        report=("balance",),
        motives=CURIOUS,
    ),
    Goal(
        "deposit",
        "list_recent_transactions",
        ("account",),
        _aid,
        words=(
            "when the last deposit landed in {account} and how much it was",
            "what the most recent deposit into {account} was",
            "the date and amount of the latest deposit to {account}",
            "what came into {account} most recently, and when",
        ),
        done="The last deposit into {account} was {deposit_amount} USD from "
        "{deposit_counterparty}, on {deposit_date}.",
        report=("deposit_date", "deposit_amount"),
        when=lambda d: bool(_history(d, "deposit")),
        derive=_latest_deposit,
        motives=(
            "My employer says they paid me.",
            "I'm checking whether my pay came through.",
            "I deposited a cheque last month.",
            "I'm waiting on a refund.",
            "My landlord says my deposit was returned.",
            "I sold something online.",
        ),
        weight=2,
    ),
    Goal(
        "transfer_fee",
        "get_fee_quote",
        ("account",),
        _quote,
        words=(
            "how much the bank would charge me to send {sum} to a payee from {account}",
            "what fee I'd pay on an external transfer of {sum} from {account}",
            "the fee for sending {sum} from {account} to someone at another bank",
            "what it costs to wire {sum} out of {account} to another bank",
            "how big the fee on a {sum} payment from {account} to a payee would be",
        ),
        done="As a {tier} customer you would pay a fee of {fee} USD on that transfer.",
        report=("fee",),
        when=_checking,
        extra=lambda d: (lambda c: {"cents": c, "sum": usd(c)})(d.rng.randint(50, 3000) * 100),
        motives=(
            "I'm not sending anything yet, just asking.",
            "I'm comparing costs with my old bank.",
            "I need to pay a contractor soon.",
            "My daughter needs money for college.",
            "I'm paying a deposit on a flat.",
            "I want to send money to my parents.",
            "I'm buying a second-hand piano.",
            "Fees at my old bank were awful.",
        ),
        weight=2,
    ),
    Goal(
        "card_fee",
        "get_fee_quote",
        ("customer", "account"),
        lambda d: {**_aid(d), "service": d.extra["service"]},
        words=(
            "how much a replacement debit card with {delivery} delivery would cost me",
            "what a new card would cost, with {delivery} shipping",
            "the fee for replacing my card, {delivery} delivery",
            "what I'd pay for a new debit card sent by {delivery} post",
            "the price of a replacement card with {delivery} shipping",
        ),
        done="As a {tier} customer the fee would be {fee} USD.",
        report=("fee",),
        when=_checking,
        extra=lambda d: (
            {"delivery": "expedited", "service": "card_replacement_expedited"}
            if d.rng.random() < 0.5
            else {"delivery": "standard", "service": "card_replacement"}
        ),
        motives=(
            "My card is getting worn out.",
            "The chip on my card is flaky.",
            "I might have lost my wallet.",
            "I'm just curious.",
            "My dog chewed my card.",
            "The magnetic strip stopped working.",
            "My name changed after I got married.",
            "The card keeps failing at the petrol pump.",
        ),
        weight=2,
    ),
    Goal(
        "spending",
        "calculate",
        ("customer", "account"),
        lambda d: {"expression": d.extra["expr"]},
        words=(
            "how much I spent at {a} and {b} altogether",
            "what my {a} and {b} purchases add up to",
            "the total of my card payments to {a} and {b}",
        ),
        done="Your purchases at {a} and {b} add up to {result} USD.",
        report=("result",),
        before=(("list_recent_transactions", _aid),),
        when=lambda d: _checking(d) and len(_history(d, "card_purchase")) >= 2,
        extra=_two_purchases,
        motives=CURIOUS,
        weight=2,
    ),
    Goal(
        "combined",
        "calculate",
        ("customer", "account"),
        lambda d: {"expression": d.extra["expr"]},
        words=(
            "how much I have in total across my checking and savings",
            "what my checking and savings add up to together",
            "the combined balance of my checking and savings accounts",
            "how much money I hold with you altogether, checking and savings together",
            "what my two accounts, checking and savings, come to in total",
        ),
        done="Together your checking and savings accounts hold {result} USD.",
        report=("result",),
        when=lambda d: _checking(d) and any(a["type"] == "savings" for a in _others(d)),
        extra=_combined,
        motives=CURIOUS,
        weight=2,
    ),
    Goal(
        "left_after",
        "calculate",
        ("customer", "payee", "account"),
        lambda d: {"expression": d.extra["expr"]},
        words=(
            "how much would be left in {account} if I paid {payee} {sum}",
            "what {account} would hold after sending {payee} {sum}, fee included",
            "whether I can afford to pay {payee} {sum} from {account} and what would remain",
        ),
        done="The fee would be {fee} USD, so {account} would hold {result} USD after the payment.",
        report=("fee", "result"),
        before=(("get_fee_quote", _quote),),
        when=lambda d: (
            _checking(d) and d["account"]["balance"] > 100 and d["account"]["status"] == "open"
        ),
        extra=_left,
        motives=("I'm not sending it yet.", "I want to avoid going short.", "Money is tight."),
        weight=2,
    ),
    Goal(
        "block",
        "block_card",
        CARD,
        lambda d: {"card_id": d["card"]["card_id"], "reason": d.extra["reason"]},
        words=(
            "block {card}, it was {what}",
            "put a block on {card} because it was {what}",
            "stop {card} from working, it was {what}",
            "freeze {card} right away, it was {what}",
        ),
        done="{card} is now blocked ({reason}).",
        check=rules.check_block,
        extra=lambda d: dict(zip(("reason", "what"), d.rng.choice(LOSSES), strict=True)),
        motives=(
            "I only noticed this morning.",
            "I've checked everywhere.",
            "It happened on the bus.",
            "I don't want a replacement for now.",
            "I'm worried someone will use it.",
            "I was out at a concert last night.",
            "I'm travelling abroad.",
            "My kids were playing with it.",
        ),
        weight=3,
    ),
    Goal(
        "replace",
        "replace_card",
        CARD,
        lambda d: {"card_id": d["card"]["card_id"], "expedited": d.extra["delivery"] != "standard"},
        words=(
            "get a replacement for {card} with {delivery} delivery",
            "order a new card to replace {card}, {delivery} shipping",
            "replace {card}, with {delivery} delivery",
            "have a new card sent in place of {card} by {delivery} post",
            "issue a fresh card for {card}, {delivery} delivery",
        ),
        done="Replacement card {new_card_id} (ending in {last4}) is on its way; the fee of {fee} "
        "USD was charged to your account.",
        report=("new_card_id", "fee"),
        check=rules.check_replace,
        extra=lambda d: {"delivery": d.rng.choice(("standard", "expedited"))},
        refuses=(rules.NotBlocked,),
        motives=(
            "I blocked it last week.",
            "I need a card for my trip.",
            "My shopping is piling up.",
            "I can't pay for anything online.",
            "My rent payment is coming up.",
            "I found my old one broken in the drawer.",
            "I've been using cash all week.",
        ),
    ),
    Goal(
        "limit",
        "update_daily_limit",
        CARD,
        lambda d: {"card_id": d["card"]["card_id"], "new_limit": d.extra["new"]},
        words=(
            "raise the daily limit on {card} to {limit}",
            "change the daily spending limit of {card} to {limit}",
            "let me spend up to {limit} a day with {card}",
            "set the daily cap on {card} at {limit}",
            "change what I can spend per day on {card} to {limit}",
            "make the daily limit of {card} {limit}",
        ),
        done="The daily limit of {card} is now {daily_limit} USD (it was {previous_daily_limit}).",
        check=rules.check_limit,
        extra=_new_limit,
        motives=(
            "I'm buying furniture this weekend.",
            "I keep getting declined at the till.",
            "I'm paying for a wedding venue.",
            "I'm travelling next week.",
            "I'm buying a used car.",
            "I'm paying a builder in instalments.",
            "I'd like more control over my spending.",
            "My daughter borrows my card.",
            "I'm hosting a big party.",
            "I'm moving house.",
        ),
    ),
    Goal(
        "move",
        "transfer_funds",
        ("customer", "account"),
        _send("other"),
        words=(
            "move {sum} from {account} to my {other} account",
            "transfer {sum} from {account} into my {other} account",
            "put {sum} from {account} into my {other}",
            "top up my {other} account with {sum} from {account}",
            "shift {sum} across from {account} to my {other} account",
        ),
        done="Done: {amount} USD moved; {account} now holds {from_account_balance} USD and your "
        "{other} account {to_account_balance} USD.",
        report=("from_account_balance", "to_account_balance"),
        check=rules.check_transfer,
        when=lambda d: bool(_others(d)),
        extra=_sum,
        refuses=(rules.InsufficientFunds, rules.Frozen),
        motives=(
            "I have a big bill coming up.",
            "I'm trying to save a bit more each month.",
            "My rent is due.",
            "I got a bonus.",
            "I'm putting money aside for a holiday.",
            "My car insurance is due.",
            "I want to keep my savings separate.",
            "My pay just came in.",
            "I'm covering a large grocery bill.",
            "I overspent a bit this month.",
        ),
    ),
    Goal(
        "pay",
        "transfer_funds",
        ("customer", "payee", "account"),
        _send("payee"),
        words=(
            "send {sum} to {payee} from {account}",
            "pay {payee} {sum} out of {account}",
            "transfer {sum} to {payee} from {account}",
            "get {sum} over to {payee} from {account} today",
            "settle {sum} with {payee} from {account}",
        ),
        done="I sent {amount} USD to {payee}. The fee was {fee} USD and {account} now holds "
        "{from_account_balance} USD.",
        report=("fee", "from_account_balance"),
        check=rules.check_transfer,
        when=_checking,
        extra=_sum,
        motives=(
            "I owe them for last month.",
            "It's due today.",
            "It's for the repairs they did.",
            "I promised to pay them back.",
            "It's a birthday present.",
            "The invoice came yesterday.",
            "We split a holiday.",
            "I'm behind on it.",
            "They reminded me twice.",
            "It's my share of the bills.",
        ),
        weight=4,
    ),
    Goal(
        "dispute",
        "dispute_transaction",
        ("customer", "account", "transaction"),
        lambda d: {"transaction_id": d["transaction"]["transaction_id"], "reason": d.extra["r"]},
        words=(
            "dispute {transaction} because {why}",
            "open a dispute on {transaction}: {why}",
            "contest {transaction}, as {why}",
        ),
        done="I opened dispute {dispute_id} on {transaction}; the provisional credit is "
        "{provisional_credit} USD and the account holds {account_balance} USD.",
        report=("dispute_id",),
        check=rules.check_dispute,
        when=lambda d: d["transaction"]["type"] == "card_purchase",
        extra=lambda d: dict(zip(("r", "why"), d.rng.choice(WHY), strict=True)),
        motives=(
            "I only just went through my statements.",
            "The shop won't answer my emails.",
            "I'm quite upset about it.",
            "A friend said you could help.",
            "I've been charged before by them.",
            "I returned the item weeks ago.",
        ),
        weight=4,
    ),
    Goal(
        "close",
        "close_account",
        ("customer", "account"),
        _aid,
        words=(
            "close {account}, it's empty now",
            "shut {account} for good",
            "close down {account}",
            "get rid of {account}, there's nothing left in it",
        ),
        done="{account} is closed; {account_id} can no longer be used.",
        when=lambda d: d["account"]["status"] == "open" and d["account"]["balance"] == 0,
        refuses=(),
        motives=(
            "I never use it any more.",
            "I'm simplifying my finances.",
            "I opened it for a trip that's over.",
            "I'm moving my savings elsewhere.",
            "Too many accounts confuse me.",
        ),
        weight=1,
    ),
    Goal(
        "unfreeze",
        "transfer_to_human_agents",
        ("account",),
        lambda d: {
            "summary": f"Customer {d['account']['customer_id']} needs {d['account']['type']} "
            f"account {d['account']['account_id']} unfrozen: it is frozen."
        },
        words=(
            "find out why I can't move money out of {account}, and fix it",
            "get {account} working again, every transfer from it fails",
            "sort out {account}, it keeps refusing payments",
            "unblock {account}, nothing goes through",
            "work out what's wrong with {account}, I can't use it",
        ),
        done="{account} ({account[account_id]}) is frozen, and I'm not able to unfreeze accounts, "
        "so I have transferred you to a human agent.",
        report=(),  # a hand-off: judged on its look-up, not on the caller's own account id
        when=lambda d: d["account"]["status"] == "frozen",
        motives=(
            "It's been like this for two days.",
            "My bills are bouncing.",
            "My salary is stuck in there.",
            "I got a letter I didn't understand.",
            "The app shows a red warning.",
            "I need to pay my rent tomorrow.",
        ),
        weight=2,
    ),
)


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
    motives = (
        "You're simplifying your finances.",
        "You never use that account any more.",
        "You're switching to another bank for savings.",
        "You need all your money in one place.",
        "The interest rate is too low.",
        "You're buying a house.",
        "Your adviser told you to.",
    )
    left = money(to_cents(savings["balance"]))
    return Draft(
        Request(
            goals,
            known=known,
            reason=you(f"{rng.choice(motives)} You want to {rng.choice(goals)}."),
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
    return Draft(
        Request(
            goals,
            known=known,
            conditions=(condition,),
            reason=you(f"You want to {rng.choice(goals)}. {condition}"),
        ),
        run.actions,
        message,
        facts,
        writes=True,
    )


class BankDomain(StatefulDomain):
    """A retail bank's customer service: one bank of about 1,700 records per run seed."""

    name = "bank"
    version = "4.1"
    toolkit = BankTools
    rules = rules
    entities = ENTITIES
    goals = GOALS
    handmade: ClassVar[dict[str, tuple[Template, int]]] = {
        "close_savings": (close_savings, 2),
        "dispute_or_block": (dispute_or_block, 3),
    }

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return build_world(rng)
