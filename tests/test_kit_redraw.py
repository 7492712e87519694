"""Kit v2: draws the composer must redraw rather than hand to `sample_task` as a broken task: a
write that would leave the state as it is, and a read-only answer whose only fact the caller or a
stock phrase could say (the composer applies `sample_task`'s own evidence rule)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from toolscale.core.contract import ToolKind, tool
from toolscale.kit import Entity, Goal, PolicyError, StatefulDomain, finder, raises
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


class Frozen(PolicyError):
    pass


class HoldKit(StatefulGenericTools):
    get_account = finder("account", "account_id")

    @tool(ToolKind.WRITE)
    @raises(Frozen)
    def suspend_account(self, account_id: str) -> dict[str, Any]:
        """Suspend an account.

        Args:
            account_id: The account id.
        """
        account = self.state["accounts"][account_id]
        Frozen.raise_if(
            account["status"] != "open", "a frozen or held account cannot be suspended",
            account["status"],
        )  # fmt: skip
        account["status"] = "suspended"
        return {"suspended": account_id}


class Holds(StatefulDomain):
    """Half the refusals' only proof is "frozen", a word the policy says: no evidence."""

    name = "holds"
    version = "1"
    toolkit = HoldKit
    policy = "A frozen account cannot be suspended; nor can one on hold."
    entities = (Entity("account"),)
    goals = (Goal("suspend_account", words="suspend my account", done="Suspended."),)

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        statuses = ("open", "frozen", "held")
        return {
            "accounts": {
                f"A{i}": {"account_id": f"A{i}", "status": statuses[i % 3]} for i in range(12)
            }
        }


def test_a_refusal_whose_reason_the_policy_says_needs_its_look_up() -> None:
    """A refusal states its reason even when the policy names it ("frozen"), and is no longer
    drawn again for it (issue 33): the look-up, which the verifier requires of a task that
    changes nothing, is what a blind refusal lacks."""
    domain = Holds()
    assert "suspend_account.no.frozen" in domain.templates
    reasons = set()
    for index in range(12):
        spec = domain.sample_named(random.Random(index), 0, index, "suspend_account.no.frozen")
        asked = spec.gold_actions[0].arguments["account_id"]
        status = spec.initial_state["accounts"][asked]["status"]
        assert spec.required_facts == [status]
        reasons.add(status)
        gold = [a.as_dict() for a in spec.gold_actions]
        assert domain.evidence_problems(spec.required_facts, spec.scenario, [], gold)
        looked = [(a.name, a.arguments, "{}") for a in spec.gold_actions]
        assert domain.evidence_problems(spec.required_facts, spec.scenario, looked, gold) == []
    assert reasons == {"frozen", "held"}


@pytest.mark.slow
def test_a_draw_without_evidence_after_the_caller_is_drawn_is_drawn_again() -> None:
    """The composer checks evidence before the caller's words are drawn; sampling checks it again
    on the whole scenario. Movie's task 409 (seed 0) was a refusal whose one fact, the booking
    status "used", the caller's stock words also hold: it raised KitError and generation lost the
    task. Such a draw is drawn again now, so every one of the first 500 builds."""
    from toolscale.core.registry import get_domain
    from toolscale.sample.tasks import build_task

    movie = get_domain("movie")
    for index in range(500):
        build_task(movie, 0, index, 15.0)
