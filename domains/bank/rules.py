"""The bank's policy numbers (fees, limits, dispute window) and the money arithmetic, in cents.

Tools, the sampler and policy.md all read these numbers from here, so a fee the policy states is
the fee a tool charges. Amounts are integer cents inside this module; the state keeps dollars as
floats with two decimals, and tool outputs show them as text with two decimals ("45.50").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

TODAY = date(2025, 6, 16)
DISPUTE_WINDOW_DAYS = 60
DISPUTE_CUTOFF = TODAY - timedelta(days=DISPUTE_WINDOW_DAYS)
CARD_LIMIT_MIN = 100
CARD_LIMIT_STEP = 50


@dataclass(frozen=True)
class Tier:
    """What one customer tier pays and may do. Money in cents, card limits in whole dollars."""

    external_flat: int
    external_basis_points: int
    external_cap: int
    external_daily_limit: int
    replacement_fee: int
    expedited_surcharge: int
    card_limit_max: int
    provisional_credit: bool


TIERS: dict[str, Tier] = {
    "standard": Tier(250, 100, 2500, 250_000, 1000, 1500, 1500, False),
    "gold": Tier(100, 50, 1000, 750_000, 500, 1500, 3000, True),
    "platinum": Tier(0, 0, 0, 1_500_000, 0, 0, 5000, True),
}


def external_fee(tier: str, amount: int) -> int:
    """The fee in cents for sending `amount` cents to an external payee: flat part plus a
    percentage rounded half up to the cent, capped."""
    rule = TIERS[tier]
    fee = rule.external_flat + (amount * rule.external_basis_points + 5000) // 10000
    return min(fee, rule.external_cap)


def replacement_fee(tier: str, expedited: bool) -> int:
    """The fee in cents for a replacement card, with the expedited surcharge when asked."""
    rule = TIERS[tier]
    return rule.replacement_fee + (rule.expedited_surcharge if expedited else 0)


def to_cents(dollars: float) -> int:
    return round(dollars * 100)


def to_dollars(cents: int) -> float:
    return cents / 100


def money(cents: int) -> str:
    """Cents as text with exactly two decimals, e.g. 4550 -> "45.50", -705 -> "-7.05"."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"
