"""Kit v2: the composer's invariants on every intent kind of a declared domain (restaurant), and
the declared form's rules on a tiny inline domain (tools returning JSON values, declaration
errors, fact collisions drawn again, sampling one template by name)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest

from domains.bank import BankDomain
from domains.restaurant import RestaurantDomain
from toolscale.core.contract import (
    Action,
    ToolError,
    ToolKind,
    Toolkit,
    fact_stated,
    item_rng,
    tool,
)
from toolscale.core.registry import get_domain
from toolscale.kit import (
    Draft,
    Entity,
    Goal,
    KitError,
    PolicyError,
    Request,
    StatefulDomain,
    finds,
    lists,
    raises,
)
from toolscale.kit.declare import render_policy
from toolscale.kit.graph import ToolGraph
from toolscale.kit.identify import twins
from toolscale.kit.sampling import Collision, sample_named
from toolscale.kit.shots import held
from toolscale.sample import worlds
from toolscale.sandbox.execute import execute

DOMAIN = RestaurantDomain()
SPECS = DOMAIN.toolkit.specs()
DRAWS = 6  # tasks per intent kind


def _tasks(kind: str) -> list[Any]:
    return [DOMAIN.sample_named(item_rng("restaurant", 0, i), 0, i, kind) for i in range(DRAWS)]


def _replay(spec: Any) -> tuple[Toolkit, list[str]]:
    kit = DOMAIN.toolkit(worlds.MEMO.copy(spec.initial_state))
    outcomes = [execute(kit, a.name, a.arguments, 5.0) for a in spec.gold_actions]
    assert [o.status for o in outcomes] == ["ok"] * len(outcomes), spec.template
    return kit, [o.output for o in outcomes]


@pytest.mark.parametrize("kind", DOMAIN.templates)
def test_every_intent_kind_replays_and_states_its_facts(kind: str) -> None:
    for spec in _tasks(kind):
        assert spec.template == kind and 1 <= len(spec.gold_actions) <= 8
        kit, _ = _replay(spec)
        writes = any(SPECS[a.name].kind is ToolKind.WRITE for a in spec.gold_actions)
        assert (kit.state != spec.initial_state) == writes
        assert all(fact_stated(f, spec.final_message) for f in spec.required_facts)
        assert not any(fact_stated(f, spec.instruction) for f in spec.required_facts)
        assert not any(v in spec.instruction for v in spec.scenario.known.values())


@pytest.mark.parametrize("kind", [k for k in DOMAIN.templates if ".no." in k or ".handoff." in k])
def test_a_refusal_makes_no_write_and_the_tool_would_refuse(kind: str) -> None:
    for spec in _tasks(kind):
        names = [a.name for a in spec.gold_actions]
        assert not any(SPECS[n].kind is ToolKind.WRITE for n in names)
        assert (names[-1] == "transfer_to_human_agents") == (".handoff." in kind)
        if ".handoff." in kind:  # judged on the transfer, as a hand-off goal (run E: a drug
            assert spec.required_facts == []  # class "opioid pain reliever" was required)
        # its reason, never an id the caller had, and the look-up that establishes it
        assert not [f for f in spec.required_facts if held(spec.initial_state, f)]
        assert any(SPECS[n].kind is ToolKind.READ for n in names)
        goal = next(g for g in DOMAIN.goals if g.name == kind.split(".")[0])
        assert goal.tool not in names


@pytest.mark.parametrize("kind", [k for k in DOMAIN.templates if k.endswith(".which")])
def test_a_clarification_has_two_records_the_description_fits(kind: str) -> None:
    entity = next(e for e in DOMAIN.entities if e.name == "reservation")
    for spec in _tasks(kind):
        said = " ".join(json.dumps(a.arguments) for a in spec.gold_actions)
        used = re.findall(r"RS\d+", said)
        record = spec.initial_state["reservations"][used[-1]]
        others = twins(spec.initial_state, entity, record)
        assert others and all(o["restaurant_id"] == record["restaurant_id"] for o in others)
        assert spec.scenario.known["reservation date"] == record["date"]
        assert record["date"] not in spec.instruction


def _callers(domain: StatefulDomain, spec: Any) -> set[str]:
    """The ids of the records at the top of the owner chains of the records the gold actions
    name by their keys (one caller: one id); records nobody owns (a class, a hotel) are not
    counted."""
    by_name = {e.name: e for e in domain.entities}
    owning = {e.owner for e in domain.entities if e.owner}
    entities = {e.key: e for e in domain.entities if e.owner or e.name in owning}
    state, tops = spec.initial_state, set()
    for action in spec.gold_actions:
        for key, value in action.arguments.items():
            if key in entities and value in state[entities[key].table]:
                entity, record = entities[key], state[entities[key].table][value]
                while entity.owner:
                    owner = by_name[entity.owner]
                    entity, record = owner, state[owner.table][record[entity.owner_key]]
                tops.add(record[entity.key])
    return tops


@pytest.mark.parametrize("name", ["school", "travel"])  # owners two levels up: invoice, stay
def test_both_goals_of_one_call_act_on_one_callers_records(name: str) -> None:
    # Before the fix, 10 of 16 school and 3 of 7 travel calls of two goals acted for a second
    # guardian or traveller (an invoice or a stay drawn from the whole table).
    domain = get_domain(name)
    for i in range(12):
        spec = domain.sample_named(item_rng(name, 0, i), 0, i, "multi")
        assert len(_callers(domain, spec)) == 1, (i, spec.instruction)


def test_a_record_on_an_owners_list_read_already_is_not_looked_up_again() -> None:
    # Before, the second goal of a school call could ask for a child's student id and call
    # get_student although list_guardian_students had just shown that child.
    domain = get_domain("school")
    looked_up = 0
    for i in range(40):
        spec = domain.sample_named(item_rng("school", 0, i), 0, i, "multi")
        students = spec.initial_state["students"]
        listed: set[str] = set()
        for action in spec.gold_actions:
            if action.name == "list_guardian_students":
                listed.add(action.arguments["guardian_id"])
            if action.name == "get_student":
                looked_up += 1
                assert students[action.arguments["student_id"]]["guardian_id"] not in listed, i
    assert looked_up > 0  # some calls still identify a child by id, before any list


def test_a_condition_decides_the_write_by_the_quoted_amount() -> None:
    seen = set()
    for i in range(30):
        spec = DOMAIN.sample_named(item_rng("restaurant", 0, i), 0, i, "cancel_reservation.if")
        _, outputs = _replay(spec)
        fee = json.loads(
            outputs[-1] if spec.gold_actions[-1].name != "cancel_reservation" else outputs[-2]
        )
        limit = float(spec.scenario.task_instructions.split("under $")[1].split(";")[0])
        wrote = spec.gold_actions[-1].name == "cancel_reservation"
        assert wrote == (fee["cancellation_fee"] < limit)
        seen.add(wrote)
    assert seen == {True, False}


def test_every_tool_is_in_some_gold_path() -> None:
    used = {a.name for kind in DOMAIN.templates for spec in _tasks(kind) for a in spec.gold_actions}
    assert used == set(SPECS)


def test_reasons_for_the_call_are_the_tasks_own() -> None:
    specs = [DOMAIN.sample(item_rng("restaurant", 0, i), 0, i) for i in range(120)]
    reasons = [s.scenario.reason_for_call for s in specs]
    assert len(set(reasons)) >= 0.9 * len(reasons)
    assert len({s.scenario.task_instructions for s in specs}) >= 0.8 * len(specs)


# -- a tiny declared domain ----------------------------------------------------------------------
class Frozen(PolicyError):
    pass


class Tiny(Toolkit):
    @tool(ToolKind.READ)
    @finds("account", by="account_id")
    def get_account(self, account_id: str) -> dict[str, Any]:
        """Get an account (a dict, not JSON text).

        Args:
            account_id: The account id.
        """
        account = self.state["accounts"].get(account_id)
        if account is None:
            raise ToolError(f"no account {account_id!r}")
        return account

    @tool(ToolKind.WRITE)
    @raises(Frozen)
    def close(self, account_id: str) -> dict[str, Any]:
        """Close an account.

        Args:
            account_id: The account id.
        """
        check_close(self.state, account_id)
        self.state["accounts"][account_id]["open"] = False
        return {"closed": account_id, "code": self.state["accounts"][account_id]["code"]}


def check_close(state: dict[str, Any], account_id: str) -> None:
    if state["accounts"][account_id]["frozen"]:
        raise Frozen(
            f"account {account_id} is frozen", shows=(state["accounts"][account_id]["code"],)
        )


def _world(rng: random.Random) -> dict[str, Any]:
    return {
        "accounts": {
            f"A{i}": {
                "account_id": f"A{i}",
                "frozen": i % 3 == 0,
                "open": True,
                "code": f"K{900 + i}",
            }
            for i in range(12)
        }
    }


CLOSE = Goal(
    "close",
    "close",
    ("account",),
    lambda d: {"account_id": d["account"]["account_id"]},
    words=("close my account", "shut my account"),
    done="Account closed; closure code {code}.",
    report=("code",),
    check=check_close,
)


class TinyDomain(StatefulDomain):
    name = "tiny"
    version = "1"
    toolkit = Tiny
    policy = "Frozen accounts cannot be closed."
    entities = (Entity("account", "accounts", "account_id"),)
    goals = (CLOSE,)

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return _world(rng)


def test_a_tool_may_return_a_dict_and_its_intents_are_named() -> None:
    domain = TinyDomain()
    assert domain.templates == ("close", "close.no.frozen")
    spec = domain.sample_named(random.Random(1), 0, 0, "close")
    assert [a.name for a in spec.gold_actions] == ["get_account", "close"]
    refused = domain.sample_named(random.Random(2), 0, 0, "close.no.frozen")
    assert [a.name for a in refused.gold_actions] == ["get_account"]
    code = refused.initial_state["accounts"][refused.gold_actions[0].arguments["account_id"]][
        "code"
    ]
    assert refused.required_facts == [code] and "is frozen" in refused.final_message
    outcome = execute(Tiny(_world(random.Random())), "get_account", {"account_id": "A1"}, 5.0)
    assert json.loads(outcome.output)["code"] == "K901"
    with pytest.raises(KitError, match="has no template 'nope'"):
        domain.sample_named(random.Random(0), 0, 0, "nope")


def test_a_goal_may_refuse_by_fewer_rules_than_its_tool_raises() -> None:
    class Fewer(TinyDomain):
        goals = (dataclasses.replace(CLOSE, refuses=()),)

    assert Fewer.templates == ("close",)


def test_a_lister_may_take_a_page_size_with_a_default() -> None:
    class Paged(Tiny):
        @tool(ToolKind.READ)
        @lists("account", of="owner")
        def list_accounts(self, owner_id: str, limit: int = 10) -> list[dict[str, Any]]:
            """List an owner's accounts.

            Args:
                owner_id: The owner id.
                limit: How many accounts to list.
            """
            return list(self.state["accounts"].values())[:limit]

    entities = (
        Entity("owner", "owners", "owner_id"),
        Entity("account", "accounts", "account_id", owner="owner", owner_key="owner_id"),
    )
    graph = ToolGraph(Paged, entities)
    assert graph.listers["account"].param == "owner_id"


def test_a_bad_declaration_fails_when_the_class_is_made() -> None:
    with pytest.raises(KitError, match="'shred' is not a tool"):

        class Bad(TinyDomain):
            goals = (Goal("x", "shred", ("account",), dict, ("shred it",), "done"),)

    with pytest.raises(KitError, match="different placeholders"):

        class Worse(TinyDomain):
            goals = (Goal("x", "close", ("account",), dict, ("close {a}", "close"), "done"),)


def test_a_chance_collision_is_drawn_again_and_a_constant_one_raised() -> None:
    actions = [Action("get_account", {"account_id": "A1"})]
    good = Draft(
        Request(("check my account",), kind="know"), actions, "Code K901.", ["K901"], False
    )
    bad = Draft(
        Request(("check account K901",), kind="know"), actions, "Code K901.", ["K901"], False
    )
    drafts = iter([bad, bad, good])
    world = _world(random.Random())
    spec = sample_named(random.Random(0), world, "t", lambda r, w: next(drafts), Tiny)
    assert spec is not None and spec.instruction.count("K901") == 0
    with pytest.raises(Collision, match="opening states the required fact 'K901'"):
        sample_named(random.Random(0), world, "t", lambda r, w: bad, Tiny)


def test_the_policy_is_rendered_from_the_rules_constants() -> None:
    class Rules:
        MAX_PARTY = 10
        FEE = 7.5

    assert (
        render_policy("At most {MAX_PARTY}; ${FEE:.2f}; {{x}}", Rules) == "At most 10; $7.50; {x}"
    )
    with pytest.raises(KeyError, match=r"names \{MISSING\}"):
        render_policy("{MISSING}", Rules)


def test_another_declared_domain_samples_by_name_too() -> None:
    bank = BankDomain()
    spec = bank.sample_named(item_rng("bank", 0, 3), 0, 3, "block.no.card_not_active")
    assert spec.template == "block.no.card_not_active"
    assert spec.gold_actions[-1].name != "block_card"
