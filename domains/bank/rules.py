"""The bank policy as code: its numbers (policy.md is rendered from them), one `PolicyError` per
rule, and the checks the tools and the composer share (pure: they never change the state).

Amounts are integer cents inside this module; the state keeps dollars as floats with two
decimals, and tool outputs show them as text with two decimals ("45.50").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import lookup, rule
from toolscale.kit.formulas import Rate
from toolscale.tools.bounds import number, quoted

TODAY = date(2025, 6, 16)
DISPUTE_WINDOW_DAYS = 60
DISPUTE_CUTOFF = TODAY - timedelta(days=DISPUTE_WINDOW_DAYS)
CARD_LIMIT_MIN = 100
CARD_LIMIT_STEP = 50
MAX_AMOUNT = 1_000_000_000  # dollars: far above any balance, far below a float's overflow

Record = dict[str, Any]


@dataclass(frozen=True)
class Tier:
    """What one customer tier pays and may do. Money in cents, card limits in whole dollars."""

    external: Rate  # the fee on an external transfer (a declared formula)
    external_daily_limit: int
    replacement_fee: int
    expedited_surcharge: int
    card_limit_max: int
    provisional_credit: bool


TIERS: dict[str, Tier] = {
    "standard": Tier(
        Rate("standard external transfer fee", 100, 250, 2500), 250_000, 1000, 1500, 1500, False
    ),
    "gold": Tier(Rate("gold external transfer fee", 50, 100, 1000), 750_000, 500, 1500, 3000, True),
    "platinum": Tier(Rate("platinum external transfer fee", 0, 0, 0), 1_500_000, 0, 0, 5000, True),
}
FORMULAS = tuple(tier.external for tier in TIERS.values())  # the domain's declared formulas


def money(cents: int) -> str:
    """Cents as text with exactly two decimals, e.g. 4550 -> "45.50", -705 -> "-7.05"."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def _tier_table() -> str:
    rows = {
        "External transfer fee": lambda t: t.external.text(),
        "External transfers per account per day": lambda t: money(t.external_daily_limit),
        "Replacement card": lambda t: money(t.replacement_fee) if t.replacement_fee else "free",
        "Expedited delivery of a replacement card": lambda t: (
            f"+{money(t.expedited_surcharge)}" if t.expedited_surcharge else "free"
        ),
        "Maximum card daily limit": lambda t: str(t.card_limit_max),
        "Provisional credit when a dispute is opened": lambda t: (
            "yes" if t.provisional_credit else "no"
        ),
    }
    lines = ["| | " + " | ".join(TIERS) + " |", "|---" * (len(TIERS) + 1) + "|"]
    lines += [f"| {k} | " + " | ".join(map(f, TIERS.values())) + " |" for k, f in rows.items()]
    return "\n".join(lines)


TIER_TABLE = _tier_table()


Frozen = rule("Frozen", handoff=True)
InsufficientFunds = rule("InsufficientFunds")
OverDailyLimit = rule("OverDailyLimit")
CardNotActive = rule("CardNotActive")
NotBlocked = rule("NotBlocked")
LimitTooHigh = rule("LimitTooHigh")
TooOld = rule("TooOld")


def external_fee(tier: str, amount: int) -> int:
    """The fee in cents for sending `amount` cents to an external payee: flat part plus a
    percentage rounded half up to the cent, capped."""
    return TIERS[tier].external.of(amount)


def replacement_fee(tier: str, expedited: bool) -> int:
    """The fee in cents for a replacement card, with the expedited surcharge when asked."""
    rule = TIERS[tier]
    return rule.replacement_fee + (rule.expedited_surcharge if expedited else 0)


def to_cents(dollars: float) -> int:
    return round(dollars * 100)


def to_dollars(cents: int) -> float:
    return cents / 100


def tier_of(state: Record, account: Record) -> str:
    return state["customers"][account["customer_id"]]["tier"]


def sent_today(state: Record, account_id: str) -> int:
    """Cents sent to external payees from the account today (fees not counted)."""
    return -sum(
        to_cents(t["amount"])
        for t in state["transactions"].values()
        if t["account_id"] == account_id
        and t["type"] == "external_transfer"
        and t["date"] == state["today"]
    )


def parse_amount(value: float) -> int:
    """Dollars as integer cents: a positive finite amount of at most MAX_AMOUNT, 2 decimals."""
    number(value, "amount", low=0.01, high=MAX_AMOUNT, unit="USD")
    cents = to_cents(value)
    if cents <= 0 or abs(value * 100 - cents) > 1e-6:
        raise ToolError(f"invalid amount {value!r}: give a positive amount with at most 2 decimals")
    return cents


def open_account(state: Record, account_id: str) -> Record:
    account = lookup(state, "accounts", account_id, "account")
    Frozen.raise_if(
        account["status"] == "frozen",
        f"account {account_id} is frozen, and only our human agents can unfreeze it",
        "frozen",
    )
    if account["status"] not in ("open", "frozen"):  # a frozen one broke the rule above
        raise ToolError(f"account {account_id} is {account['status']}")
    return account


def _funds(account: Record, cents: int, what: str) -> None:
    """Raises InsufficientFunds unless `account` holds `cents`, which `what` says in words a
    caller can check ("250.00 plus its transfer fee"): a total no record shows (an amount plus
    a fee the policy computes) is never stated, so an agent repeating the reason states only
    figures it was shown."""
    InsufficientFunds.raise_if(
        to_cents(account["balance"]) < cents,
        f"insufficient funds: account {account['account_id']} holds "
        f"{money(to_cents(account['balance']))}, less than {what}",
        money(to_cents(account["balance"])),
    )


def check_transfer(
    state: Record, from_account_id: str, destination_id: str, amount: float
) -> dict[str, Any]:
    """The transfer's cents, fee, source and target account (None for a payee) and the
    counterparty's name; raises the rule it breaks."""
    cents = parse_amount(amount)
    source = open_account(state, from_account_id)
    owner = source["customer_id"]
    target: Record | None = None
    if destination_id.startswith("ACC-"):
        target = open_account(state, destination_id)
        if target["customer_id"] != owner or destination_id == from_account_id:
            raise ToolError("internal transfers go to a different account of the same customer")
        fee, counterparty = 0, destination_id
    elif destination_id.startswith("PAY-"):
        payee = lookup(state, "payees", destination_id, "payee")
        if payee["customer_id"] != owner:
            raise ToolError(f"payee {destination_id} does not belong to the account's owner")
        tier = tier_of(state, source)
        limit = TIERS[tier].external_daily_limit
        OverDailyLimit.raise_if(
            sent_today(state, from_account_id) + cents > limit,
            f"daily external transfer limit of {money(limit)} would be exceeded (the "
            f"{tier} tier's limit per account)",
            tier,
        )
        fee, counterparty = external_fee(tier, cents), payee["name"]
    else:
        raise ToolError(f"destination {quoted(destination_id)} is neither an account nor a payee")
    _funds(source, cents + fee, f"{money(cents)} plus its transfer fee" if fee else money(cents))
    return {"cents": cents, "fee": fee, "source": source, "target": target, "to": counterparty}


def active_card(state: Record, card_id: str) -> Record:
    card = lookup(state, "cards", card_id, "card")
    CardNotActive.raise_if(
        card["status"] != "active", f"card {card_id} is {card['status']}, not active", card_id
    )
    return card


def check_block(state: Record, card_id: str, reason: str) -> Record:
    return active_card(state, card_id)


def check_replace(state: Record, card_id: str, expedited: bool = False) -> tuple[Record, int]:
    """The card's account and the replacement fee in cents."""
    card = lookup(state, "cards", card_id, "card")
    NotBlocked.raise_if(
        card["status"] != "blocked",
        f"card {card_id} is {card['status']}; only a blocked card is replaced",
        card["status"],
    )
    account = open_account(state, card["account_id"])
    fee = replacement_fee(tier_of(state, account), expedited)
    _funds(account, fee, f"the {money(fee)} replacement fee")
    return account, fee


def check_limit(state: Record, card_id: str, new_limit: int) -> Record:
    card = active_card(state, card_id)
    account = open_account(state, card["account_id"])
    tier = tier_of(state, account)
    top = TIERS[tier].card_limit_max
    bounds = f"the daily limit must be between {CARD_LIMIT_MIN} and {top}"
    if new_limit != int(new_limit) or new_limit < CARD_LIMIT_MIN:
        raise ToolError(bounds)
    LimitTooHigh.raise_if(new_limit > top, f"{bounds} for the {tier} tier", tier, card_id)
    if new_limit % CARD_LIMIT_STEP:
        raise ToolError(f"the daily limit must be a multiple of {CARD_LIMIT_STEP}")
    return card


def check_dispute(state: Record, transaction_id: str, reason: str) -> tuple[Record, Record]:
    """The transaction and its account."""
    txn = lookup(state, "transactions", transaction_id, "transaction")
    if txn["type"] != "card_purchase" or txn["status"] != "posted":
        raise ToolError("only a posted card purchase can be disputed")
    TooOld.raise_if(
        txn["date"] < DISPUTE_CUTOFF.isoformat(),
        f"transaction dated {txn['date']} is older than {DISPUTE_WINDOW_DAYS} days",
        txn["date"],
    )
    account = lookup(state, "accounts", txn["account_id"], "account")
    if account["status"] == "closed":
        raise ToolError(f"account {account['account_id']} is closed")
    return txn, account


def check_close(state: Record, account_id: str) -> Record:
    account = open_account(state, account_id)
    if to_cents(account["balance"]) != 0:
        raise ToolError(
            f"account {account_id} has a balance of {money(to_cents(account['balance']))}; "
            "it must be 0.00 before it can be closed"
        )
    return account
