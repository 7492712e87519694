"""Formulas a domain computes amounts by, declared once: its policy text, its tools and the
judge's figures check read the same object.

A `Rate` is a fee or share of an amount: a flat part plus basis points of it (rounded half up to
the cent), at most a cap. A domain's rules make its fees with `Rate.of`, write its policy line
with `Rate.text`, and list its rates in the domain's `formulas`, so that an agent that tells the
caller "2.50 + 1% of 251.00 is 5.01" states amounts the judge finds backed
(`toolscale.judge.figures`: what a formula makes of a shown amount, and that amount with it
added or taken off). Amounts are integer cents.
"""

from __future__ import annotations

from dataclasses import dataclass


def _money(cents: int) -> str:
    whole, part = divmod(cents, 100)
    return f"{whole}.{part:02d}"


@dataclass(frozen=True)
class Rate:
    """`flat` cents plus `basis_points` of an amount (1% is 100), at most `cap` cents."""

    name: str
    basis_points: int
    flat: int = 0
    cap: int | None = None

    def share(self, cents: int) -> int:
        """The percentage part of the fee on `cents`, rounded half up to the cent:
        Rate("fee", 100).share(25100) == 251."""
        return (cents * self.basis_points + 5000) // 10000

    def of(self, cents: int) -> int:
        """The fee on `cents`: Rate("fee", 100, 250, 2500).of(25100) == 501 (2.50 + 2.51)."""
        fee = self.flat + self.share(cents)
        return fee if self.cap is None else min(fee, self.cap)

    def amounts(self, cents: int) -> tuple[int, ...]:
        """What the rate makes of `cents`: its share and its fee (the judge's `Formula`)."""
        return (self.share(cents), self.of(cents))

    def text(self) -> str:
        """The rate as the policy states it: "2.50 + 1% of the amount, at most 25.00", "1% of
        the amount", or "free"."""
        if not (self.flat or self.basis_points):
            return "free"
        share = f"{self.basis_points / 100:g}% of the amount"
        text = f"{_money(self.flat)} + {share}" if self.flat else share
        return text if self.cap is None else f"{text}, at most {_money(self.cap)}"
