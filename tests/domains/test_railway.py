"""Railway domain: policy arithmetic and each rule's error on a tiny hand-built database, the
world, and gold replays of every intent kind."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from domains.railway import RailwayDomain, rules
from domains.railway.rules import NOW, TODAY
from domains.railway.tools import RailwayTools
from toolscale.check.fuzz import fuzz_domain
from toolscale.core.contract import ToolError, ToolKind, fact_stated, item_rng, state_hash


def _train(number: str, day: str, dep: str, standard: float, seats: int = 5) -> dict[str, Any]:
    return {
        "train_number": number,
        "origin": "LDN",
        "destination": "YRK",
        "date": day,
        "departure_time": dep,
        "arrival_time": "23:00",
        "status": "scheduled",
        "fares": {"saver": 30.0, "standard": standard, "first": 180.0},
        "seats_left": {"saver": seats, "standard": seats, "first": seats},
    }


def _booking(bid: str, cid: str, train: str, day: str, cls: str, pax: int, price: float) -> dict:
    return {
        "booking_id": bid,
        "customer_id": cid,
        "train_number": train,
        "travel_date": day,
        "fare_class": cls,
        "passengers": pax,
        "ticket_price": price,
        "luggage": 0,
        "fees_paid": 0.0,
        "status": "confirmed",
        "refund_amount": 0.0,
    }


def tiny_state() -> dict[str, Any]:
    """Today is 2025-06-10 12:00. R1 left yesterday, R2 leaves in 5 days, R3 and R4 in 20."""
    return {
        "today": TODAY,
        "now": NOW,
        "stations": {
            "LDN": {"code": "LDN", "city": "London", "name": "London Kings Cross"},
            "YRK": {"code": "YRK", "city": "York", "name": "York Station"},
        },
        "trains": {
            "R1": _train("R1", "2025-06-09", "09:00", 100.0),
            "R2": _train("R2", "2025-06-15", "08:00", 100.0),
            "R3": _train("R3", "2025-06-30", "07:00", 120.0, seats=1),
            "R4": _train("R4", "2025-06-30", "18:00", 90.0),
        },
        "customers": {
            "C1": {
                "customer_id": "C1",
                "name": "Ann Lee",
                "email": "ann@example.com",
                "membership": "regular",
                "booking_ids": ["BK1", "BK2", "BK3"],
            },
            "C2": {
                "customer_id": "C2",
                "name": "Bo Chan",
                "email": "bo@example.com",
                "membership": "gold",
                "booking_ids": ["BK4"],
            },
        },
        "bookings": {
            "BK1": _booking("BK1", "C1", "R1", "2025-06-09", "standard", 1, 100.0),
            "BK2": _booking("BK2", "C1", "R2", "2025-06-15", "standard", 2, 200.0),
            "BK3": _booking("BK3", "C1", "R2", "2025-06-15", "saver", 1, 30.0),
            "BK4": _booking("BK4", "C2", "R2", "2025-06-15", "first", 1, 180.0),
        },
        "next_booking_number": 5,
    }


@pytest.fixture
def kit() -> RailwayTools:
    return RailwayTools(tiny_state())


def test_cancel_standard_five_days_out_keeps_a_20_percent_fee(kit: RailwayTools) -> None:
    out = json.loads(kit.cancel_booking("BK2"))
    assert (out["cancellation_fee"], out["refund_amount"]) == (40.0, 160.0)
    assert kit.state["bookings"]["BK2"]["status"] == "cancelled"
    assert kit.state["bookings"]["BK2"]["refund_amount"] == 160.0
    assert kit.state["trains"]["R2"]["seats_left"]["standard"] == 7


def test_first_class_fee_is_10_percent_and_saver_refunds_nothing(kit: RailwayTools) -> None:
    assert json.loads(kit.get_refund_quote("BK4"))["refund_amount"] == 162.0
    assert json.loads(kit.get_refund_quote("BK3"))["refund_amount"] == 0.0


def test_departed_or_cancelled_bookings_cannot_be_cancelled(kit: RailwayTools) -> None:
    with pytest.raises(rules.Departed, match="departed"):
        kit.cancel_booking("BK1")
    kit.cancel_booking("BK2")
    with pytest.raises(rules.NotActive, match="already cancelled"):
        kit.cancel_booking("BK2")
    with pytest.raises(ToolError, match="no booking"):
        kit.cancel_booking("BK99")


def test_operator_cancellation_refunds_ticket_and_fees_even_for_saver(kit: RailwayTools) -> None:
    kit.state["trains"]["R2"]["status"] = "cancelled"
    kit.state["bookings"]["BK3"]["fees_paid"] = 12.5
    assert json.loads(kit.cancel_booking("BK3"))["refund_amount"] == 42.5
    with pytest.raises(rules.OperatorCancelled, match="cancel the booking"):
        kit.change_booking("BK2", "R4")
    for refused in (lambda: kit.add_luggage("BK2", 1), lambda: kit.upgrade_class("BK2")):
        with pytest.raises(rules.OperatorCancelled, match="cancelled by the operator"):
            refused()


def test_change_charges_fee_per_passenger_plus_higher_fare(kit: RailwayTools) -> None:
    kit.state["trains"]["R3"]["seats_left"]["standard"] = 2
    out = json.loads(kit.change_booking("BK2", "R3"))  # regular, 2 passengers, 240 vs 200 paid
    assert (out["change_fee"], out["fare_difference"], out["total_to_pay"]) == (30.0, 40.0, 70.0)
    booking = kit.state["bookings"]["BK2"]
    assert (booking["train_number"], booking["travel_date"]) == ("R3", "2025-06-30")
    assert (booking["ticket_price"], booking["fees_paid"]) == (240.0, 30.0)
    assert kit.state["trains"]["R2"]["seats_left"]["standard"] == 7
    assert kit.state["trains"]["R3"]["seats_left"]["standard"] == 0


def test_gold_pays_no_change_fee_and_a_lower_fare_is_not_refunded(kit: RailwayTools) -> None:
    kit.state["trains"]["R4"]["fares"]["first"] = 150.0
    out = json.loads(kit.change_booking("BK4", "R4"))
    assert (out["change_fee"], out["fare_difference"], out["total_to_pay"]) == (0.0, -30.0, 0.0)
    assert kit.state["bookings"]["BK4"]["ticket_price"] == 180.0


def test_change_refusals(kit: RailwayTools) -> None:
    with pytest.raises(rules.SaverFixed, match="saver"):
        kit.change_booking("BK3", "R4")
    with pytest.raises(rules.SoldOut, match="seat"):
        kit.change_booking("BK2", "R3")  # one standard seat left, two passengers
    with pytest.raises(ToolError, match="departed"):
        kit.change_booking("BK2", "R1")
    kit.state["trains"]["R4"]["destination"] = "LDN"
    with pytest.raises(ToolError, match="same route"):
        kit.change_booking("BK2", "R4")


def test_upgrade_charges_first_fare_minus_price_paid(kit: RailwayTools) -> None:
    out = json.loads(kit.upgrade_class("BK2"))  # 2 x 180 - 200
    assert out["upgrade_cost"] == 160.0
    assert kit.state["bookings"]["BK2"]["fare_class"] == "first"
    assert kit.state["bookings"]["BK2"]["ticket_price"] == 360.0
    assert kit.state["trains"]["R2"]["seats_left"] == {"saver": 5, "standard": 7, "first": 3}
    with pytest.raises(rules.NotStandard, match="only standard"):
        kit.upgrade_class("BK2")


def test_luggage_beyond_the_tier_allowance_costs_12_50_a_bag(kit: RailwayTools) -> None:
    kit.state["customers"]["C1"]["membership"] = "silver"  # 1 free bag per passenger: 2 free
    kit.state["bookings"]["BK2"]["luggage"] = 1
    out = json.loads(kit.add_luggage("BK2", 3))
    assert out == {"booking_id": "BK2", "luggage": 4, "fee": 25.0}
    assert kit.state["bookings"]["BK2"]["fees_paid"] == 25.0
    with pytest.raises(rules.TooManyBags, match="at most 3 bags"):
        kit.add_luggage("BK2", 3)
    assert json.loads(kit.add_luggage("BK4", 2))["fee"] == 0.0  # gold: 2 free


def test_book_ticket_takes_next_id_and_seats(kit: RailwayTools) -> None:
    out = json.loads(kit.book_ticket("C2", "R4", "standard", 3))
    assert (out["booking_id"], out["ticket_price"]) == ("BK5", 270.0)
    assert kit.state["customers"]["C2"]["booking_ids"] == ["BK4", "BK5"]
    assert kit.state["trains"]["R4"]["seats_left"]["standard"] == 2
    assert kit.state["next_booking_number"] == 6
    with pytest.raises(rules.SoldOut, match="seat"):
        kit.book_ticket("C2", "R3", "first", 2)
    with pytest.raises(ToolError, match="departed"):
        kit.book_ticket("C2", "R1", "first", 1)
    with pytest.raises(rules.GroupBooking, match="group travel desk") as group:
        kit.book_ticket("C2", "R4", "standard", 7)
    assert group.value.handoff and not rules.SoldOut.handoff


def test_search_accepts_city_or_code_and_sorts_by_departure(kit: RailwayTools) -> None:
    by_city = json.loads(kit.search_trains("london", "York", "2025-06-30"))
    assert [t["train_number"] for t in by_city] == ["R3", "R4"]
    assert kit.search_trains("LDN", "YRK", "2025-06-30") == json.dumps(by_city)
    assert json.loads(kit.search_trains("LDN", "YRK", "2025-06-09"))[0]["status"] == "departed"
    with pytest.raises(ToolError, match="unknown station"):
        kit.search_trains("Paris", "York", "2025-06-30")


def test_read_tools_leave_the_state_unchanged(kit: RailwayTools) -> None:
    before = state_hash(kit.state)
    kit.get_customer_details("C1")
    kit.find_customer_by_email("ANN@example.com")
    kit.get_booking_details("BK2")
    kit.list_customer_bookings("C1")
    kit.list_stations()
    kit.search_trains("LDN", "YRK", "2025-06-15")
    kit.get_train_details("R3")
    kit.get_fare("R3", "first", 2)
    kit.get_refund_quote("BK2")
    kit.get_change_quote("BK2", "R4")
    kit.get_upgrade_quote("BK2")
    assert state_hash(kit.state) == before


def test_toolkit_has_typed_schemas_and_kinds() -> None:
    specs = RailwayTools.specs()
    assert len(RailwayTools.schemas()) == len(specs) >= 12
    writes = {n for n, s in specs.items() if s.kind == ToolKind.WRITE}
    assert writes == {
        "book_ticket",
        "cancel_booking",
        "change_booking",
        "upgrade_class",
        "add_luggage",
    }
    assert {"calculate", "transfer_to_human_agents"} <= set(specs)


def test_policy_states_the_fixed_clock() -> None:
    assert f"Today is {TODAY} and the current time is {NOW[-5:]}" in RailwayDomain.policy


def _replay(state: dict[str, Any], actions: list) -> tuple[RailwayTools, list[str]]:
    kit = RailwayTools(json.loads(json.dumps(state)))
    return kit, [getattr(kit, a.name)(**a.arguments) for a in actions]


@pytest.fixture(scope="module")
def every_kind() -> list:
    """Two tasks of every intent kind (and the hand-written template), seed 0."""
    domain = RailwayDomain()
    return [
        domain.sample_named(item_rng("railway", 0, i), 0, i, kind)
        for kind in domain.templates
        for i in range(2)
    ]


def test_gold_replays_reach_the_goal_and_state_the_facts(every_kind) -> None:
    specs = RailwayTools.specs()
    for spec in every_kind:
        kit, outputs = _replay(spec.initial_state, spec.gold_actions)
        again, outputs_again = _replay(spec.initial_state, spec.gold_actions)
        assert outputs == outputs_again and state_hash(kit.state) == state_hash(again.state)
        writes = [a for a in spec.gold_actions if specs[a.name].kind == "write"]
        assert bool(writes) == (state_hash(kit.state) != state_hash(spec.initial_state))
        # a refusal whose reason the caller gave ("saver") states no fact: its look-up proves it
        refusal = ".no." in spec.template or ".handoff." in spec.template
        refusal = refusal or spec.gold_actions[-1].name == "transfer_to_human_agents"
        assert writes or spec.required_facts or refusal, spec.template
        for fact in spec.required_facts:
            assert fact_stated(fact, spec.final_message), (spec.template, fact)
            assert not fact_stated(fact, spec.instruction), (spec.template, fact)
            refused = ".no." in spec.template or ".handoff." in spec.template
            limit = refused and fact_stated(fact, RailwayDomain.policy)
            assert limit or any(fact_stated(fact, out) for out in outputs), (spec.template, fact)
        assert 1 <= len(spec.gold_actions) <= 8
    assert {s.difficulty for s in every_kind} == {"easy", "medium", "hard"}


def test_each_rule_gives_a_refusal_without_a_write_and_groups_a_hand_off(every_kind) -> None:
    specs = RailwayTools.specs()
    kinds = {s.template: s for s in every_kind}
    for rule in ("departed", "not_active", "saver_fixed", "sold_out", "not_standard"):
        assert any(k.endswith(f".no.{rule}") for k in kinds), rule
    for name, spec in kinds.items():
        if ".no." in name:
            assert all(specs[a.name].kind != "write" for a in spec.gold_actions), name
    group = kinds["book.handoff.group_booking"]
    assert group.gold_actions[-1].name == "transfer_to_human_agents"
    assert "book_ticket" not in {a.name for a in group.gold_actions}


def test_a_run_draws_one_world_of_hundreds_of_records_and_tasks_start_from_it() -> None:
    domain = RailwayDomain()
    world = domain.world(0)
    assert world is domain.world(0)  # drawn once per run seed
    assert world != domain.world(1)
    assert sum(len(world[t]) for t in ("stations", "trains", "customers", "bookings")) >= 500
    before = state_hash(world)
    specs = [domain.sample(item_rng("railway", 0, i), 0, i) for i in range(40)]
    assert state_hash(world) == before  # no task changed the shared world
    assert all(s.initial_state is world for s in specs)


def test_openings_hold_no_known_value_and_every_tool_is_in_some_gold_path(every_kind) -> None:
    used: set[str] = set()
    for spec in every_kind:
        assert spec.scenario is not None and spec.instruction == spec.scenario.opening
        for value in spec.scenario.known.values():
            assert value.lower() not in spec.instruction.lower()
        used |= {a.name for a in spec.gold_actions}
    assert used == set(RailwayTools.specs())


def test_indexes_give_varied_tasks() -> None:
    domain = RailwayDomain()
    specs = [domain.sample(item_rng("railway", 0, i), 0, i) for i in range(20)]
    assert len({s.instruction for s in specs}) == 20
    assert specs[3] == domain.sample(item_rng("railway", 0, 3), 0, 3)
    other = domain.sample(item_rng("railway", 1, 0), 1, 0)
    assert other.initial_state != specs[0].initial_state


def test_hostile_arguments_fail_calls_and_crash_no_tool():
    """check-domain's fuzzer over every railway tool (as every domain on the kit runs it)."""
    assert [p.message for p in fuzz_domain("railway", per_tool=24)] == []


def test_a_refund_question_says_now_not_today_after_a_dated_booking() -> None:
    """ "cancelled my trip on Wednesday 2 July today" reads as two days: a refund question
    names the day of cancelling as "now" (the `today_dated` check of check-domain)."""
    from toolscale.check.consistency import scenario_problems
    from toolscale.core.registry import get_domain
    from toolscale.sample.tasks import build_task

    domain = get_domain("railway")
    refunds = [domain.sample_named(item_rng("railway", 0, i), 0, i, "refund") for i in range(40)]
    assert any("cancelled" in spec.instruction for spec in refunds)
    task = build_task(domain, 0, 0, 15.0).task
    for spec in refunds:
        assert spec.scenario is not None
        told = task.model_copy(
            update={"instruction": spec.instruction, "user_scenario": spec.scenario}
        )
        kinds = {kind for kind, _ in scenario_problems(told, domain.toolkit)}
        assert "today_dated" not in kinds, spec.instruction


def _seed7(count: int) -> list:
    from toolscale.core.registry import get_domain
    from toolscale.sample.tasks import build_task

    domain = get_domain("railway")
    return [build_task(domain, 7, i, 15.0) for i in range(count)]


def test_a_booking_is_named_by_the_day_it_travels_not_a_day_it_was_bought() -> None:
    """ "the trip I booked on Saturday 7 June" reads as the day of buying (the reading pass,
    seed 7: 105 of 400 tasks); a booking is "booked for" its travel day, "today" when it is."""
    from domains.railway import _booking_words

    world = {"today": TODAY, "stations": {c: {"city": c.title()} for c in ("LDN", "YRK")}}
    booking = {"booking_id": "BK4626", "fare_class": "first", "origin": "LDN"}
    booking |= {"destination": "YRK", "travel_date": "2025-06-07"}
    assert _booking_words(booking, world, True) == (
        "the Ldn to Yrk booking I made for Saturday 7 June (first class)"
    )
    assert "made for today" in _booking_words({**booking, "travel_date": TODAY}, world, True)
    told = re.compile(r"\b(?:booked|made) on (?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b")
    for item in _seed7(400):
        task, scenario = item.task, item.task.user_scenario
        texts = [task.instruction, scenario.reason_for_call, scenario.task_instructions]
        assert not told.search(" ".join(texts)), task.instruction


def test_a_train_asked_about_after_it_left_left_earlier_today() -> None:
    """A caller does not ask to cancel, change, upgrade or add bags to a trip of days ago (33 of
    400 tasks before): a departed refusal is of a train that left this morning, and the caller
    who missed it says so only then."""
    import random

    from domains.railway import CANCEL_MOTIVES, MISSED, _left_today, _missed
    from toolscale.kit import Draw

    world = {
        "today": TODAY,
        "now": NOW,
        "trains": {"RW1": _train("RW1", "2025-06-07", "07:40", 60.0)},
    }
    booking = {"booking_id": "BK1", "train_number": "RW1", "travel_date": "2025-06-07"}
    draw = Draw(random.Random(0), world, {"booking": booking})
    assert not _left_today(draw) and _missed(CANCEL_MOTIVES)(draw) == (MISSED,)
    world["trains"]["RW1"] = _train("RW1", TODAY, "07:40", 60.0)
    assert _left_today(
        Draw(random.Random(0), world, {"booking": {**booking, "travel_date": TODAY}})
    )
    departed = 0
    for item in _seed7(400):
        if ".no.departed" in item.task.template:
            departed += 1
            refused = item.task.initial_state["bookings"][item.refused.arguments["booking_id"]]
            assert refused["travel_date"] == TODAY, item.task.instruction
    assert departed >= 10
