"""The bank's tools: the READ tools of `reads` plus the WRITE tools (money, cards, disputes).

WRITE tools enforce the policy (funds, fees, limits, dispute window) and raise ToolError when a
call breaks it. Ids of records a tool creates are content hashes, so the final state does not
depend on the order in which independent writes were made.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from domains.bank.reads import BankReadTools, parse_amount, sent_today
from domains.bank.rules import (
    CARD_LIMIT_MIN,
    CARD_LIMIT_STEP,
    DISPUTE_CUTOFF,
    DISPUTE_WINDOW_DAYS,
    TIERS,
    external_fee,
    money,
    replacement_fee,
    to_cents,
    to_dollars,
)
from toolscale.core.contract import ToolError, ToolKind, content_id, tool
from toolscale.kit import lookup
from toolscale.tools.bounds import shown

BlockReason = Literal["lost", "stolen", "damaged", "suspected_fraud"]
DisputeReason = Literal["unrecognized", "duplicate", "not_received", "incorrect_amount"]


class BankTools(BankReadTools):
    """Every tool of the bank domain, acting on `self.state`."""

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
        cents = parse_amount(amount)
        source = self._open_account(from_account_id)
        owner = source["customer_id"]
        target: dict[str, Any] | None = None
        if destination_id.startswith("ACC-"):
            target = self._open_account(destination_id)
            if target["customer_id"] != owner or destination_id == from_account_id:
                raise ToolError("internal transfers go to a different account of the same customer")
            fee, counterparty = 0, destination_id
        elif destination_id.startswith("PAY-"):
            payee = lookup(self.state, "payees", destination_id, "payee")
            if payee["customer_id"] != owner:
                raise ToolError(f"payee {destination_id} does not belong to the account's owner")
            tier = self._tier(source)
            limit = TIERS[tier].external_daily_limit
            if sent_today(self.state, from_account_id) + cents > limit:
                raise ToolError(
                    f"daily external transfer limit of {money(limit)} would be exceeded"
                )
            fee, counterparty = external_fee(tier, cents), payee["name"]
        else:
            raise ToolError(
                f"destination {shown(destination_id)} is neither an account nor a payee"
            )
        if to_cents(source["balance"]) < cents + fee:
            raise ToolError(f"insufficient funds: {money(cents + fee)} needed incl. fee")
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
    def block_card(self, card_id: str, reason: BlockReason) -> str:
        """Block an active card at once, so it can no longer be used. Returns a confirmation.

        Args:
            card_id: The card id, e.g. "CARD-1A2B3C".
            reason: Why: lost, stolen, damaged, or suspected_fraud (charges the customer
                does not recognise while the card is still in their hands).
        """
        card = lookup(self.state, "cards", card_id, "card")
        if card["status"] != "active":
            raise ToolError(f"card {card_id} is {card['status']}, not active")
        card["status"] = "blocked"
        card["block_reason"] = reason
        return f"Card {card_id} is now blocked (reason: {reason})."

    @tool(ToolKind.WRITE)
    def replace_card(self, card_id: str, expedited: bool = False) -> str:
        """Order a replacement for a blocked card; the fee by tier is charged to the card's
        account. Returns JSON with the new card id, the fee and the account's new balance.

        Args:
            card_id: The blocked card to replace, e.g. "CARD-1A2B3C".
            expedited: True for expedited delivery (2 business days, surcharge by tier);
                false for standard delivery (7 business days).
        """
        card = lookup(self.state, "cards", card_id, "card")
        if card["status"] != "blocked":
            raise ToolError(f"card {card_id} is {card['status']}; only a blocked card is replaced")
        account = self._open_account(card["account_id"])
        fee = replacement_fee(self._tier(account), expedited)
        if to_cents(account["balance"]) < fee:
            raise ToolError(f"insufficient funds for the replacement fee of {money(fee)}")
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
    def update_daily_limit(self, card_id: str, new_limit: int) -> str:
        """Change an active card's daily spending limit, within the maximum of the owner's tier.
        Returns JSON with the previous and the new limit.

        Args:
            card_id: The card id, e.g. "CARD-1A2B3C".
            new_limit: The new daily limit in whole US dollars, a multiple of 50.
        """
        card = lookup(self.state, "cards", card_id, "card")
        if card["status"] != "active":
            raise ToolError(f"card {card_id} is {card['status']}, not active")
        account = self._open_account(card["account_id"])
        top = TIERS[self._tier(account)].card_limit_max
        if new_limit != int(new_limit) or not CARD_LIMIT_MIN <= new_limit <= top:
            raise ToolError(f"the daily limit must be between {CARD_LIMIT_MIN} and {top}")
        if new_limit % CARD_LIMIT_STEP:
            raise ToolError(f"the daily limit must be a multiple of {CARD_LIMIT_STEP}")
        previous, card["daily_limit"] = card["daily_limit"], int(new_limit)
        return json.dumps(
            {"card_id": card_id, "previous_daily_limit": previous, "daily_limit": int(new_limit)}
        )

    @tool(ToolKind.WRITE)
    def dispute_transaction(self, transaction_id: str, reason: DisputeReason) -> str:
        """Open a dispute on a posted card purchase dated within the dispute window. Gold and
        platinum customers get a provisional credit of the amount at once. Returns JSON with the
        dispute id, the provisional credit and the account's balance.

        Args:
            transaction_id: The card purchase to dispute, e.g. "TX-0A1B2C3D".
            reason: unrecognized (the customer did not make it), duplicate (charged twice),
                not_received (goods or service never received), or incorrect_amount.
        """
        txn = lookup(self.state, "transactions", transaction_id, "transaction")
        if txn["type"] != "card_purchase" or txn["status"] != "posted":
            raise ToolError("only a posted card purchase can be disputed")
        if txn["date"] < DISPUTE_CUTOFF.isoformat():
            raise ToolError(
                f"transaction dated {txn['date']} is older than {DISPUTE_WINDOW_DAYS} days"
            )
        account = lookup(self.state, "accounts", txn["account_id"], "account")
        if account["status"] == "closed":
            raise ToolError(f"account {account['account_id']} is closed")
        dispute_id = f"DSP-{content_id({'transaction': transaction_id})[:8].upper()}"
        credit = -to_cents(txn["amount"]) if TIERS[self._tier(account)].provisional_credit else 0
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
    def close_account(self, account_id: str) -> str:
        """Close an open account whose balance is exactly 0.00; its cards are cancelled.
        Returns a confirmation.

        Args:
            account_id: The account id, e.g. "ACC-12345678".
        """
        account = self._open_account(account_id)
        if to_cents(account["balance"]) != 0:
            raise ToolError(
                f"account {account_id} has a balance of {money(to_cents(account['balance']))}; "
                "it must be 0.00 before it can be closed"
            )
        account["status"] = "closed"
        cancelled = 0
        for card in self.state["cards"].values():
            if card["account_id"] == account_id and card["status"] in ("active", "blocked"):
                card["status"] = "cancelled"
                cancelled += 1
        return f"Account {account_id} is now closed; {cancelled} card(s) cancelled."
