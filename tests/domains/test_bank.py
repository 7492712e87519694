"""Bank domain: tool effects on a tiny hand-built bank, policy errors, the run's world, and
sampled tasks (gold paths, openings without the caller's details, gold conversations)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest

from domains.bank import BankDomain, rules
from domains.bank.rules import external_fee, money, replacement_fee
from domains.bank.tools import BankTools
from domains.bank.world import build_world
from toolscale.check.fuzz import fuzz_domain
from toolscale.core.contract import (
    TaskSpec,
    ToolError,
    ToolKind,
    fact_stated,
    item_rng,
    normalize_text,
    state_hash,
)
from toolscale.dialogue.conversation import converse
from toolscale.sample.worlds import world_id


def tiny_bank(tier: str = "gold") -> dict[str, Any]:
    """One customer (checking 1000.00 with a card, savings 500.00, one payee) and a stranger."""

    def txn(tid: str, account: str, date: str, kind: str, amount: float, party: str) -> dict:
        return {
            "transaction_id": tid,
            "account_id": account,
            "date": date,
            "type": kind,
            "amount": amount,
            "counterparty": party,
            "status": "posted",
        }

    return {
        "today": "2025-06-16",
        "customers": {
            "CUS-1": {
                "customer_id": "CUS-1",
                "name": "Ada Lovelace",
                "email": "ada@example.com",
                "phone": "(555) 000-0000",
                "address": "1 Main St",
                "tier": tier,
            },
            "CUS-2": {
                "customer_id": "CUS-2",
                "name": "Bob Stranger",
                "email": "bob@example.com",
                "phone": "(555) 000-0001",
                "address": "2 Main St",
                "tier": "standard",
            },
        },
        "accounts": {
            "ACC-1": {
                "account_id": "ACC-1",
                "customer_id": "CUS-1",
                "type": "checking",
                "status": "open",
                "balance": 1000.0,
                "currency": "USD",
                "opened": "2025-01-02",
            },
            "ACC-2": {
                "account_id": "ACC-2",
                "customer_id": "CUS-1",
                "type": "savings",
                "status": "open",
                "balance": 500.0,
                "currency": "USD",
                "opened": "2025-01-02",
            },
            "ACC-9": {
                "account_id": "ACC-9",
                "customer_id": "CUS-2",
                "type": "checking",
                "status": "open",
                "balance": 50.0,
                "currency": "USD",
                "opened": "2025-01-02",
            },
        },
        "cards": {
            "CARD-A": {
                "card_id": "CARD-A",
                "account_id": "ACC-1",
                "last4": "1234",
                "status": "active",
                "daily_limit": 1000,
            },
        },
        "transactions": {
            "TX-NEW": {
                **txn("TX-NEW", "ACC-1", "2025-04-17", "card_purchase", -40.25, "Etsy"),
                "card_id": "CARD-A",
            },
            "TX-OLD": {
                **txn("TX-OLD", "ACC-1", "2025-04-16", "card_purchase", -99.0, "IKEA"),
                "card_id": "CARD-A",
            },
            "TX-PAY": txn("TX-PAY", "ACC-1", "2025-06-01", "deposit", 2000.0, "Payroll - Acme"),
        },
        "payees": {
            "PAY-1": {
                "payee_id": "PAY-1",
                "customer_id": "CUS-1",
                "name": "City Power & Light",
                "bank": "Summit Savings",
                "account_last4": "9876",
            },
        },
        "disputes": {},
    }


def test_fee_arithmetic_matches_the_policy_table() -> None:
    assert external_fee("standard", 15_050) == 250 + 151  # 1% of 150.50 = 1.505, half up
    assert external_fee("standard", 500_000) == 2500  # capped at 25.00
    assert external_fee("gold", 30_000) == 100 + 150
    assert external_fee("gold", 400_000) == 1000  # capped at 10.00
    assert external_fee("platinum", 900_000) == 0
    assert replacement_fee("standard", True) == 2500
    assert replacement_fee("gold", False) == 500
    assert money(-705) == "-7.05" and money(123_450) == "1234.50"


def test_external_transfer_books_amount_and_fee() -> None:
    kit = BankTools(tiny_bank("gold"))
    out = json.loads(kit.transfer_funds("ACC-1", "PAY-1", 300))
    assert out == {
        "status": "completed",
        "amount": "300.00",
        "fee": "2.50",
        "from_account_balance": "697.50",
    }
    assert kit.state["accounts"]["ACC-1"]["balance"] == 697.5
    booked = [t for t in kit.state["transactions"].values() if t["date"] == "2025-06-16"]
    assert sorted((t["type"], t["amount"]) for t in booked) == [
        ("external_transfer", -300.0),
        ("fee", -2.5),
    ]


def test_internal_transfer_moves_money_between_own_accounts_only() -> None:
    kit = BankTools(tiny_bank())
    out = json.loads(kit.transfer_funds("ACC-2", "ACC-1", 125.75))
    assert (out["fee"], out["from_account_balance"], out["to_account_balance"]) == (
        "0.00",
        "374.25",
        "1125.75",
    )
    with pytest.raises(ToolError, match="same customer"):
        kit.transfer_funds("ACC-1", "ACC-9", 10)


@pytest.mark.parametrize(
    ("source", "destination", "amount", "message"),
    [
        # fee 1.00 + 4.995 -> 6.00: 1005.00 is over the 1000.00 held, a total no record shows
        ("ACC-1", "PAY-1", 999.0, "holds 1000.00, less than 999.00 plus its transfer fee"),
        ("ACC-1", "ACC-2", 10.005, "at most 2 decimals"),
        ("ACC-1", "PAY-404", 10.0, "no payee with id"),
        ("ACC-1", "CUS-2", 10.0, "neither an account nor a payee"),
    ],
)
def test_transfer_policy_violations_raise_and_change_nothing(
    source: str, destination: str, amount: float, message: str
) -> None:
    state = tiny_bank()
    before = state_hash(state)
    with pytest.raises(ToolError, match=message):
        BankTools(state).transfer_funds(source, destination, amount)
    assert state_hash(state) == before


def test_daily_external_limit_counts_todays_transfers() -> None:
    state = tiny_bank("standard")
    state["accounts"]["ACC-1"]["balance"] = 9000.0
    kit = BankTools(state)
    kit.transfer_funds("ACC-1", "PAY-1", 2400)
    assert json.loads(kit.get_account_details("ACC-1"))["external_transfers_today"] == "2400.00"
    with pytest.raises(rules.OverDailyLimit, match=r"daily external transfer limit of 2500\.00"):
        kit.transfer_funds("ACC-1", "PAY-1", 100.01)
    kit.transfer_funds("ACC-1", "PAY-1", 100)


def test_frozen_account_cannot_send() -> None:
    state = tiny_bank()
    state["accounts"]["ACC-2"]["status"] = "frozen"
    with pytest.raises(rules.Frozen, match="frozen") as frozen:
        BankTools(state).transfer_funds("ACC-2", "ACC-1", 10)
    assert frozen.value.handoff  # a case for a human agent
    with pytest.raises(rules.Frozen):
        BankTools(state).close_account("ACC-2")


def test_dispute_window_is_sixty_days_and_gold_gets_provisional_credit() -> None:
    kit = BankTools(tiny_bank("gold"))
    with pytest.raises(rules.TooOld, match="older than 60 days"):
        kit.dispute_transaction("TX-OLD", "unrecognized")
    out = json.loads(kit.dispute_transaction("TX-NEW", "duplicate"))
    assert (out["provisional_credit"], out["account_balance"]) == ("40.25", "1040.25")
    assert out["dispute_id"].startswith("DSP-")
    assert kit.state["transactions"]["TX-NEW"]["status"] == "disputed"
    assert kit.state["disputes"][out["dispute_id"]]["reason"] == "duplicate"
    with pytest.raises(ToolError, match="posted card purchase"):
        kit.dispute_transaction("TX-NEW", "duplicate")
    with pytest.raises(ToolError, match="posted card purchase"):
        kit.dispute_transaction("TX-PAY", "unrecognized")


def test_standard_dispute_gives_no_credit() -> None:
    kit = BankTools(tiny_bank("standard"))
    out = json.loads(kit.dispute_transaction("TX-NEW", "unrecognized"))
    assert (out["provisional_credit"], out["account_balance"]) == ("0.00", "1000.00")


def test_replacement_needs_a_blocked_card_and_charges_the_tier_fee() -> None:
    kit = BankTools(tiny_bank("gold"))
    with pytest.raises(rules.NotBlocked, match="only a blocked card"):
        kit.replace_card("CARD-A", True)
    kit.block_card("CARD-A", "lost")
    with pytest.raises(rules.CardNotActive, match="blocked, not active"):
        kit.block_card("CARD-A", "stolen")
    out = json.loads(kit.replace_card("CARD-A", True))
    assert (out["fee"], out["account_balance"], out["delivery_business_days"]) == (
        "20.00",
        "980.00",
        2,
    )
    new = kit.state["cards"][out["new_card_id"]]
    assert (new["status"], new["daily_limit"], new["account_id"]) == ("active", 1000, "ACC-1")
    old = kit.state["cards"]["CARD-A"]
    assert (old["status"], old["replaced_by"], old["block_reason"]) == (
        "replaced",
        out["new_card_id"],
        "lost",
    )


def test_daily_limit_bounds_follow_the_tier() -> None:
    kit = BankTools(tiny_bank("gold"))
    with pytest.raises(rules.LimitTooHigh, match="between 100 and 3000"):
        kit.update_daily_limit("CARD-A", 3050)
    with pytest.raises(ToolError, match="between 100 and 3000"):
        kit.update_daily_limit("CARD-A", 50)
    with pytest.raises(ToolError, match="multiple of 50"):
        kit.update_daily_limit("CARD-A", 2975)
    out = json.loads(kit.update_daily_limit("CARD-A", 3000))
    assert (out["previous_daily_limit"], out["daily_limit"]) == (1000, 3000)


def test_close_account_needs_zero_balance_and_cancels_cards() -> None:
    kit = BankTools(tiny_bank())
    with pytest.raises(ToolError, match=r"balance of 1000\.00"):
        kit.close_account("ACC-1")
    kit.transfer_funds("ACC-1", "ACC-2", 1000)
    assert kit.close_account("ACC-1") == "Account ACC-1 is now closed; 1 card(s) cancelled."
    assert kit.state["accounts"]["ACC-1"]["status"] == "closed"
    assert kit.state["cards"]["CARD-A"]["status"] == "cancelled"


def test_read_tools_leave_the_state_unchanged() -> None:
    state = tiny_bank()
    before = state_hash(state)
    kit = BankTools(state)
    kit.find_customer_by_email("ADA@example.com ")
    kit.get_customer_details("CUS-1")
    kit.list_accounts("CUS-1")
    kit.get_account_details("ACC-1")
    rows = json.loads(kit.list_recent_transactions("ACC-1", 2))
    assert [r["transaction_id"] for r in rows] == ["TX-PAY", "TX-NEW"]
    assert rows[1]["amount"] == "-40.25"
    kit.get_transaction("TX-OLD")
    kit.get_card_details("CARD-A")
    kit.list_payees("CUS-1")
    quote = json.loads(kit.get_fee_quote("ACC-1", "external_transfer", 300))
    assert (quote["tier"], quote["fee"]) == ("gold", "2.50")
    assert state_hash(state) == before


def test_independent_writes_reach_the_same_state_in_any_order() -> None:
    calls = [
        ("dispute_transaction", ("TX-NEW", "unrecognized")),
        ("update_daily_limit", ("CARD-A", 2000)),
        ("transfer_funds", ("ACC-1", "PAY-1", 50)),
        ("transfer_funds", ("ACC-2", "ACC-1", 50)),
    ]
    hashes = set()
    for order in (calls, calls[::-1], calls[1:] + calls[:1]):
        kit = BankTools(tiny_bank())
        for name, args in order:
            getattr(kit, name)(*args)
        hashes.add(state_hash(kit.state))
    assert len(hashes) == 1


def test_schemas_derive_for_every_tool() -> None:
    specs = BankTools.specs()
    assert Counter(s.kind for s in specs.values()) == {
        ToolKind.READ: 9,
        ToolKind.WRITE: 6,
        ToolKind.GENERIC: 2,
    }
    for schema in BankTools.schemas():
        params = schema["function"]["parameters"]["properties"]
        assert all(p.get("description") for p in params.values()), schema["function"]["name"]


def test_policy_states_the_numbers_the_tools_use() -> None:
    policy = BankDomain.policy
    for text in ("2025-06-16", "2025-04-17", "60 days", "2.50 + 1%", "at most 25.00", "3000"):
        assert text in policy
    assert "| Replacement card | 10.00 | 5.00 | free |" in policy and "{" not in policy


def small_world() -> dict[str, Any]:
    return build_world(random.Random("bank-test"), customers=40)


@pytest.fixture(scope="module")
def tasks() -> list[TaskSpec]:
    """Two tasks of every intent kind (and hand-written template) of the run's world, seed 3."""
    domain = BankDomain()
    return [
        domain.sample_named(item_rng("bank", 3, i), 3, i, kind)
        for kind in domain.templates
        for i in range(2)
    ]


def test_world_is_drawn_from_the_seed_alone() -> None:
    domain = BankDomain()
    world = domain.world(7)
    assert world is domain.world(7)  # cached
    assert world_id(build_world(random.Random("bank:7:world"))) == world_id(world)
    assert world_id(domain.world(8)) != world_id(world)
    assert 150 <= len(world["customers"]) <= 180
    assert sum(len(t) for t in world.values() if isinstance(t, dict)) >= 1000
    emails = [c["email"] for c in world["customers"].values()]
    assert len(set(emails)) == len(emails)  # find_customer_by_email finds one
    assert len(small_world()["customers"]) == 40


def test_domain_samples_are_deterministic_and_leave_the_world_alone() -> None:
    domain = BankDomain()
    before = world_id(domain.world(3))
    for index in range(6):
        spec = domain.sample(item_rng("bank", 3, index), 3, index)
        assert spec == domain.sample(item_rng("bank", 3, index), 3, index)
        assert spec.initial_state is domain.world(3)  # no task changes the world
    assert world_id(domain.world(3)) == before


def test_sampled_gold_paths_replay_and_report_their_facts(tasks: list[TaskSpec]) -> None:
    for spec in tasks:
        kit = BankTools(json.loads(json.dumps(spec.initial_state)))
        outputs = [getattr(kit, a.name)(**a.arguments) for a in spec.gold_actions]
        assert 2 <= len(outputs) <= 8
        expected = {1: "easy", 2: "easy", 3: "medium", 4: "medium"}.get(len(outputs), "hard")
        assert spec.difficulty == expected
        for fact in spec.required_facts:
            assert fact_stated(fact, spec.final_message), (spec.template, fact)
            # a look-up shows it, or it is a limit of the policy a refusal gives as its reason
            refused = ".no." in spec.template or ".handoff." in spec.template
            limit = refused and fact_stated(fact, BankDomain.policy)
            assert limit or any(fact_stated(fact, out) for out in outputs), (spec.template, fact)
            assert not fact_stated(fact, spec.instruction), (spec.template, fact)
        changed = state_hash(kit.state) != state_hash(spec.initial_state)
        refusal = ".no." in spec.template or ".handoff." in spec.template
        refusal = refusal or spec.gold_actions[-1].name == "transfer_to_human_agents"
        assert spec.required_facts or changed or refusal, spec.template
    assert {t.difficulty for t in tasks} == {"easy", "medium", "hard"}


def test_every_tool_appears_in_some_gold_path(tasks: list[TaskSpec]) -> None:
    used = {a.name for t in tasks for a in t.gold_actions}
    assert used == set(BankTools.specs())


def test_openings_hold_no_known_value_and_the_caller_is_identified_first(
    tasks: list[TaskSpec],
) -> None:
    for spec in tasks:
        scenario = spec.scenario
        assert scenario is not None and scenario.opening == spec.instruction
        assert {"email", "customer id"} & set(scenario.known), spec.template
        opening = normalize_text(scenario.opening)
        for value in scenario.known.values():
            assert normalize_text(value) not in opening, (spec.template, value)
            assert re.search(r"(ACC|CUS|CARD|TX|PAY|DSP)-", scenario.opening) is None
        assert "@" not in scenario.opening
        first = spec.gold_actions[0]
        assert first.name in ("find_customer_by_email", "get_customer_details"), spec.template


def test_gold_conversations_ask_then_confirm_each_write(tasks: list[TaskSpec]) -> None:
    specs = BankTools.specs()
    for spec in tasks:
        assert spec.scenario is not None
        talk = [t for t in converse(spec.scenario, spec.gold_actions, specs) if t.call is None]
        writes = [a for a in spec.gold_actions if specs[a.name].kind is ToolKind.WRITE]
        given = " ".join(t.reply or "" for t in talk)
        for value in spec.scenario.known.values():  # every known value is asked for and given
            assert value in given, (spec.template, value)
        kinds = [t.kind for t in talk]
        assert kinds.count("yes") == len(writes), spec.template  # one yes per write, no more
        if writes:
            assert 1 + len(talk) >= 2


def test_refusals_and_hand_offs_read_only(tasks: list[TaskSpec]) -> None:
    by_name = {t.template: t for t in tasks}
    specs = BankTools.specs()
    for name in ("dispute.no.too_old", "limit.no.limit_too_high", "pay.no.over_daily_limit"):
        spec = by_name[name]
        assert all(specs[a.name].kind is not ToolKind.WRITE for a in spec.gold_actions)
        assert spec.required_facts, name
    for name in ("unfreeze", "pay.handoff.frozen", "move.handoff.frozen"):
        handoff = by_name[name]
        assert handoff.gold_actions[-1].name == "transfer_to_human_agents"
        assert "transfer_funds" not in {a.name for a in handoff.gold_actions}
    assert "move.no.over_daily_limit" not in by_name  # an own account has no payee limit
    assert {"close_savings", "dispute_or_block"} <= set(by_name)


def test_hostile_arguments_fail_calls_and_crash_no_tool():
    """check-domain's fuzzer over every bank tool (as every domain on the kit runs it)."""
    assert [p.message for p in fuzz_domain("bank", per_tool=24)] == []


def test_a_block_motive_fits_the_reason_the_caller_gives() -> None:
    """A caller blocking a stolen card never says their kids were playing with it: the motive
    in the opening or the reason for the call is one of the block reason's (`BLOCK_MOTIVES`)."""
    from domains.bank.entities import BLOCK_MOTIVES
    from toolscale.kit.phrasing import second_person

    every = {m for motives in BLOCK_MOTIVES.values() for m in motives}
    assert "My kids were playing with it." not in BLOCK_MOTIVES["stolen"]
    domain, seen = BankDomain(), Counter[str]()
    for i in range(60):
        spec = domain.sample_named(item_rng("bank", 0, i), 0, i, "block")
        assert spec.scenario is not None
        if spec.scenario.behaviour == "change":  # the opening's motive is its own request's
            continue
        reason = next(a for a in spec.gold_actions if a.name == "block_card").arguments["reason"]
        said = f"{spec.instruction} {spec.scenario.reason_for_call}"
        told = {m for m in every if m in said or second_person(m) in said}
        assert told <= set(BLOCK_MOTIVES[reason]), (reason, told)
        seen[reason] += bool(told)
    assert len(seen) == 3 and all(seen.values())  # every reason drawn, with its motives


def test_a_dispute_motive_fits_the_reason_and_a_sister_has_a_woman_s_name() -> None:
    """Reading pass, seed 7: "I returned the item weeks ago" opened a dispute of an order that
    never arrived, two days old; "my brother Elaine Chambers" was a payee. A dispute's motive is
    one of its reason's (`DISPUTE_MOTIVES`); a sister or brother payee's first name is one
    Faker gives women or men."""
    from faker import Faker

    from domains.bank.entities import DISPUTE_MOTIVES
    from toolscale.kit.phrasing import second_person

    every = {m for motives in DISPUTE_MOTIVES.values() for m in motives}
    domain, seen = BankDomain(), Counter[str]()
    for i in range(60):
        spec = domain.sample_named(item_rng("bank", 0, i), 0, i, "dispute")
        assert spec.scenario is not None
        reason = next(a for a in spec.gold_actions if a.name == "dispute_transaction")
        said = f"{spec.instruction} {spec.scenario.reason_for_call}"
        told = {m for m in every if m in said or second_person(m) in said}
        assert told <= set(DISPUTE_MOTIVES[reason.arguments["reason"]]), (reason, told)
        seen[reason.arguments["reason"]] += bool(told)
    assert len(seen) == 4 and all(seen.values())
    provider = Faker("en_US").providers
    names = {
        key: set().union(*(getattr(p, key, {}) for p in provider))
        for key in ("first_names_female", "first_names_male")
    }
    payees = [p for seed in (0, 7) for p in domain.world(seed)["payees"].values()]
    kin = {"sister": "first_names_female", "brother": "first_names_male"}
    checked = [p for p in payees if p["relation"] in kin]
    assert len(checked) > 20
    for payee in checked:
        assert payee["name"].split()[0] in names[kin[payee["relation"]]], payee


def test_the_dispute_or_block_reason_tells_the_user_no_order() -> None:
    """The condition of a dispute-or-block call, told to the user, says what they want done
    ("you want your debit card blocked"), not an order to them ("block your debit card")."""
    domain = BankDomain()
    for i in range(8):
        spec = domain.sample_named(item_rng("bank", 0, i), 0, i, "dispute_or_block")
        assert spec.scenario is not None
        reason = spec.scenario.reason_for_call
        assert "you want your debit card blocked" in reason and "block your" not in reason


def test_a_payment_motive_fits_the_payee() -> None:
    """Reading pass, seed 7: "They reminded me twice" paying a brother, "It's for the repairs
    they did" paying a tutor. A payment's motive is one of its payee kind's (`PAY_MOTIVES`)."""
    from domains.bank.entities import PAY_MOTIVES, PAYEE_KIND
    from toolscale.kit.phrasing import second_person

    every = {m for motives in PAY_MOTIVES.values() for m in motives}
    domain, seen = BankDomain(), Counter[str]()
    for i in range(80):
        spec = domain.sample_named(item_rng("bank", 0, i), 0, i, "pay")
        assert spec.scenario is not None
        sent = next(a for a in spec.gold_actions if a.name == "transfer_funds")
        payee = spec.initial_state["payees"][sent.arguments["destination_id"]]
        kind = PAYEE_KIND.get(payee["relation"], "person")
        said = f"{spec.instruction} {spec.scenario.reason_for_call}"
        told = {m for m in every if m in said or second_person(m) in said}
        assert told <= set(PAY_MOTIVES[kind]), (payee["relation"], told)
        seen[kind] += bool(told)
    assert len(seen) == 4 and all(seen.values())
