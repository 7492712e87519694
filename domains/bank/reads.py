"""The bank's READ tools (look-ups and fee quotes) as a Toolkit mixin, and the record helpers.

Nothing here changes the state. Money is stored in dollars with two decimals and shown in tool
outputs as text with exactly two decimals ("45.50").
"""

from __future__ import annotations

import json
from typing import Any, Literal

from domains.bank.rules import external_fee, money, replacement_fee, to_cents
from toolscale.core.contract import ToolError, ToolKind, tool
from toolscale.kit import find_by, lookup
from toolscale.tools.bounds import number
from toolscale.tools.generic import StatefulGenericTools

MAX_AMOUNT = 1_000_000_000  # dollars: far above any balance, far below a float's overflow

Service = Literal[
    "internal_transfer", "external_transfer", "card_replacement", "card_replacement_expedited"
]


def _view(record: dict[str, Any], *money_fields: str) -> dict[str, Any]:
    shown = dict(record)
    for name in money_fields:
        shown[name] = money(to_cents(record[name]))
    return shown


def sent_today(state: dict[str, Any], account_id: str) -> int:
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


class BankReadTools(StatefulGenericTools):
    """Look-ups over `self.state` (see domains.bank.state), plus the generic tools."""

    def _tier(self, account: dict[str, Any]) -> str:
        return self.state["customers"][account["customer_id"]]["tier"]

    def _open_account(self, account_id: str) -> dict[str, Any]:
        account = lookup(self.state, "accounts", account_id, "account")
        if account["status"] != "open":
            raise ToolError(f"account {account_id} is {account['status']}")
        return account

    @tool(ToolKind.READ)
    def find_customer_by_email(self, email: str) -> str:
        """Find a customer by email address. Returns JSON with customer_id and name.

        Args:
            email: The customer's email address.
        """
        customer = find_by(self.state, "customers", "email", email, "customer")
        return json.dumps({"customer_id": customer["customer_id"], "name": customer["name"]})

    @tool(ToolKind.READ)
    def get_customer_details(self, customer_id: str) -> str:
        """Get a customer's profile: name, email, phone, address and tier
        (standard, gold or platinum). Returns JSON.

        Args:
            customer_id: The customer id, e.g. "CUS-12345".
        """
        return json.dumps(lookup(self.state, "customers", customer_id, "customer"))

    @tool(ToolKind.READ)
    def list_accounts(self, customer_id: str) -> str:
        """List a customer's accounts with type (checking or savings), status (open, frozen or
        closed) and balance. Returns a JSON list.

        Args:
            customer_id: The customer id, e.g. "CUS-12345".
        """
        lookup(self.state, "customers", customer_id, "customer")
        found = [
            _view(a, "balance")
            for a in self.state["accounts"].values()
            if a["customer_id"] == customer_id
        ]
        return json.dumps(sorted(found, key=lambda a: a["account_id"]))

    @tool(ToolKind.READ)
    def get_account_details(self, account_id: str) -> str:
        """Get one account: owner, type, status, balance, its cards, and the total sent to
        external payees from it today. Returns JSON.

        Args:
            account_id: The account id, e.g. "ACC-12345678".
        """
        account = lookup(self.state, "accounts", account_id, "account")
        shown = _view(account, "balance")
        shown["cards"] = [
            {"card_id": c["card_id"], "last4": c["last4"], "status": c["status"]}
            for c in sorted(self.state["cards"].values(), key=lambda c: c["card_id"])
            if c["account_id"] == account_id
        ]
        shown["external_transfers_today"] = money(sent_today(self.state, account_id))
        return json.dumps(shown)

    @tool(ToolKind.READ)
    def list_recent_transactions(self, account_id: str, limit: int = 10) -> str:
        """List an account's most recent transactions, newest first. Each has transaction_id,
        date, type, amount (negative for money out), counterparty (merchant or other party),
        status, and card_id for card purchases. Returns a JSON list.

        Args:
            account_id: The account id, e.g. "ACC-12345678".
            limit: How many transactions to return, 1 to 50 (default 10).
        """
        lookup(self.state, "accounts", account_id, "account")
        if not 1 <= limit <= 50:
            raise ToolError("limit must be between 1 and 50")
        found = [t for t in self.state["transactions"].values() if t["account_id"] == account_id]
        found.sort(key=lambda t: (t["date"], t["transaction_id"]), reverse=True)
        return json.dumps([_view(t, "amount") for t in found[:limit]])

    @tool(ToolKind.READ)
    def get_transaction(self, transaction_id: str) -> str:
        """Get one transaction by id. Returns JSON.

        Args:
            transaction_id: The transaction id, e.g. "TX-0A1B2C3D".
        """
        return json.dumps(
            _view(lookup(self.state, "transactions", transaction_id, "transaction"), "amount")
        )

    @tool(ToolKind.READ)
    def get_card_details(self, card_id: str) -> str:
        """Get a card: its account, owner, last four digits, status (active, blocked, replaced or
        cancelled) and daily spending limit in whole dollars. Returns JSON.

        Args:
            card_id: The card id, e.g. "CARD-1A2B3C".
        """
        card = lookup(self.state, "cards", card_id, "card")
        owner = self.state["accounts"][card["account_id"]]["customer_id"]
        return json.dumps({**card, "customer_id": owner})

    @tool(ToolKind.READ)
    def list_payees(self, customer_id: str) -> str:
        """List the external payees (people or companies at other banks) a customer has saved.
        Returns a JSON list with payee_id, name, bank and account_last4.

        Args:
            customer_id: The customer id, e.g. "CUS-12345".
        """
        lookup(self.state, "customers", customer_id, "customer")
        found = [p for p in self.state["payees"].values() if p["customer_id"] == customer_id]
        return json.dumps(sorted(found, key=lambda p: p["payee_id"]))

    @tool(ToolKind.READ)
    def get_fee_quote(self, account_id: str, service: Service, amount: float = 0.0) -> str:
        """Quote the fee the bank charges for a service, given the account owner's tier.
        Returns JSON with the tier and the fee.

        Args:
            account_id: The account the fee would be charged to.
            service: The service: internal_transfer (between the customer's own accounts),
                external_transfer (to a payee), card_replacement or card_replacement_expedited.
            amount: The amount to transfer, for external_transfer; ignored otherwise.
        """
        tier = self._tier(lookup(self.state, "accounts", account_id, "account"))
        if service == "external_transfer":
            fee = external_fee(tier, parse_amount(amount))
        elif service == "internal_transfer":
            fee = 0
        elif service in ("card_replacement", "card_replacement_expedited"):
            fee = replacement_fee(tier, service == "card_replacement_expedited")
        else:
            raise ToolError(f"unknown service {service!r}")
        return json.dumps({"service": service, "tier": tier, "fee": money(fee)})
