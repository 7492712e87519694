"""Kit v2 defaults: what a domain no longer writes (entity tables and keys, a goal's tool, needs,
arguments, before-calls, report and check, finder / lister / searcher tools, shared parameter
docs, one-line rules) gives the same tasks as the long form, and the helpers compute by hand."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

from toolscale.core.contract import ToolError, ToolKind, tool
from toolscale.core.schema import with_arg_docs
from toolscale.kit import (
    Entity,
    Goal,
    PolicyError,
    StatefulDomain,
    finder,
    insert,
    lister,
    raises,
    rule,
    searcher,
    why_not,
)
from toolscale.kit.clock import days_between, hours_until, moment, shift, weekday
from toolscale.kit.people import people
from toolscale.tools.generic import StatefulGenericTools

Frozen = rule("Frozen")
Huge = rule("Huge", handoff=True)


def _world(rng: random.Random) -> dict[str, Any]:
    owners = {f"P{i}": {"person_id": f"P{i}", "email": f"p{i}@x.org"} for i in range(4)}
    accounts = {
        f"A{i}": {"account_id": f"A{i}", "person_id": f"P{i % 4}", "frozen": i % 3 == 0}
        for i in range(12)
    }
    for account in accounts.values():
        account["kind"] = "savings" if account["account_id"] in ("A1", "A5") else "current"
        account["lock"] = f"F-{account['account_id']}"
    return {"persons": owners, "accounts": accounts, "next_account": 50}


def _check(state: dict[str, Any], account_id: str) -> None:
    if state["accounts"][account_id]["frozen"]:
        raise Frozen(f"account {account_id} is frozen", shows=(f"F-{account_id}",))


class Bank(StatefulGenericTools):
    param_docs: ClassVar[dict[str, str]] = {"account_id": "The account id, such as A1."}
    get_account = finder("account", "account_id")
    find_person_by_email = finder("person", "email")
    list_person_accounts = lister("account", "person")
    search_accounts = searcher("account", ("kind",), "List accounts of one kind.")

    @tool(ToolKind.WRITE)
    @raises(Frozen)
    def close_account(self, account_id: str) -> dict[str, Any]:
        """Close an account."""
        _check(self.state, account_id)
        self.state["accounts"][account_id]["kind"] = "closed"
        return {"closed": account_id, "code": f"C-{account_id}"}


class Short(StatefulDomain):
    name = "short"
    version = "1"
    toolkit = Bank
    policy = "Frozen accounts cannot be closed."
    entities = (Entity("person", said=("email",)), Entity("account", owner="person"))
    goals = (
        Goal("close_account", words="close my account | shut my account", done="Closed: {code}."),
    )
    build_world = staticmethod(_world)


def test_defaults_fill_what_the_long_form_spells_out() -> None:
    person, account = Short.composer.graph.entities.values()
    assert (person.table, person.key, account.owner_key) == ("persons", "person_id", "person_id")
    assert person.describe is not None and person.describe({"email": "a@b"}, {}, True) == "a@b"
    goal = Short.goals[0]
    assert (goal.tool, goal.needs, goal.words) == (
        "close_account",
        ("account",),
        ("close my account", "shut my account"),
    )
    assert Short.templates == ("close_account", "close_account.no.frozen")
    domain = Short()
    done = domain.sample_named(random.Random(1), 0, 0, "close_account")
    account_id = done.gold_actions[-1].arguments["account_id"]
    assert done.gold_actions[-1].name == "close_account" and not account_id.endswith(("0", "3"))
    assert done.required_facts == [f"C-{account_id}"]  # the report: {code} of `done`
    refused = domain.sample_named(random.Random(2), 0, 0, "close_account.no.frozen")
    assert all(a.name != "close_account" for a in refused.gold_actions)  # no check: the tool said
    assert refused.required_facts[0].startswith("F-A")
    assert Huge.handoff and Huge.rule == "huge" and not Frozen.handoff
    assert Frozen.__module__ == __name__ and issubclass(Frozen, PolicyError)


def test_made_tools_have_schemas_and_answer_like_written_ones() -> None:
    schemas = {s["function"]["name"]: s["function"] for s in Bank.schemas()}
    close = schemas["close_account"]["parameters"]["properties"]["account_id"]
    assert close["description"] == "The account id, such as A1."  # from param_docs
    email = schemas["find_person_by_email"]["parameters"]["properties"]["email"]
    assert email["description"] == "The person's email."
    assert schemas["search_accounts"]["parameters"]["required"] == ["kind"]
    kit = Bank(_world(random.Random()))
    assert kit.get_account(account_id=" A4 ")["person_id"] == "P0"
    assert kit.find_person_by_email("P2@X.ORG")["person_id"] == "P2"
    assert [a["account_id"] for a in kit.list_person_accounts("P1")] == ["A1", "A5", "A9"]
    assert [a["account_id"] for a in kit.search_accounts(kind="Savings ")] == ["A1", "A5"]
    with pytest.raises(ToolError, match="no account with id 'A99'"):
        kit.get_account("A99")
    with pytest.raises(ToolError, match="no person with id 'P9'"):
        kit.list_person_accounts("P9")


def test_arg_docs_are_added_only_where_missing() -> None:
    doc = "Do it.\n\nArgs:\n    a: Mine.\n\nReturns:\n    Something."
    made = with_arg_docs(doc, ["a", "b"], {"a": "Shared a.", "b": "Shared b."})
    assert made == "Do it.\n\nArgs:\n    a: Mine.\n    b: Shared b.\n\nReturns:\n    Something."
    assert with_arg_docs(doc, ["a"], {"a": "Shared a."}) is doc


def test_helpers_compute_what_was_worked_out_by_hand() -> None:
    state = _world(random.Random())
    made = insert(state, "accounts", "A", {"person_id": "P1"})
    assert made == {"account_id": "A50", "person_id": "P1"} and state["next_account"] == 51
    assert (
        why_not(_check, state, "A3") == "account A3 is frozen"
        and why_not(_check, state, "A1") == ""
    )
    assert shift("2025-07-14", 20) == "2025-08-03" and weekday("2025-08-03") == "Sunday"
    assert hours_until("2025-07-14T15:00", "2025-07-13", "21:00") == -18.0
    assert days_between("2025-07-14", "2025-08-03") == 20
    with pytest.raises(ToolError, match="use YYYY-MM-DD and HH:MM"):
        moment("14/07/2025", "3pm")
    crowd = people(random.Random(5), 50, "CU", "customer_id")
    assert len(crowd) == 50 and len({p["email"] for p in crowd.values()}) == 50
    assert all(p["phone"] == f"555-{pid[2:]}" for pid, p in crowd.items())
    assert people(random.Random(5), 50, "CU", "customer_id") == crowd
