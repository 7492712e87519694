"""Kit v2: draws the composer must redraw rather than hand to `sample_task` as a broken task: a
write that would leave the state as it is, and a read-only answer whose only fact the caller or a
stock phrase could say (the composer applies `sample_task`'s own evidence rule)."""

from __future__ import annotations

import random
from typing import Any

from toolscale.core.contract import ToolKind, tool
from toolscale.kit import Entity, Goal, StatefulDomain, finder
from toolscale.tools.generic import StatefulGenericTools


class Kit(StatefulGenericTools):
    get_account = finder("account", "account_id")

    @tool(ToolKind.WRITE)
    def close_account(self, account_id: str) -> dict[str, Any]:
        """Close an account (closing a closed one changes nothing).

        Args:
            account_id: The account id.
        """
        account = self.state["accounts"][account_id]
        account["open"] = False
        return {"closed": account_id, "code": account["code"]}


def _world(rng: random.Random) -> dict[str, Any]:
    accounts = {
        f"A{i}": {
            "account_id": f"A{i}",
            "open": i % 2 == 0,  # half are closed already: closing them again is no write
            "tier": "standard" if i % 3 else "gold",  # "standard" is in a stock phrase
            "code": f"K{900 + i}",
        }
        for i in range(12)
    }
    return {"accounts": accounts}


class Accounts(StatefulDomain):
    name = "accounts"
    version = "1"
    toolkit = Kit
    policy = "Close accounts on request."
    entities = (Entity("account"),)
    goals = (
        Goal("close_account", words="close my account", done="Closed; code {code}."),
        Goal("get_account", words="what tier my account is", done="Your tier is {tier}."),
    )

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return _world(rng)


def test_a_write_that_would_change_nothing_is_drawn_again() -> None:
    domain = Accounts()
    for index in range(12):
        spec = domain.sample_named(random.Random(index), 0, index, "close_account")
        closed = spec.gold_actions[-1].arguments["account_id"]
        assert spec.initial_state["accounts"][closed]["open"] is True


def test_an_answer_only_a_stock_phrase_says_is_drawn_again() -> None:
    domain = Accounts()
    for index in range(12):
        spec = domain.sample_named(random.Random(index), 0, index, "get_account")
        asked = spec.gold_actions[0].arguments["account_id"]
        assert spec.initial_state["accounts"][asked]["tier"] == "gold"
        assert spec.required_facts == ["gold"]
