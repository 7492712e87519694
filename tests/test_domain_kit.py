"""The domain kit: the gold runner, record lookups, the sampling rules (each broken on purpose
in a tiny inline domain), the gold conversation plan and the per-run world storage."""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import pytest

from toolscale.core import patch as patches
from toolscale.core.contract import Action, ToolError, ToolKind, Toolkit, UserScenario, tool
from toolscale.core.errors import ConfigError
from toolscale.core.records import Task
from toolscale.dialogue.conversation import Step, converse, plan_conversation
from toolscale.kit import (
    Draft,
    GoldRunner,
    KitDomain,
    KitError,
    Request,
    Template,
    find_by,
    lookup,
    sample_task,
)
from toolscale.sample import worlds

WORLD = {"accounts": {"A1": {"id": "A1", "owner": "Ann Lee", "balance": 10}}}


class Bank(Toolkit):
    @tool(ToolKind.READ)
    def get_balance(self, account_id: str) -> str:
        """Get an account's balance.

        Args:
            account_id: The account id.
        """
        return json.dumps(lookup(self.state, "accounts", account_id, "account")["balance"])

    @tool(ToolKind.WRITE)
    def deposit(self, account_id: str, amount: int) -> str:
        """Deposit money.

        Args:
            account_id: The account id.
            amount: Whole dollars.
        """
        account = lookup(self.state, "accounts", account_id, "account")
        account["balance"] += amount
        return json.dumps(account)


def _draft(request: Request, actions: list[Action], writes: bool, facts=("10",)) -> Draft:
    return Draft(request, actions, "Your balance is 10.", list(facts), writes=writes)


def _sample(draft: Draft) -> Any:
    return sample_task(random.Random(0), WORLD, {"t": (lambda rng, w: draft, 1)}, Bank)


def test_the_runner_records_only_actions_that_ran_and_leaves_the_world_alone() -> None:
    run = GoldRunner(Bank, WORLD)
    assert run("deposit", account_id="A1", amount=5)["balance"] == 15
    with pytest.raises(ToolError, match="no account with id 'B2'"):
        run("get_balance", account_id="B2")
    assert run.actions == [Action("deposit", {"account_id": "A1", "amount": 5})]
    assert WORLD["accounts"]["A1"]["balance"] == 10 and run.state["accounts"]["A1"]["balance"] == 15


def test_find_by_ignores_case_and_names_what_is_missing() -> None:
    assert find_by(WORLD, "accounts", "owner", " ann LEE ", "account")["id"] == "A1"
    with pytest.raises(ToolError, match="no account with owner 'Bob'"):
        find_by(WORLD, "accounts", "owner", "Bob", "account")


def test_a_good_draft_becomes_a_conversational_task() -> None:
    request = Request(("what my balance is",), kind="know", known={"account id": "A1"})
    spec = _sample(_draft(request, [Action("get_balance", {"account_id": "A1"})], writes=False))
    assert spec.instruction == spec.scenario.opening and "A1" not in spec.instruction
    assert spec.scenario.known_info == "Your account id is A1."
    assert spec.initial_state is WORLD and spec.difficulty == "easy"
    assert spec.scenario.accepts_changes is False  # a read-only request declines any change


@pytest.mark.parametrize(
    ("request_", "actions", "writes", "error"),
    [
        (
            Request(("check account A1",), known={"account id": "A1"}),
            [Action("get_balance", {"account_id": "A1"})],
            False,
            "gives away the account id",
        ),
        (
            Request(("deposit money",), known={"account id": "A1"}),
            [Action("get_balance", {"account_id": "A1"})],
            True,
            "implies a write",
        ),
        (
            Request(("see my balance",), known={"account id": "A1"}),
            [Action("deposit", {"account_id": "A1", "amount": 1})],
            False,
            "read-only request whose gold path changes",
        ),
        (
            Request(("confirm my balance is 10",), known={"account id": "A1"}),
            [Action("get_balance", {"account_id": "A1"})],
            False,
            "states the required fact '10'",
        ),
    ],
)
def test_each_broken_rule_is_a_kit_error(request_, actions, writes, error) -> None:
    with pytest.raises(KitError, match=error):
        _sample(_draft(request_, actions, writes))


def test_the_plan_asks_before_first_use_and_confirms_each_write() -> None:
    scenario = UserScenario(reason_for_call="r", opening="o", known={"account id": "A1"})
    actions = [
        Action("get_balance", {"account_id": "A1"}),
        Action("deposit", {"account_id": "A1", "amount": 5}),
        Action("get_balance", {"account_id": "A1"}),
    ]
    steps = plan_conversation(scenario, actions, Bank.specs())
    assert steps == [
        Step(ask=("account id",)),
        Step(call=actions[0]),
        Step(confirm=actions[1]),
        Step(call=actions[1]),
        Step(call=actions[2]),
    ]
    assert plan_conversation(None, actions, Bank.specs()) == [Step(call=a) for a in actions]
    # played against the scripted user: asked, given, proposed, agreed, then the calls
    turns = converse(scenario, actions, Bank.specs())
    talk = [t for t in turns if t.call is None and t.kind != "right"]  # maybe read A1 back
    assert [t.kind for t in talk] == ["give", "yes"]
    assert "your account id" in talk[0].say and "A1" in (talk[0].reply or "")
    assert "deposit (account A1, amount 5)" in talk[1].say
    assert all("A1" in t.say for t in turns if t.kind == "right")
    assert [t.call for t in turns if t.call is not None] == actions
    # a user who gives two details asked together is asked for all of them at once
    pieces = scenario.model_copy(update={"behaviour": "pieces", "known": {"a": "1", "b": "2"}})
    assert plan_conversation(pieces, actions, Bank.specs())[0] == Step(ask=("a", "b"))


def test_a_task_row_stores_its_changes_against_the_world_and_reads_back() -> None:
    world = {"accounts": {f"A{i}": {"balance": i} for i in range(300)}}
    state = json.loads(json.dumps(world))
    state["accounts"]["A7"]["balance"] = 70
    patch = patches.diff(world, state)
    assert patch == [{"op": "replace", "path": "/accounts/A7/balance", "value": 70}]
    assert patches.apply(world, patch) == state and world["accounts"]["A7"]["balance"] == 7
    assert patches.apply(world, []) == world


def test_a_missing_or_altered_world_is_a_clear_error() -> None:
    task = Task.model_construct(world="0000")
    with pytest.raises(ConfigError, match="world 0000 is not loaded"):
        Task.to_row(task, worlds.WorldStore())
    row = worlds.row("d", "1", 0, {"x": 1})
    row["state"] = json.dumps({"x": 2})
    with pytest.raises(ConfigError, match="does not match its content"):
        worlds.WorldStore().add_rows([row], "OUT")


def _balance(rng: random.Random, world: dict[str, Any]) -> Draft | None:
    request = Request(("what my balance is",), kind="know", known={"account id": "A1"})
    return _draft(request, [Action("get_balance", {"account_id": "A1"})], writes=False)


class _Named(KitDomain):
    name = "named_fixture"
    version = "1"
    family = "stateful"
    toolkit = Bank
    policy = ""
    template_table: ClassVar[dict[str, tuple[Template, int]]] = {
        "common": (_balance, 999),
        "rare": (lambda rng, w: None if rng.random() < 0.5 else _balance(rng, w), 1),
        "never": (lambda rng, w: None, 1),
    }
    templates = tuple(template_table)

    def world(self, seed: int) -> dict[str, Any]:
        return WORLD


def test_a_kit_domain_samples_by_weight_or_one_template_however_rare() -> None:
    domain = _Named()
    assert {domain.sample(random.Random(i), 0, i).template for i in range(20)} == {"common"}
    one = domain.sample_named(random.Random("a"), 0, 0, "rare")
    assert one.template == "rare" and [a.name for a in one.gold_actions] == ["get_balance"]
    assert one == domain.sample_named(random.Random("a"), 0, 0, "rare")
    assert domain.template_weights() == {"common": 999 / 1001, "rare": 1 / 1001, "never": 1 / 1001}
    with pytest.raises(KitError, match="template never found nothing to work on"):
        domain.sample_named(random.Random("a"), 0, 0, "never")
    with pytest.raises(KitError, match="has no template 'other'"):
        domain.sample_named(random.Random("a"), 0, 0, "other")
