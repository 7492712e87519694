"""The bank's goals that change something: block or replace a card, limits, transfers, disputes."""

from __future__ import annotations

from typing import Any

from domains.bank import rules
from domains.bank.draws import _aid, _checking, _new_limit, _others, _send, _sum
from domains.bank.entities import (
    BLOCK_MOTIVES,
    CARD,
    DISPUTE_MOTIVES,
    LOSSES,
    PAY_MOTIVES,
    PAYEE_KIND,
    WHY,
)
from toolscale.kit import Goal

Record = dict[str, Any]


CHANGES = (
    Goal(
        "block",
        "block_card",
        CARD,
        lambda d: {"card_id": d["card"]["card_id"], "reason": d.extra["reason"]},
        words="block {card}, it was {what} | put a block on {card} because it was {what} | stop "
        "{card} from working, it was {what} | freeze {card} right away, it was {what}",
        done="{card} is now blocked ({reason}).",
        check=rules.check_block,
        extra=lambda d: dict(zip(("reason", "what"), d.rng.choice(LOSSES), strict=True)),
        motives=tuple(dict.fromkeys(m for ms in BLOCK_MOTIVES.values() for m in ms)),
        motives_for=lambda d: BLOCK_MOTIVES[d.extra["reason"]],
    ),
    Goal(
        "replace",
        "replace_card",
        CARD,
        lambda d: {"card_id": d["card"]["card_id"], "expedited": d.extra["delivery"] != "standard"},
        words="get a replacement for {card} with {delivery} delivery | order a new card to "
        "replace {card}, {delivery} shipping | replace {card}, with {delivery} delivery | "
        "have a new card sent in place of {card} by {delivery} post | issue a fresh card "
        "for {card}, {delivery} delivery",
        done="Replacement card {new_card_id} (ending in {last4}) is on its way; the fee of {fee} "
        "USD was charged to your account.",
        report=("new_card_id", "fee"),
        check=rules.check_replace,
        extra=lambda d: {"delivery": d.rng.choice(("standard", "expedited"))},
        refuses=(rules.NotBlocked,),
        motives="I blocked it last week. | I need a card for my trip. | My shopping is piling "
        "up. | I can't pay for anything online. | My rent payment is coming up. | I found my "
        "old one broken in the drawer. | I've been using cash all week.",
    ),
    Goal(
        "limit",
        "update_daily_limit",
        CARD,
        lambda d: {"card_id": d["card"]["card_id"], "new_limit": d.extra["new"]},
        words="raise the daily limit on {card} to {limit} | change the daily spending limit of "
        "{card} to {limit} | allow spending of up to {limit} a day on {card} | set the "
        "daily cap on {card} at {limit} | change what I can spend per day on {card} to "
        "{limit} | make the daily limit of {card} {limit}",
        done="The daily limit of {card} is now {daily_limit} USD (it was {previous_daily_limit}).",
        check=rules.check_limit,
        extra=_new_limit,
        motives="I'm buying furniture this weekend. | I keep getting declined at the till. | I'm "
        "paying for a wedding venue. | I'm travelling next week. | I'm buying a used car. | "
        "I'm paying a builder in instalments. | I'd like more control over my spending. | "
        "My daughter borrows my card. | I'm hosting a big party. | I'm moving house.",
    ),
    Goal(
        "move",
        "transfer_funds",
        ("customer", "account"),
        _send("other"),
        words="move {sum} from {account} to my {other} account | transfer {sum} from {account} "
        "into my {other} account | put {sum} from {account} into my {other} | top up my "
        "{other} account with {sum} from {account} | shift {sum} across from {account} to "
        "my {other} account",
        done="Done: {amount} USD moved; {account} now holds {from_account_balance} USD and your "
        "{other} account {to_account_balance} USD.",
        report=("from_account_balance", "to_account_balance"),
        check=rules.check_transfer,
        when=lambda d: bool(_others(d)),
        extra=_sum,
        refuses=(rules.InsufficientFunds, rules.Frozen),
        motives="I have a big bill coming up. | I'm trying to save a bit more each month. | My "
        "rent is due. | I got a bonus. | I'm putting money aside for a holiday. | My car "
        "insurance is due. | I want to keep my savings separate. | My pay just came in. | "
        "I'm covering a large grocery bill. | I overspent a bit this month.",
    ),
    Goal(
        "pay",
        "transfer_funds",
        ("customer", "payee", "account"),
        _send("payee"),
        words="send {sum} to {payee} from {account} | pay {payee} {sum} out of {account} | "
        "transfer {sum} to {payee} from {account} | get {sum} over to {payee} from "
        "{account} today | settle {sum} with {payee} from {account}",
        done="I sent {amount} USD to {payee}. The fee was {fee} USD and {account} now holds "
        "{from_account_balance} USD.",
        report=("fee", "from_account_balance"),
        check=rules.check_transfer,
        when=_checking,
        extra=_sum,
        motives=tuple(dict.fromkeys(m for ms in PAY_MOTIVES.values() for m in ms)),
        motives_for=lambda d: PAY_MOTIVES[PAYEE_KIND.get(d["payee"]["relation"], "person")],
        weight=4,
    ),
    Goal(
        "dispute",
        "dispute_transaction",
        ("customer", "account", "transaction"),
        lambda d: {"transaction_id": d["transaction"]["transaction_id"], "reason": d.extra["r"]},
        words="dispute {transaction} because {why} | open a dispute on {transaction}: {why} | "
        "contest {transaction}, as {why}",
        done="I opened dispute {dispute_id} on {transaction}; the provisional credit is "
        "{provisional_credit} USD and the account holds {account_balance} USD.",
        report=("dispute_id",),
        check=rules.check_dispute,
        when=lambda d: d["transaction"]["type"] == "card_purchase",
        extra=lambda d: dict(zip(("r", "why"), d.rng.choice(WHY), strict=True)),
        motives=tuple(dict.fromkeys(m for ms in DISPUTE_MOTIVES.values() for m in ms)),
        motives_for=lambda d: DISPUTE_MOTIVES[d.extra["r"]],
        weight=4,
    ),
    Goal(
        "close",
        "close_account",
        ("customer", "account"),
        _aid,
        words="close {account}, it's empty now | shut {account} for good | close down {account} | "
        "get rid of {account}, there's nothing left in it",
        done="{account} is closed; {account_id} can no longer be used.",
        when=lambda d: d["account"]["status"] == "open" and d["account"]["balance"] == 0,
        refuses=(),
        motives="I never use it any more. | I'm simplifying my finances. | I opened it for a trip "
        "that's over. | I'm moving my savings elsewhere. | Too many accounts confuse me.",
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
        words="find out why I can't move money out of {account}, and fix it | get {account} "
        "working again, every transfer from it fails | sort out {account}, it keeps "
        "refusing payments | unblock {account}, nothing goes through | work out what's "
        "wrong with {account}, I can't use it",
        done="{account} ({account[account_id]}) is frozen, and I'm not able to unfreeze accounts, "
        "so I have transferred you to a human agent.",
        report=(),  # a hand-off: judged on its look-up, not on the caller's own account id
        when=lambda d: d["account"]["status"] == "frozen",
        motives="It's been like this for two days. | My bills are bouncing. | My salary is stuck "
        "in there. | I got a letter I didn't understand. | The app shows a red warning. | "
        "I need to pay my rent tomorrow.",
        weight=2,
    ),
)
