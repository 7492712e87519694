"""The bank's goals that change nothing: balances, deposits, fees, spending, what is left."""

from __future__ import annotations

from typing import Any

from domains.bank.draws import (
    _aid,
    _checking,
    _combined,
    _history,
    _latest_deposit,
    _left,
    _others,
    _quote,
    _two_purchases,
)
from domains.bank.entities import CURIOUS, usd
from toolscale.kit import Goal

Record = dict[str, Any]


QUESTIONS = (
    Goal(
        "balance",
        "get_account_details",
        ("account",),
        _aid,
        words="what the balance of {account} is | how much money is in {account} | what "
        "{account} holds right now | where {account} stands at the moment | how much I've "
        "got left in {account} | the current balance of {account}",
        done="{account} ({account_id}) has a balance of {balance} USD.",
        motives=CURIOUS,
    ),
    Goal(
        "deposit",
        "list_recent_transactions",
        ("account",),
        _aid,
        words="when the last deposit landed in {account} and how much it was | what the most "
        "recent deposit into {account} was | the date and amount of the latest deposit to "
        "{account} | what came into {account} most recently, and when",
        done="The last deposit into {account} was {deposit_amount} USD from "
        "{deposit_counterparty}, on {deposit_date}.",
        report=("deposit_date", "deposit_amount"),
        when=lambda d: bool(_history(d, "deposit")),
        derive=_latest_deposit,
        motives="My employer says they paid me. | I want to see whether my pay came through. | I "
        "deposited a cheque last month. | I'm waiting on a refund. | My landlord says my "
        "deposit was returned. | I sold something online.",
        weight=2,
    ),
    Goal(
        "transfer_fee",
        "get_fee_quote",
        ("account",),
        _quote,
        words="how much the bank would charge me to send {sum} to a payee from {account} | what "
        "fee I'd pay on an external transfer of {sum} from {account} | the fee for "
        "sending {sum} from {account} to someone at another bank | what it costs to wire "
        "{sum} out of {account} to another bank | how big the fee on a {sum} payment from "
        "{account} to a payee would be",
        done="As a {tier} customer you would pay a fee of {fee} USD on that transfer.",
        report=("fee",),
        when=_checking,
        extra=lambda d: (lambda c: {"cents": c, "sum": usd(c)})(d.rng.randint(50, 3000) * 100),
        motives="I'm not sending anything yet, just asking. | I'm comparing costs with my old "
        "bank. | I need to pay a contractor soon. | My daughter needs money for college. | "
        "I'm paying a deposit on a flat. | I want to send money to my parents. | I'm "
        "buying a second-hand piano. | Fees at my old bank were awful.",
        weight=2,
    ),
    Goal(
        "card_fee",
        "get_fee_quote",
        ("customer", "account"),
        lambda d: {**_aid(d), "service": d.extra["service"]},
        words="how much a replacement debit card with {delivery} delivery would cost me | what "
        "a new card would cost, with {delivery} shipping | the fee for replacing my card, "
        "{delivery} delivery | what I'd pay for a new debit card sent by {delivery} post | "
        "the price of a replacement card with {delivery} shipping",
        done="As a {tier} customer the fee would be {fee} USD.",
        report=("fee",),
        when=_checking,
        extra=lambda d: (
            {"delivery": "expedited", "service": "card_replacement_expedited"}
            if d.rng.random() < 0.5
            else {"delivery": "standard", "service": "card_replacement"}
        ),
        motives="My card is getting worn out. | The chip on my card is flaky. | I might have lost "
        "my wallet. | I'm just curious. | My dog chewed my card. | The magnetic strip "
        "stopped working. | My name changed after I got married. | The card keeps failing "
        "at the petrol pump.",
        weight=2,
    ),
    Goal(
        "spending",
        "calculate",
        ("customer", "account"),
        lambda d: {"expression": d.extra["expr"]},
        words="how much I spent at {a} and {b} altogether | what my {a} and {b} purchases add "
        "up to | the total of my card payments to {a} and {b}",
        done="Your purchases at {a} and {b} add up to {result} USD.",
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
        words="how much I have in total across my checking and savings | what my checking and "
        "savings add up to together | the combined balance of my checking and savings "
        "accounts | how much money I hold with you altogether, checking and savings "
        "together | what my two accounts, checking and savings, come to in total",
        done="Together your checking and savings accounts hold {result} USD.",
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
        words="how much would be left in {account} if I paid {payee} {sum} | what {account} "
        "would hold after sending {payee} {sum}, fee included | whether I can afford to "
        "pay {payee} {sum} from {account} and what would remain",
        done="The fee would be {fee} USD, so {account} would hold {result} USD after the payment.",
        report=("fee", "result"),
        before=(("get_fee_quote", _quote),),
        when=lambda d: (
            _checking(d) and d["account"]["balance"] > 100 and d["account"]["status"] == "open"
        ),
        extra=_left,
        motives="I'm not sending it yet. | I want to avoid going short. | Money is tight.",
        weight=2,
    ),
)
