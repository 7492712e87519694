"""Tasks consistent with their policy (issue 46, item 3): each check fails on a task of the
inconsistent kind it names, and the kit's composed tasks keep every one."""

from __future__ import annotations

import random
from typing import Any

import pytest

from toolscale.check.identification import identification_problems
from toolscale.core.contract import Action
from toolscale.core.registry import get_domain
from toolscale.kit import KitError
from toolscale.kit.identify import Identification
from toolscale.kit.invariants import distinct
from toolscale.kit.sampling import opener_of

RULED = ["bank", "basketball", "medicine", "movie", "restaurant", "travel", "weather"]
RECORD_IDS = {"ecommerce": ("order",), "railway": ("booking",), "school": ("student",)}


def _problems(name: str, route: list[Action], held: list[str]) -> list[str]:
    domain: Any = get_domain(name)
    state = domain.world(0)
    return identification_problems(
        domain.composer.graph, domain.identification, domain.toolkit, state, route, held
    )


def _a_reservation() -> tuple[dict[str, Any], dict[str, Any]]:
    world = get_domain("restaurant").world(0)  # type: ignore[attr-defined]
    reservation = next(iter(world["reservations"].values()))
    return reservation, world["customers"][reservation["customer_id"]]


def test_every_stateful_domain_declares_its_rule() -> None:
    for name in [*RULED, *RECORD_IDS]:
        rule = get_domain(name).identification  # type: ignore[attr-defined]
        assert isinstance(rule, Identification)
        assert rule.records == RECORD_IDS.get(name, ())


def test_a_record_id_alone_breaks_a_profile_first_policy() -> None:
    reservation, customer = _a_reservation()
    rid = reservation["reservation_id"]
    alone = _problems("restaurant", [Action("get_reservation", {"reservation_id": rid})], [rid])
    assert [line.split(":")[0] for line in alone] == ["identify"]
    assert customer["customer_id"] in alone[0]
    first = [
        Action("find_customer_by_email", {"email": customer["email"]}),
        Action("get_reservation", {"reservation_id": rid}),
    ]
    assert _problems("restaurant", first, [customer["email"], rid]) == []


def test_a_field_the_policy_does_not_name_does_not_identify() -> None:
    world = get_domain("bank").world(0)  # type: ignore[attr-defined]
    card = next(iter(world["cards"].values()))
    route = [Action("get_card_details", {"card_id": card["card_id"]})]
    assert [p.split(":")[0] for p in _problems("bank", route, [card["card_id"]])] == ["identify"]


def test_a_record_id_the_policy_accepts_identifies() -> None:
    world = get_domain("railway").world(0)  # type: ignore[attr-defined]
    booking = next(iter(world["bookings"].values()))["booking_id"]
    route = [Action("get_booking_details", {"booking_id": booking})]
    assert _problems("railway", route, [booking]) == []


def test_two_values_of_one_detail_break_the_held_check() -> None:
    """A guardian's caller knows one child's id; the gold route looks up both."""
    world = get_domain("school").world(0)  # type: ignore[attr-defined]
    family: dict[str, list[str]] = {}
    for student in world["students"].values():
        family.setdefault(student["guardian_id"], []).append(student["student_id"])
    one, two = next(ids for ids in family.values() if len(ids) >= 2)[:2]
    route = [Action("get_student", {"student_id": s}) for s in (one, two)]
    found = _problems("school", route, [two])
    assert len(found) == 1 and found[0].startswith("held: get_student") and one in found[0]


def test_the_rule_names_served_fields_only() -> None:
    graph = get_domain("restaurant").composer.graph  # type: ignore[attr-defined]
    with pytest.raises(KitError, match="by 'passport'"):
        Identification("customer", ("email", "passport")).check(graph)
    rule = Identification("customer", ("email",))
    assert rule.anchor(graph, "reservation") == "customer"
    assert rule.anchor(graph, "restaurant") is None and rule.anchor(graph, "customer") is None


def test_siblings_named_alike_break_the_invariant() -> None:
    state = {
        "students": {
            "S1": {"guardian_id": "G1", "first_name": "Lisa"},
            "S2": {"guardian_id": "G1", "first_name": "Lisa"},
            "S3": {"guardian_id": "G2", "first_name": "Lisa"},
        }
    }
    assert distinct("students", "guardian_id", "first_name").broken(state) == [
        "students.first_name distinct per guardian_id: students S1 and S2 of guardian_id G1: "
        "both first_name 'Lisa'"
    ]
    world = get_domain("school").world(0)  # type: ignore[attr-defined]
    assert distinct("students", "guardian_id", "first_name").broken(world) == []


@pytest.mark.parametrize("name", ["restaurant", "school", "railway", "basketball"])
def test_composed_tasks_keep_the_rule(name: str) -> None:
    domain: Any = get_domain(name)
    for k, template in enumerate(domain.templates[:: max(1, len(domain.templates) // 8)]):
        spec = domain.sample_named(random.Random(k), 0, k, template)
        if spec is None:
            continue
        held = [*spec.scenario.known.values(), *spec.scenario.stated.values(), spec.instruction]
        state = spec.initial_state
        graph, rule = domain.composer.graph, domain.identification
        found = identification_problems(
            graph, rule, domain.toolkit, state, list(spec.gold_actions), held
        )
        assert found == [], (template, found)


def test_a_change_of_mind_opens_with_the_callers_own_records() -> None:
    domain: Any = get_domain("restaurant")
    world, table = domain.world(0), domain.template_table
    kept = table["cancel_reservation"][0](random.Random(3), world)
    assert kept is not None and kept.caller is not None and kept.caller[0] == "customer"
    opener = opener_of(random.Random(4), world, table, "cancel_reservation")
    for _ in range(5):
        first = opener(kept)
        assert first is None or first.caller == kept.caller


def test_postponed_games_refuse_upgrades_as_the_policy_says() -> None:
    domain: Any = get_domain("basketball")
    assert "postponed game are not on sale, so they cannot be moved" in " ".join(
        domain.policy.split()
    )
    assert "upgrade.no.not_on_sale" in domain.templates
    world = domain.world(0)
    games = {g for g, game in world["games"].items() if game["status"] == "postponed"}
    ticket = next(
        t for t in world["tickets"].values() if t["game_id"] in games and t["status"] == "active"
    )
    kit = domain.toolkit(world)
    with pytest.raises(Exception, match="postponed"):
        kit.upgrade_seats(ticket["ticket_id"], "courtside")
