"""Restaurant domain: policy arithmetic and refusals on a tiny hand-built state, the world's size,
the rendered policy, and hostile arguments."""

from __future__ import annotations

from typing import Any

import pytest

from domains.restaurant import RestaurantDomain, rules
from domains.restaurant.tools import RestaurantTools
from toolscale.check.fuzz import fuzz_domain
from toolscale.core.contract import ToolError


def _reservation(rid: str, day: str, time: str, party: int, **extra: Any) -> dict[str, Any]:
    base = {
        "reservation_id": rid,
        "customer_id": "CU1",
        "restaurant_id": "R1",
        "date": day,
        "time": time,
        "party_size": party,
        "status": "confirmed",
        "deposit_paid": 0.0,
        "requests": [],
    }
    return {**base, **extra}


def tiny_state() -> dict[str, Any]:
    """Now is Monday 2025-07-14 15:00. R1 closes on Tuesdays and has 2 tables per seating;
    RS1 is tonight at 19:00 (within 24 hours), RS2 next Friday, and Friday 20:00 is full."""
    return {
        "now": rules.NOW,
        "restaurants": {
            "R1": {
                "restaurant_id": "R1",
                "name": "Copper Fig",
                "area": "Old Town",
                "cuisine": "Thai",
                "closed_on": "Tuesday",
                "times": ["19:00", "20:00"],
                "tables": 2,
                "menu": [{"dish": "tofu noodles", "kind": "vegan", "price": 12.5}],
            }
        },
        "customers": {
            "CU1": {
                "customer_id": "CU1",
                "name": "Ann Lee",
                "email": "ann@example.com",
                "phone": "555-0001",
                "tier": "member",
            },
            "CU2": {
                "customer_id": "CU2",
                "name": "Bo Chan",
                "email": "bo@example.com",
                "phone": "555-0002",
                "tier": "gold",
            },
        },
        "reservations": {
            "RS1": _reservation("RS1", "2025-07-14", "19:00", 4, deposit_paid=0.0),
            "RS2": _reservation("RS2", "2025-07-18", "19:00", 6, deposit_paid=90.0),
            "RS3": _reservation("RS3", "2025-07-18", "20:00", 2),
            "RS4": _reservation("RS4", "2025-07-18", "20:00", 2, customer_id="CU2"),
        },
        "next_reservation": 100,
    }


def test_late_cancellation_costs_per_guest_and_early_is_free() -> None:
    kit = RestaurantTools(tiny_state())
    late = kit.get_cancellation_quote("RS1")
    assert (late["cancellation_fee"], late["deposit_refund"]) == (30.0, 0.0)  # 4 x 7.50
    early = kit.cancel_reservation("RS2")
    assert (early["cancellation_fee"], early["deposit_refund"]) == (0.0, 90.0)
    assert kit.state["reservations"]["RS2"]["status"] == "cancelled"
    with pytest.raises(rules.NotActive, match="RS2 is cancelled"):
        kit.cancel_reservation("RS2")


def test_deposits_follow_party_size_and_tier() -> None:
    kit = RestaurantTools(tiny_state())
    member = kit.check_availability("CU1", "R1", "2025-07-17", "19:00", 6)
    gold = kit.check_availability("CU2", "R1", "2025-07-17", "19:00", 6)
    assert (member["deposit"], gold["deposit"], member["tables_left"]) == (90.0, 0.0, 2)
    booked = kit.book_table("CU1", "R1", "2025-07-17", "19:00", 5)
    assert (booked["reservation_id"], booked["deposit_paid"]) == ("RS100", 0.0)
    assert kit.change_party_size("RS100", 7)["deposit_change"] == 105.0


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (("2025-07-17", "19:00", 12), rules.LargeParty, "events team"),
        (("2025-08-20", "19:00", 2), rules.TooFarAhead, "30 days ahead"),
        (("2025-07-14", "16:00", 2), rules.TooSoon, "2 hours' notice"),
        (("2025-07-15", "19:00", 2), rules.Closed, "closed on Tuesdays"),
        (("2025-07-18", "20:00", 2), rules.NoTable, "no table left"),
    ],
)
def test_each_booking_rule_refuses_with_its_error(args, error, message) -> None:
    kit = RestaurantTools(tiny_state())
    with pytest.raises(error, match=message):
        kit.book_table("CU1", "R1", *args)
    why = kit.check_availability("CU1", "R1", *args)
    assert why["bookable"] is False and message in why["reason"]
    assert error.handoff == (error is rules.LargeParty)


def test_changes_need_a_day_of_notice_and_requests_are_capped() -> None:
    kit = RestaurantTools(tiny_state())
    with pytest.raises(rules.TooLateToChange, match="19:00"):
        kit.reschedule_reservation("RS1", "2025-07-17", "20:00")
    kit.add_special_request("RS2", "high chair")
    kit.add_special_request("RS2", "window seat")
    with pytest.raises(rules.TooManyRequests, match="high chair; window seat"):
        kit.add_special_request("RS2", "cake")
    with pytest.raises(ToolError, match="no reservation with id 'RS9'"):
        kit.get_reservation("RS9")


def test_the_world_has_hundreds_of_records_and_the_policy_its_numbers() -> None:
    domain = RestaurantDomain()
    world = domain.world(0)
    sizes = {t: len(world[t]) for t in ("restaurants", "customers", "reservations")}
    assert sizes["restaurants"] == 24 and sizes["customers"] == 160
    assert sizes["reservations"] >= 400
    assert domain.world(0) is world  # built once per seed
    assert "$15.00 per guest" in domain.policy and "{" not in domain.policy
    assert 15 <= len(RestaurantTools.specs()) <= 20


def test_hostile_arguments_fail_calls_and_crash_no_tool() -> None:
    assert [p.message for p in fuzz_domain("restaurant", per_tool=16)] == []


def _draw(reservation: dict[str, Any], **extra: Any) -> Any:
    import random

    from toolscale.kit import Draw

    return Draw(random.Random(0), {}, {"reservation": reservation}, extra=extra)


def test_a_motive_fits_the_change_it_asks_for() -> None:
    """The reading pass (seed 7) met "Two people dropped out" for a party grown to twelve and
    "My father uses a wheelchair" for a birthday cake (44 and 19 of 400 tasks): a party's
    motive fits its change, a special request's its note, and each note has its article."""
    from domains.restaurant import NOTE_MOTIVES, NOTED, _party_motives

    four = {"party_size": 4}
    assert _party_motives(_draw(four, party_size=2)) == ("Two people dropped out.",)
    assert _party_motives(_draw(four, party_size=12)) == ("More of the family are coming.",)
    assert _party_motives(_draw(four, party_size=5)) == ("My cousin is joining us too.",)
    assert "wheelchair" not in " ".join(NOTE_MOTIVES["birthday cake"])
    assert NOTED["wheelchair access"] == "wheelchair access"
    from toolscale.core.registry import get_domain
    from toolscale.kit.phrasing import second_person
    from toolscale.sample.tasks import build_task

    domain, seen = get_domain("restaurant"), set()
    for index in range(400):
        item = build_task(domain, 7, index, 15.0)
        task, reason = item.task, item.task.user_scenario.reason_for_call
        assert "a wheelchair access" not in task.instruction + reason
        asked = [*task.gold_actions, *([item.refused.as_dict()] if item.refused else [])]
        if task.template.startswith("change_party_size"):
            call = next(a for a in asked if a["name"] == "change_party_size")["arguments"]
            before = task.initial_state["reservations"][call["reservation_id"]]["party_size"]
            change = max(-3, min(3, call["party_size"] - before))
            fits = _party_motives(_draw({"party_size": 0}, party_size=change))
            assert any(second_person(m) in reason for m in fits), (change, reason)
            seen.add("party")
        if task.template.startswith("add_special_request"):
            call = next(a for a in asked if a["name"] == "add_special_request")["arguments"]
            told = [m for ms in NOTE_MOTIVES.values() for m in ms if second_person(m) in reason]
            assert all(m in NOTE_MOTIVES[call["note"]] for m in told), (call["note"], reason)
            seen.add("note")
    assert seen == {"party", "note"}


def test_a_refusal_says_a_no_show_in_words() -> None:
    """ "reservation RS11223 is no_show" (the reading pass, seed 7): the status is said in words."""
    state = {
        "now": "2025-07-14T15:00",
        "reservations": {"RS1": {"reservation_id": "RS1", "status": "no_show", "date": "x"}},
    }
    with pytest.raises(rules.NotActive, match=r"reservation RS1 was a no-show$"):
        rules.changeable(state, "RS1")
