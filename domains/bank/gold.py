"""Helpers of the bank templates: play gold actions on a scratch state, pick and prepare a customer.

A template writes its gold path as calls on `GoldPath`; each call runs the real tool on a scratch
copy of the state, so the facts a template reports (new balances, fees, dispute ids) are read from
the very outputs an agent following the path would see.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from domains.bank.rules import to_cents, to_dollars
from domains.bank.state import add_account
from domains.bank.tools import BankTools
from toolscale.contract import Action, Difficulty


class GoldPath:
    """Records gold actions while executing them on a scratch copy of the initial state."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.kit = BankTools(json.loads(json.dumps(state)))
        self.actions: list[Action] = []

    def __call__(self, name: str, **arguments: Any) -> Any:
        """Run tool `name`; return its output, parsed when it is JSON."""
        self.actions.append(Action(name, arguments))
        out = getattr(self.kit, name)(**arguments)
        return json.loads(out) if out.startswith(("[", "{")) else out


@dataclass
class Draft:
    """What a template produces; the sampler turns it into a TaskSpec."""

    instruction: str
    actions: list[Action]
    final_message: str
    facts: list[str]
    alternatives: list[list[Action]] = field(default_factory=list)

    @property
    def difficulty(self) -> Difficulty:
        n = len(self.actions)
        return "easy" if n <= 2 else "medium" if n <= 4 else "hard"


def with_detour(actions: list[Action], at: int, extra: Action) -> list[Action]:
    """An alternative route: the gold actions with one redundant READ call inserted."""
    return [*actions[:at], extra, *actions[at:]]


def usd(cents: int) -> str:
    """How a customer writes an amount: "$1,250" or "$87.40"."""
    whole, part = divmod(cents, 100)
    return f"${whole:,}" if part == 0 else f"${whole:,}.{part:02d}"


def draw_amount(rng: random.Random, low: int, high: int) -> int:
    """An amount in cents within [low, high]: whole dollars half of the time."""
    cents = rng.randint(low, high)
    return max(low, cents - cents % 100) if rng.random() < 0.5 else cents


@dataclass
class Holder:
    """The customer a task is about, with their checking account, its card, and savings."""

    customer: dict[str, Any]
    checking: dict[str, Any]
    card: dict[str, Any]
    savings: dict[str, Any] | None

    @property
    def savings_account(self) -> dict[str, Any]:
        """The savings account, for holders picked with `savings=True`."""
        if self.savings is None:
            raise LookupError("this holder was picked without a savings account")
        return self.savings

    @property
    def hello_email(self) -> str:
        return f"Hi, this is {self.customer['name']}, my email is {self.customer['email']}."

    @property
    def hello_id(self) -> str:
        return f"Hi, I'm {self.customer['name']}, customer id {self.customer['customer_id']}."


def pick_holder(state: dict[str, Any], rng: random.Random, *, savings: bool = False) -> Holder:
    """Pick the task's customer and make the accounts the task needs usable: the checking account
    open with an active card, and (when `savings`) an open savings account."""
    customer = rng.choice(list(state["customers"].values()))
    cid = customer["customer_id"]
    mine = [a for a in state["accounts"].values() if a["customer_id"] == cid]
    checking = next(a for a in mine if a["type"] == "checking")
    checking["status"] = "open"
    card = next(c for c in state["cards"].values() if c["account_id"] == checking["account_id"])
    card["status"] = "active"
    saving = next((a for a in mine if a["type"] == "savings"), None)
    if savings:
        if saving is None:
            saving = add_account(state, rng, customer, "savings")
        saving["status"] = "open"
    return Holder(customer, checking, card, saving)


def ensure_balance(account: dict[str, Any], cents: int, rng: random.Random) -> None:
    """Raise the account's balance, if needed, so that it holds at least `cents`."""
    if to_cents(account["balance"]) < cents:
        account["balance"] = to_dollars(cents + rng.randint(0, 80_000))
