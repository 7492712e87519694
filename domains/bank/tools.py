"""The bank's tools: look-ups and fee quotes (READ), money, cards, disputes (WRITE).

Every rule is checked by `rules` (the same checks the composer draws tasks with); a call that
breaks the policy raises its `PolicyError`. The `@finds` / `@lists` / `@raises` links are the
tool graph (toolscale.kit.graph). Ids of records a tool creates are content hashes, so the final
state does not depend on the order in which independent writes were made. Money is shown as
text with two decimals ("45.50").
"""

from __future__ import annotations

import json
from typing import Any, Literal

from domains.bank import rules
from domains.bank.rules import money, to_cents, to_dollars
from toolscale.core.contract import ToolError, ToolKind, content_id, tool
from toolscale.kit import find_by, finds, lists, lookup, raises
from toolscale.tools.generic import StatefulGenericTools

BlockReason = Literal["lost", "stolen", "damaged", "suspected_fraud"]
DisputeReason = Literal["unrecognized", "duplicate", "not_received", "incorrect_amount"]
Service = Literal[
    "internal_transfer", "external_transfer", "card_replacement", "card_replacement_expedited"
]


def _view(record: dict[str, Any], *money_fields: str) -> dict[str, Any]:
    shown = dict(record)
    for name in money_fields:
        shown[name] = money(to_cents(record[name]))
    return shown


class BankTools(StatefulGenericTools):
    """Every tool of the bank domain, acting on `self.state` (see domains.bank.world)."""

    @tool(ToolKind.READ)
    @finds("customer", by="email")
    def find_customer_by_email(self, email: str) -> str:
        """Find a customer by email address. Returns JSON with customer_id and name.

        Args:
            email: The customer's email address.
        """
        customer = find_by(self.state, "customers", "email", email, "customer")
        return json.dumps({"customer_id": customer["customer_id"], "name": customer["name"]})

    @tool(ToolKind.READ)
    @finds("customer", by="customer_id")
    def get_customer_details(self, customer_id: str) -> str:
        """Get a customer's profile: name, email, phone, address and tier
        (standard, gold or platinum). Returns JSON.

        Args:
            customer_id: The customer id, e.g. "CUS-12345".
        """
        return json.dumps(lookup(self.state, "customers", customer_id, "customer"))

    @tool(ToolKind.READ)
    @lists("account", of="customer")
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
    @lists("card", of="account")
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
        shown["external_transfers_today"] = money(rules.sent_today(self.state, account_id))
        return json.dumps(shown)

    @tool(ToolKind.READ)
    @lists("transaction", of="account")
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
    @finds("transaction", by="transaction_id")
    def get_transaction(self, transaction_id: str) -> str:
        """Get one transaction by id. Returns JSON.

        Args:
            transaction_id: The transaction id, e.g. "TX-0A1B2C3D".
        """
        return json.dumps(
            _view(lookup(self.state, "transactions", transaction_id, "transaction"), "amount")
        )

    @tool(ToolKind.READ)
    @finds("card", by="card_id")
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
    @lists("payee", of="customer")
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
        tier = rules.tier_of(self.state, lookup(self.state, "accounts", account_id, "account"))
        if service == "external_transfer":
            fee = rules.external_fee(tier, rules.parse_amount(amount))
        elif service == "internal_transfer":
            fee = 0
        elif service in ("card_replacement", "card_replacement_expedited"):
            fee = rules.replacement_fee(tier, service == "card_replacement_expedited")
        else:
            raise ToolError(f"unknown service {service!r}")
        return json.dumps({"service": service, "tier": tier, "fee": money(fee)})

    def _post(self, account: dict[str, Any], kind: str, cents: int, counterparty: str) -> str:
        """Book a transaction dated today and apply it to the account's balance."""
        record = {
            "account_id": account["account_id"],
            "date": self.state["today"],
            "type": kind,
            "amount": to_dollars(cents),
            "counterparty": counterparty,
        }
        table = self.state["transactions"]
        n = 0
        while (tid := f"TX-{content_id([record, n])[:8].upper()}") in table:
            n += 1
        table[tid] = {"transaction_id": tid, **record, "status": "posted"}
        account["balance"] = to_dollars(to_cents(account["balance"]) + cents)
        return tid

    @tool(ToolKind.WRITE)
    @raises(rules.InsufficientFunds, rules.OverDailyLimit, rules.Frozen)
    def transfer_funds(self, from_account_id: str, destination_id: str, amount: float) -> str:
        """Transfer money out of an open account, either to another open account of the same
        customer (free) or to one of the customer's external payees (fee by tier, charged on top,
        within the daily external limit). Returns JSON with the fee and the new balances.

        Args:
            from_account_id: The account the money leaves, e.g. "ACC-12345678".
            destination_id: An account id ("ACC-...") of the same customer, or a payee id
                ("PAY-...") of the customer.
            amount: The amount in USD to deliver, e.g. 250.00 (the fee is not included).
        """
        checked = rules.check_transfer(self.state, from_account_id, destination_id, amount)
        cents, fee, source, target = (checked[k] for k in ("cents", "fee", "source", "target"))
        counterparty = checked["to"]
        result: dict[str, Any] = {"status": "completed", "amount": money(cents), "fee": money(fee)}
        if target is not None:
            self._post(source, "transfer_out", -cents, counterparty)
            self._post(target, "transfer_in", cents, from_account_id)
            result["to_account_balance"] = money(to_cents(target["balance"]))
        else:
            self._post(source, "external_transfer", -cents, counterparty)
            if fee:
                self._post(source, "fee", -fee, "External transfer fee")
        result["from_account_balance"] = money(to_cents(source["balance"]))
        return json.dumps(result)

    @tool(ToolKind.WRITE)
    @raises(rules.CardNotActive)
    def block_card(self, card_id: str, reason: BlockReason) -> str:
        """Block an active card at once, so it can no longer be used. Returns a confirmation.

        Args:
            card_id: The card id, e.g. "CARD-1A2B3C".
            reason: Why: lost, stolen, damaged, or suspected_fraud (charges the customer
                does not recognise while the card is still in their hands).
        """
        card = rules.check_block(self.state, card_id, reason)
        card["status"] = "blocked"
        card["block_reason"] = reason
        return f"Card {card_id} is now blocked (reason: {reason})."

    @tool(ToolKind.WRITE)
    @raises(rules.NotBlocked, rules.InsufficientFunds, rules.Frozen)
    def replace_card(self, card_id: str, expedited: bool = False) -> str:
        """Order a replacement for a blocked card; the fee by tier is charged to the card's
        account. Returns JSON with the new card id, the fee and the account's new balance.

        Args:
            card_id: The blocked card to replace, e.g. "CARD-1A2B3C".
            expedited: True for expedited delivery (2 business days, surcharge by tier);
                false for standard delivery (7 business days).
        """
        account, fee = rules.check_replace(self.state, card_id, expedited)
        card = self.state["cards"][card_id.strip()]
        digest = content_id({"replaces": card_id})
        new_id = f"CARD-{digest[:6].upper()}"
        self.state["cards"][new_id] = {
            "card_id": new_id,
            "account_id": card["account_id"],
            "last4": f"{int(digest[6:14], 16) % 10000:04d}",
            "status": "active",
            "daily_limit": card["daily_limit"],
        }
        card["status"] = "replaced"
        card["replaced_by"] = new_id
        if fee:
            self._post(account, "fee", -fee, f"Card replacement {new_id}")
        return json.dumps(
            {
                "new_card_id": new_id,
                "last4": self.state["cards"][new_id]["last4"],
                "delivery_business_days": 2 if expedited else 7,
                "fee": money(fee),
                "account_balance": money(to_cents(account["balance"])),
            }
        )

    @tool(ToolKind.WRITE)
    @raises(rules.CardNotActive, rules.LimitTooHigh, rules.Frozen)
    def update_daily_limit(self, card_id: str, new_limit: int) -> str:
        """Change an active card's daily spending limit, within the maximum of the owner's tier.
        Returns JSON with the previous and the new limit.

        Args:
            card_id: The card id, e.g. "CARD-1A2B3C".
            new_limit: The new daily limit in whole US dollars, a multiple of 50.
        """
        card = rules.check_limit(self.state, card_id, new_limit)
        previous, card["daily_limit"] = card["daily_limit"], int(new_limit)
        return json.dumps(
            {"card_id": card_id, "previous_daily_limit": previous, "daily_limit": int(new_limit)}
        )

    @tool(ToolKind.WRITE)
    @raises(rules.TooOld)
    def dispute_transaction(self, transaction_id: str, reason: DisputeReason) -> str:
        """Open a dispute on a posted card purchase dated within the dispute window. Gold and
        platinum customers get a provisional credit of the amount at once. Returns JSON with the
        dispute id, the provisional credit and the account's balance.

        Args:
            transaction_id: The card purchase to dispute, e.g. "TX-0A1B2C3D".
            reason: unrecognized (the customer did not make it), duplicate (charged twice),
                not_received (goods or service never received), or incorrect_amount.
        """
        txn, account = rules.check_dispute(self.state, transaction_id, reason)
        dispute_id = f"DSP-{content_id({'transaction': transaction_id})[:8].upper()}"
        credited = rules.TIERS[rules.tier_of(self.state, account)].provisional_credit
        credit = -to_cents(txn["amount"]) if credited else 0
        txn["status"] = "disputed"
        self.state["disputes"][dispute_id] = {
            "dispute_id": dispute_id,
            "transaction_id": transaction_id,
            "reason": reason,
            "opened": self.state["today"],
            "status": "open",
            "provisional_credit": to_dollars(credit),
        }
        if credit:
            self._post(account, "provisional_credit", credit, f"Dispute {dispute_id}")
        return json.dumps(
            {
                "dispute_id": dispute_id,
                "status": "open",
                "provisional_credit": money(credit),
                "account_balance": money(to_cents(account["balance"])),
            }
        )

    @tool(ToolKind.WRITE)
    @raises(rules.Frozen)
    def close_account(self, account_id: str) -> str:
        """Close an open account whose balance is exactly 0.00; its cards are cancelled.
        Returns a confirmation.

        Args:
            account_id: The account id, e.g. "ACC-12345678".
        """
        account = rules.check_close(self.state, account_id)
        account["status"] = "closed"
        cancelled = 0
        for card in self.state["cards"].values():
            if card["account_id"] == account_id and card["status"] in ("active", "blocked"):
                card["status"] = "cancelled"
                cancelled += 1
        return f"Account {account_id} is now closed; {cancelled} card(s) cancelled."
