"""Travel domain: every rule refusing on a tiny hand-built desk, quotes and refunds computed by
hand, the world's size and build time, the rendered policy, and one generate -> validate round."""

from __future__ import annotations

import time
from typing import Any

import pytest

from domains.travel import TravelDomain, rules
from domains.travel.tools import TravelTools
from tests.domains.rounds import gold_round
from toolscale.core.contract import ToolError


def _trip(tid: str, start: str, end: str, **extra: Any) -> dict[str, Any]:
    base = {"trip_id": tid, "traveller_id": "TR1", "city": "Kyoto", "country": "Japan"}
    fields = {"status": "booked", "price": 2000.0, "points_credit": 0.0, "insurance": ""}
    return {**base, "start": start, "end": end, **fields, **extra}


def tiny_state() -> dict[str, Any]:
    """Today is 2025-09-01. TR1 (Indian, gold, 30,000 points) has TP1 in Kyoto from 09-20 to
    09-30, TP2 leaving in 5 days, TP3 in 40 days, TP4 under way; H1 in Kyoto has 2 rooms a
    night and one is taken on 09-21; ST1 on TP1 checks in on 09-02 (within two days)."""
    return {
        "now": rules.NOW,
        "visas": {"Japan": {"needs": ["IN"], "fee": 35.0}, "Peru": {"needs": [], "fee": 0.0}},
        "hotels": {
            "H1": {
                "hotel_id": "H1",
                "name": "Lotus Inn",
                "city": "Kyoto",
                "stars": 4,
                "board": "breakfast",
                "nightly_rate": 100.0,
                "rooms": 2,
            },
            "H2": {
                "hotel_id": "H2",
                "name": "Coral Court",
                "city": "Cusco",
                "stars": 3,
                "board": "room only",
                "nightly_rate": 80.0,
                "rooms": 3,
            },
        },
        "travellers": {
            "TR1": {
                "traveller_id": "TR1",
                "name": "Asha Rao",
                "email": "asha@example.com",
                "phone": "555-0001",
                "nationality": "IN",
                "passport_expiry": "2027-01-01",
                "visas": [],
                "tier": "gold",
                "points": 30000,
            },
        },
        "trips": {
            "TP1": _trip("TP1", "2025-09-20", "2025-09-30"),
            "TP2": _trip("TP2", "2025-09-06", "2025-09-12"),
            "TP3": _trip("TP3", "2025-10-11", "2025-10-20", price=500.0, insurance="basic"),
            "TP4": _trip("TP4", "2025-08-30", "2025-09-04"),
        },
        "stays": {
            "ST1": {
                "stay_id": "ST1",
                "trip_id": "TP4",
                "hotel_id": "H1",
                "check_in": "2025-09-02",
                "nights": 2,
                "rooms": 1,
                "price": 180.0,
                "status": "booked",
            },
            "ST2": {
                "stay_id": "ST2",
                "trip_id": "TP1",
                "hotel_id": "H1",
                "check_in": "2025-09-21",
                "nights": 1,
                "rooms": 1,
                "price": 90.0,
                "status": "booked",
            },
        },
        "next_trip": 10,
        "next_stay": 10,
    }


def test_stays_are_priced_with_the_gold_discount_and_rooms_run_out() -> None:
    kit = TravelTools(tiny_state())
    quote = kit.quote_stay("TP1", "H1", "2025-09-20", 3, 1)
    assert (quote["total"], quote["rooms_left"], quote["bookable"]) == (270.0, 1, True)  # 3x100x0.9
    booked = kit.book_hotel_stay("TP1", "H1", "2025-09-20", 3, 1)
    assert (booked["stay_id"], booked["price"]) == ("ST10", 270.0)
    with pytest.raises(rules.NoRooms, match="0 rooms left"):
        kit.book_hotel_stay("TP1", "H1", "2025-09-21", 1, 1)  # ST2 and ST10 fill both rooms


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (("TP1", "H1", "2025-09-20", 2, 5), rules.GroupBooking, "group desk"),
        (("TP1", "H2", "2025-09-20", 2, 1), rules.WrongCity, "is in Cusco"),
        (("TP1", "H1", "2025-09-28", 3, 1), rules.OutsideTrip, "within the trip"),
        (("TP4", "H1", "2025-08-31", 1, 1), rules.OutsideTrip, "not before today"),
    ],
)
def test_each_stay_rule_refuses_with_its_error(args, error, message) -> None:
    kit = TravelTools(tiny_state())
    with pytest.raises(error, match=message):
        kit.book_hotel_stay(*args)
    assert message in kit.quote_stay(*args)["reason"]
    assert error.handoff == (error is rules.GroupBooking)


def test_refunds_follow_the_days_to_departure() -> None:
    kit = TravelTools(tiny_state())
    assert kit.get_cancellation_quote("TP3")["refund"] == 450.0  # 40 days: 500 - 50
    assert kit.get_cancellation_quote("TP1")["refund"] == 1000.0  # 19 days: half
    assert kit.get_cancellation_quote("TP2")["refund"] == 0.0  # 5 days: nothing
    done = kit.cancel_trip("TP1")
    assert done["cancellation_fee"] == 1000.0 and kit.state["stays"]["ST2"]["status"] == "cancelled"
    with pytest.raises(rules.TripNotOpen, match="TP1 is cancelled"):
        kit.cancel_trip("TP1")
    with pytest.raises(rules.Departed, match="already began on 2025-08-30"):
        kit.cancel_trip("TP4")


def test_stays_cancel_until_two_days_before_check_in() -> None:
    kit = TravelTools(tiny_state())
    with pytest.raises(rules.LateStayCancel, match="2025-09-02"):
        kit.cancel_stay("ST1")
    assert kit.cancel_stay("ST2")["refund"] == 90.0
    with pytest.raises(rules.StayNotActive, match="ST2 is cancelled"):
        kit.cancel_stay("ST2")


def test_insurance_premiums_and_its_rules() -> None:
    kit = TravelTools(tiny_state())
    assert kit.get_insurance_quote("TP1", "Comprehensive")["premium"] == 140.0  # 7% of 2000
    assert kit.add_travel_insurance("TP1", "basic")["charged"] == 80.0
    with pytest.raises(rules.AlreadyInsured, match="basic plan"):
        kit.add_travel_insurance("TP3", "basic")
    with pytest.raises(rules.InsuranceTooLate, match="7 days"):
        kit.add_travel_insurance("TP2", "basic")
    with pytest.raises(ToolError, match="choose one of basic, comprehensive"):
        kit.get_insurance_quote("TP1", "platinum")


def test_visas_need_time_a_passport_and_a_country_that_asks() -> None:
    state = tiny_state()
    kit = TravelTools(state)
    assert kit.check_entry_requirements("TP1")["visa_fee"] == 35.0
    with pytest.raises(rules.UrgentVisa, match="documents team"):
        kit.apply_for_visa("TP2")  # leaves in 5 days < 15
    assert kit.apply_for_visa("TP1")["ready_by"] == "2025-09-16"
    with pytest.raises(rules.VisaNotRequired, match="no visa application"):
        kit.apply_for_visa("TP3")  # Japan's visa is on file now
    state["travellers"]["TR1"]["passport_expiry"] = "2026-01-01"  # < TP3's end + 180 days
    state["travellers"]["TR1"]["visas"] = []
    with pytest.raises(rules.PassportExpires, match="2026-04-18"):
        kit.apply_for_visa("TP3")


def test_points_pay_at_most_half_of_what_is_due() -> None:
    kit = TravelTools(tiny_state())
    paid = kit.redeem_points("TP1", 20000)
    assert (paid["credit"], paid["still_due"], paid["points_left"]) == (200.0, 1800.0, 10000)
    with pytest.raises(rules.NotEnoughPoints, match="holds 10000"):
        kit.redeem_points("TP1", 20000)
    with pytest.raises(rules.PointsCap, match=r"at most 50% of the 500\.00"):
        TravelTools(tiny_state()).redeem_points("TP3", 30000)  # 300.00 > 500 / 2
    with pytest.raises(ToolError, match="steps of 100"):
        kit.redeem_points("TP1", 150)


def test_finders_and_listers_answer_from_the_desk() -> None:
    kit = TravelTools(tiny_state())
    assert kit.find_traveller_by_email("ASHA@example.com")["traveller_id"] == "TR1"
    assert kit.find_traveller_by_phone("555-0001")["points"] == 30000
    assert [t["trip_id"] for t in kit.list_traveller_trips("TR1")] == ["TP1", "TP2", "TP3", "TP4"]
    assert kit.list_trip_stays("TP1")[0]["hotel_name"] == "Lotus Inn"
    assert kit.get_stay("ST1")["hotel_name"] == "Lotus Inn"
    assert [h["hotel_id"] for h in kit.search_hotels("kyoto", "Breakfast")] == ["H1"]
    assert kit.find_hotel("coral court")["city"] == "Cusco"
    assert kit.get_trip("TP2")["end"] == "2025-09-12" and kit.get_traveller("TR1")["tier"] == "gold"


def test_the_world_is_big_fast_and_the_policy_has_its_numbers() -> None:
    domain = TravelDomain()
    started = time.perf_counter()
    world = domain.world(7)
    assert time.perf_counter() - started < 1.5  # ~0.1 s here; generous for a loaded machine
    sizes = {t: len(world[t]) for t in ("hotels", "travellers", "trips", "stays")}
    assert sizes["hotels"] == 40 and sizes["travellers"] == 150
    assert sizes["trips"] >= 200 and sizes["stays"] >= 200
    assert "$50.00 fee" in domain.policy and "{" not in domain.policy
    assert 18 <= len(TravelTools.specs()) <= 22


@pytest.mark.slow
def test_generated_tasks_verify_and_validate(tmp_path) -> None:
    gold_round("travel", tmp_path / "out")


@pytest.mark.slow
def test_a_redemption_says_the_points_asked_for_not_the_balance(tmp_path) -> None:
    """The reading pass (seed 7) met "71600 points are redeemed" for a caller who asked for
    40000 (71600 was the balance the traveller look-up showed; 5 of the 5 redemptions among 60
    generated traces): the final message names the points the call redeemed."""
    import glob
    import json

    import pandas as pd
    from typer.testing import CliRunner

    from toolscale.cli import app

    out = tmp_path / "run"
    args = ["generate", "--domains", "travel", "--num-tasks", "12", "--seed", "7"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    traces = pd.concat(pd.read_parquet(f) for f in glob.glob(f"{out}/data/traces/*.parquet"))
    seen = 0
    for _, trace in traces[traces.variant == "gold"].iterrows():
        for call in trace.tool_calls:
            if call["name"] == "redeem_points":
                asked = json.loads(call["arguments"])["points"]
                assert f"{asked} points are redeemed" in trace.messages[-1]["content"]
                seen += 1
    assert seen >= 1
