"""The kit's caller behaviours on a tiny inline domain: how a detail is misread, which ids a
caller lacks, which behaviours a draft allows, the change a `decline` caller is offered (and
when there is none), and a sampled task's scenario, reason for the call and instructions."""

from __future__ import annotations

import json
import random

import pytest

from toolscale.core.contract import Action, ToolError, ToolKind, Toolkit, tool
from toolscale.kit import Draft, Request, lookup, sample_task
from toolscale.kit.behaviours import allowed, lacks, misread, offer
from toolscale.kit.sampling import check_writes

WORLD = {
    "accounts": {
        "A1": {"id": "A1", "owner": "C7", "balance": 10, "open": True},
        "A2": {"id": "A2", "owner": "C7", "balance": 0, "open": True},
    },
    "customers": {"C7": {"email": "ann@example.com"}},
}


class Bank(Toolkit):
    @tool(ToolKind.READ)
    def find_account(self, email: str) -> str:
        """Find a customer's first account by email.

        Args:
            email: The customer's email.
        """
        owner = next(c for c, row in self.state["customers"].items() if row["email"] == email)
        return next(a for a, row in self.state["accounts"].items() if row["owner"] == owner)

    @tool(ToolKind.READ)
    def get_balance(self, account_id: str) -> str:
        """Get an account's balance.

        Args:
            account_id: The account id.
        """
        return json.dumps(lookup(self.state, "accounts", account_id, "account")["balance"])

    @tool(ToolKind.WRITE)
    def close_account(self, account_id: str) -> str:
        """Close an account whose balance is 0.

        Args:
            account_id: The account id.
        """
        account = lookup(self.state, "accounts", account_id, "account")
        if account["balance"]:
            raise ToolError("only an empty account can be closed")
        account["open"] = False
        return "closed"


def balance_draft(account: str, balance: int, **request: object) -> Draft:
    return Draft(
        Request(("what my balance is",), kind="know", **request),  # type: ignore[arg-type]
        [Action("get_balance", {"account_id": account})],
        f"Your balance is {balance}.",
        [str(balance)],
        writes=False,
    )


@pytest.mark.parametrize(
    ("value", "wrong"),
    [("BK4292", "BK4229"), ("A1", "A2"), ("A11", "A12"), ("2025-06-20", "2025-06-02")],
)
def test_a_detail_is_misread_by_two_digits_swapped_or_one_off(value: str, wrong: str) -> None:
    assert misread(value) == wrong


def test_a_caller_lacks_the_ids_a_look_up_found_and_allows_what_its_details_permit() -> None:
    draft = Draft(
        Request(("what my balance is",), kind="know", known={"email": "ann@example.com"}),
        [
            Action("find_account", {"email": "ann@example.com"}),
            Action("get_balance", {"account_id": "A1"}),
        ],
        "Your balance is 10.",
        ["10"],
        writes=False,
    )
    assert lacks(draft) == ["account id"]
    assert allowed(draft, can_change=False) == ["", "decline", "ask_back", "dont_know"]
    digits = balance_draft("A1", 10, known={"account id": "A1", "email": "ann@example.com"})
    assert allowed(digits, can_change=True) == [
        "",
        "decline",
        "correct",
        "pieces",
        "change",
        "ask_back",
    ]


def test_the_offer_is_a_change_that_succeeds_after_the_gold_route_else_none() -> None:
    empty = balance_draft("A2", 0, known={"account id": "A2"})
    _, kit = check_writes("t", empty, WORLD, Bank)
    shown = offer(random.Random(0), empty, kit, Bank.schemas())
    assert shown.behaviour == "decline" and shown.declines == ["close account"]
    assert shown.unwanted == {"name": "close_account", "arguments": {"account_id": "A2"}}
    full = balance_draft("A1", 10, known={"account id": "A1"})  # closing fails: plain caller
    _, kit = check_writes("t", full, WORLD, Bank)
    assert offer(random.Random(0), full, kit, Bank.schemas()).behaviour == ""
    assert WORLD["accounts"]["A2"]["open"] is True  # tried on the scratch copy only


def test_a_sampled_caller_is_told_its_behaviour_and_its_words() -> None:
    draft = balance_draft("A1", 10, known={"account id": "A1"}, motives=("I'm saving up.",))
    seen = {}
    for seed in range(60):
        spec = sample_task(random.Random(seed), WORLD, {"t": (lambda rng, w: draft, 1)}, Bank)
        scenario = spec.scenario
        seen.setdefault(scenario.behaviour, scenario)
        assert "what your balance is" in scenario.reason_for_call
        assert "account id (A1)" in scenario.task_instructions
        assert scenario.wants == "know what my balance is" and scenario.manner
        assert spec.final_message.endswith("Your balance is 10.")
    assert set(seen) == {"", "correct", "ask_back"}  # one template: no change of mind
    assert seen["correct"].wrong == {"account id": "A2"}
    assert "say A2" in seen["correct"].task_instructions
    assert "ask the agent why" in seen["ask_back"].task_instructions


def test_a_reason_the_domain_wrote_is_kept_after_the_callers_situation() -> None:
    from toolscale.kit.caller import Wording, reason_for_call

    request = Request(("cancel my trip",), reason="Your plans changed. You want to cancel it.")
    said = Wording("cancel my trip", [], "My plans changed.", "I'm at work.")
    assert reason_for_call(random.Random(0), request, said) == (
        "You're at work. Your plans changed. You want to cancel it."
    )
    plain = Request(("cancel my trip",), conditions=("Refund me.",))
    told = reason_for_call(
        random.Random(0), plain, Wording("cancel my trip", ["Refund me."], "", "")
    )
    assert "cancel your trip" in told and told.endswith('You add: "Refund me."')
