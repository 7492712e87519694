"""Basketball domain: prices, refunds, transfers, upgrades and renewals on a tiny hand-built
league, one test per policy rule, every tool in a composed gold path, and one generate ->
validate round through the command line."""

from __future__ import annotations

import re
from typing import Any

import pytest

from domains.basketball import BasketballDomain, rules
from domains.basketball.tools import BasketballTools
from tests.domains.rounds import gold_round, gold_tools
from toolscale.core.contract import ToolError

PRICES = {"upper": 40.0, "lower": 100.0, "courtside": 400.0}


def _game(gid: str, home: str, day: str, tipoff: str, status: str, **seats: int) -> dict:
    names = {"T1": "Harbor Hawks", "T2": "Summit Comets"}
    away = "T2" if home == "T1" else "T1"
    return {
        "game_id": gid,
        "home_team_id": home,
        "away_team_id": away,
        "home_team": names[home],
        "away_team": names[away],
        "arena": f"{names[home].split()[0]} Arena",
        "date": day,
        "tipoff": tipoff,
        "prices": dict(PRICES),
        "seats_left": {"upper": 50, "lower": 10, "courtside": 4, **seats},
        "status": status,
    }


def _ticket(tid: str, fan: str, game: str, section: str, quantity: int, paid: float, **extra):
    base = {"ticket_id": tid, "fan_id": fan, "game_id": game, "section": section}
    base.update(quantity=quantity, price_paid=paid, status="active", transferred_from="")
    return {**base, **extra}


def _pass(pid: str, fan: str, team: str, section: str, plan: str, **extra: Any) -> dict:
    base = {"pass_id": pid, "fan_id": fan, "team_id": team, "team": team, "section": section}
    base.update(plan=plan, games=rules.PASS_GAMES[plan], price_paid=0.0, seasons=3)
    base.update(status="active", expires="2025-12-31", balance_due=0.0)
    return {**base, **extra}


def tiny_state() -> dict[str, Any]:
    """Now is Wednesday 2025-11-12 16:30. G1 tips off tonight at 19:30, G2 on Friday (about 50
    hours away), G3 in 18 days; G4 was played (the Comets won 101-99); G5 is postponed."""
    games = [
        _game("G1", "T1", "2025-11-12", "19:30", "scheduled"),
        _game("G2", "T1", "2025-11-14", "19:00", "scheduled", lower=2, courtside=0),
        _game("G3", "T2", "2025-11-30", "20:00", "scheduled", courtside=1),
        {**_game("G4", "T2", "2025-11-01", "19:00", "final"), "home_score": 101, "away_score": 99},
        _game("G5", "T1", "2025-11-13", "12:30", "postponed"),
    ]
    tickets = [
        _ticket("TK1", "F1", "G2", "lower", 2, 209.0),
        _ticket("TK2", "F1", "G3", "upper", 3, 133.5),
        _ticket("TK3", "F1", "G1", "upper", 1, 44.5),
        _ticket("TK4", "F2", "G2", "courtside", 2, 689.0),
        _ticket("TK5", "F1", "G4", "upper", 1, 44.5, status="used"),
        _ticket("TK6", "F1", "G5", "upper", 2, 90.0),
        _ticket("TK7", "F2", "G3", "lower", 2, 179.0, transferred_from="F1"),
    ]
    passes = [
        _pass("SP1", "F1", "T1", "lower", "full", price_paid=2788.0),
        _pass("SP2", "F1", "T2", "upper", "half", expires="2026-06-30"),
        _pass("SP3", "F2", "T1", "upper", "full", balance_due=120.0),
        _pass("SP4", "F2", "T2", "upper", "half", status="cancelled"),
    ]
    fans = {
        "F1": {
            "fan_id": "F1",
            "name": "Ann Lee",
            "email": "ann@x.com",
            "phone": "1",
            "tier": "standard",
        },
        "F2": {
            "fan_id": "F2",
            "name": "Bo Chan",
            "email": "bo@x.com",
            "phone": "2",
            "tier": "elite",
        },
    }
    return {
        "now": rules.NOW,
        "teams": {
            t: {"team_id": t, "name": n}
            for t, n in (("T1", "Harbor Hawks"), ("T2", "Summit Comets"))
        },
        "games": {g["game_id"]: g for g in games},
        "fans": fans,
        "tickets": {t["ticket_id"]: t for t in tickets},
        "season_passes": {p["pass_id"]: p for p in passes},
        "next_ticket": 100,
    }


def test_quotes_discount_the_seats_and_not_the_service_fee() -> None:
    kit = BasketballTools(tiny_state())
    standard = kit.quote_tickets("F1", "G3", "upper", 3)  # 3 x 40 + 3 x 4.50
    elite = kit.quote_tickets("F2", "G3", "lower", 2)  # 200 - 15% + 2 x 4.50
    assert (standard["total"], elite["total"], elite["discount"]) == (133.5, 179.0, 30.0)
    bought = kit.buy_tickets("F2", "G1", "upper", 2)  # 80 - 12 + 9
    assert (bought["ticket_id"], bought["price_paid"]) == ("TK100", 77.0)
    assert kit.state["games"]["G1"]["seats_left"]["upper"] == 48


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (("F1", "G3", "upper", 9), rules.GroupSale, "group sales"),
        (("F1", "G4", "upper", 2), rules.NotOnSale, "G4 is final"),
        (("F1", "G5", "upper", 2), rules.NotOnSale, "G5 is postponed"),
        (("F1", "G3", "courtside", 1), rules.MembersOnly, "F1 is standard"),
        (("F2", "G2", "lower", 3), rules.SoldOut, "only 2 lower seats"),
    ],
)
def test_each_purchase_rule_refuses_and_the_quote_says_why(args, error, message) -> None:
    kit = BasketballTools(tiny_state())
    with pytest.raises(error, match=message):
        kit.buy_tickets(*args)
    quote = kit.quote_tickets(*args)
    assert quote["can_buy"] is False and message in quote["reason"]
    assert error.handoff == (error is rules.GroupSale)


def test_refunds_keep_a_fee_inside_a_week_and_none_for_postponed_games() -> None:
    kit = BasketballTools(tiny_state())
    assert kit.get_refund_quote("TK2")["fee"] == 0.0  # 18 days ahead
    week = kit.refund_ticket("TK1")  # ~50 hours ahead: 20% of 209
    assert (week["fee"], week["refund"]) == (41.8, 167.2)
    assert kit.state["games"]["G2"]["seats_left"]["lower"] == 4
    assert kit.get_refund_quote("TK6")["refund"] == 90.0  # postponed, under 24 hours
    with pytest.raises(rules.TooLateToRefund, match="19:30"):
        kit.refund_ticket("TK3")
    with pytest.raises(rules.TicketNotActive, match="TK5 is used"):
        kit.refund_ticket("TK5")
    with pytest.raises(rules.TicketNotActive, match="TK1 is refunded"):
        kit.get_refund_quote("TK1")


def test_a_ticket_moves_once_and_courtside_never() -> None:
    kit = BasketballTools(tiny_state())
    moved = kit.transfer_ticket("TK2", "BO@x.com ")
    assert (moved["fan_id"], moved["transferred_from"], moved["recipient_name"]) == (
        "F2",
        "F1",
        "Bo Chan",
    )
    with pytest.raises(rules.AlreadyTransferred, match="from fan F1"):
        kit.transfer_ticket("TK2", "ann@x.com")
    with pytest.raises(rules.NonTransferable, match="TK4 is courtside"):
        kit.transfer_ticket("TK4", "ann@x.com")
    with pytest.raises(ToolError, match="already belongs"):
        kit.transfer_ticket("TK3", "ann@x.com")
    with pytest.raises(ToolError, match="no fan with email"):
        kit.transfer_ticket("TK3", "nobody@x.com")


def test_upgrades_charge_the_seat_difference_and_follow_the_seat_rules() -> None:
    kit = BasketballTools(tiny_state())
    up = kit.upgrade_seats("TK2", "lower")  # (100 - 40) x 3, no discount
    assert (up["difference"], up["price_paid"], up["section"]) == (180.0, 313.5, "lower")
    assert kit.state["games"]["G3"]["seats_left"] == {"upper": 53, "lower": 7, "courtside": 1}
    with pytest.raises(rules.ChangesClosed, match="19:30"):
        kit.upgrade_seats("TK3", "lower")
    with pytest.raises(rules.NotAnUpgrade, match="dearer section"):
        kit.upgrade_seats("TK1", "upper")
    with pytest.raises(rules.MembersOnly, match="F1 is standard"):
        kit.upgrade_seats("TK2", "courtside")
    with pytest.raises(rules.SoldOut, match="only 1 courtside"):
        kit.upgrade_seats("TK7", "courtside")


def test_renewals_take_the_loyalty_discount_inside_the_window() -> None:
    kit = BasketballTools(tiny_state())
    renewed = kit.renew_season_pass("SP1", "full")  # 68 x 41 less 3 seasons x 2%
    assert (renewed["charged"], renewed["expires"], renewed["seasons"]) == (
        2620.72,
        "2026-12-31",
        4,
    )
    with pytest.raises(rules.RenewalNotOpen, match="2026-06-30"):
        kit.renew_season_pass("SP2", "half")
    with pytest.raises(rules.BalanceDue, match=r"120\.00"):
        kit.renew_season_pass("SP3", "half")
    with pytest.raises(rules.PassNotActive, match="cancelled"):
        kit.renew_season_pass("SP4", "half")
    with pytest.raises(ToolError, match="choose one of full, half"):
        kit.renew_season_pass("SP1", "weekend")


def test_records_schedules_and_tickets_read_the_games() -> None:
    kit = BasketballTools(tiny_state())
    assert (kit.get_team_record("T1")["losses"], kit.get_team_record("T2")["wins"]) == (1, 1)
    assert [g["game_id"] for g in kit.list_home_games("T1")] == ["G1", "G2", "G5"]
    assert [g["game_id"] for g in kit.list_games_on("2025-11-12")] == ["G1"]
    assert kit.get_ticket("TK3")["tipoff"] == "19:30"


def test_the_world_is_large_and_every_tool_is_in_a_gold_path() -> None:
    domain = BasketballDomain()
    world = domain.world(0)
    sizes = {t: len(world[t]) for t in ("teams", "games", "fans", "tickets", "season_passes")}
    assert sizes["teams"] == 12 and sizes["fans"] == 200 and sizes["tickets"] >= 400
    assert "$4.50 per seat" in domain.policy and "{" not in domain.policy
    used = gold_tools(domain)
    assert used == set(BasketballTools.specs()) and 18 <= len(used) <= 22


@pytest.mark.slow
def test_generated_tasks_verify_and_validate(tmp_path) -> None:
    gold_round("basketball", tmp_path / "out")


def test_every_seed_builds_a_world_seed_3_included() -> None:
    """A fan's home games were filtered against a team drawn anew for every game, so a fan could
    have none and `build_world(seed 3)` raised IndexError (found by a run at --seed 3)."""
    domain = BasketballDomain()
    for seed in range(8):
        world = domain.world(seed)
        assert world["tickets"] and world["fans"]


def test_read_as_a_caller_the_texts_fit_the_records() -> None:
    """Reading pass, seed 7: "my five upper-deck ticket order"; "I'm free that night" for a
    day already past; "My father can't manage the stairs up top" asking to move up to the
    upper deck; "My sister is in town" before "move it to my friend's account". Each class
    over 120 draws of its template: the texts a user reads never show it."""
    from toolscale.core.contract import item_rng
    from toolscale.kit.phrasing import second_person

    domain = BasketballDomain()

    def told(template: str, i: int) -> tuple[Any, str]:
        spec = domain.sample_named(item_rng("basketball", 0, i), 0, i, template)
        s = spec.scenario
        return spec, f"{spec.instruction} {s.reason_for_call} {s.task_instructions}"

    order = re.compile(r"\b(two|three|four|five|six|eight|ten|twelve) \S+ ticket order")
    for i in range(120):
        spec, said = told("transfer", i)
        assert not order.search(said) and "my friend's account" not in said, said
        spec, said = told("schedule", i)
        day = next(a for a in spec.gold_actions if a.name == "list_games_on").arguments["date"]
        assert day >= rules.TODAY, day
        spec, said = told("upgrade.no.not_an_upgrade", i)
        said = said.split("you change your mind.")[-1]  # a change of mind's own motive
        up = ("closer to the action", "anniversary", "bonus", "last game", "stairs up top")
        assert not any(m in said for m in up), said
        assert second_person("My friends have seats in that section.") in said or (
            second_person("I'd rather spend less on the seats.") in said
        )
