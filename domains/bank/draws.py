"""What the bank's goals read from a draw: the caller's accounts, history and arguments."""

from __future__ import annotations

from typing import Any

from domains.bank import rules
from domains.bank.entities import LIMITS, usd
from domains.bank.rules import money, to_cents
from toolscale.kit import Draw

Record = dict[str, Any]


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
