"""Movie domain: seat prices by plan, cancellations, exchanges, snacks and plan changes on a tiny
hand-built cinema, one test per policy rule, every tool in a composed gold path, and one generate
-> validate round through the command line."""

from __future__ import annotations

from typing import Any

import pytest

from domains.movie import MovieDomain, rules
from domains.movie.tools import MovieTools
from tests.domains.rounds import gold_round, gold_tools
from toolscale.core.contract import ToolError


def _showing(sid: str, film: str, day: str, time: str, **extra: Any) -> dict:
    base = {"showing_id": sid, "cinema_id": "CN1", "cinema": "Riverside Picturehouse"}
    base.update(film=film, rating="15" if film == "Low Orbit" else "U", runtime=110, date=day)
    base.update(time=time, format="standard", screen="Nova", price=12.0, seats_left=50)
    return {**base, "status": "scheduled", **extra}


def _booking(bid: str, customer: str, showing: dict, seats: int, paid: float, **extra) -> dict:
    keep = ("showing_id", "cinema_id", "cinema", "film", "date", "time")
    base = {"booking_id": bid, "customer_id": customer, **{k: showing[k] for k in keep}}
    base.update(seats=seats, paid=paid, fees=1.0 * seats if customer == "C1" else 0.0)
    return {**base, "status": "confirmed", "exchanged": False, "snacks": [], **extra}


def tiny_state() -> dict[str, Any]:
    """Now is Thursday 2025-09-18 17:00. Low Orbit (rated 15) shows on Saturday (S1), Sunday in
    IMAX with 2 seats left (S2), tonight at 18:30 (S3) and tomorrow at 10:00 (S6); Night Ferry
    on Monday (S4) and, cancelled, on Tuesday (S5)."""
    shows = [
        _showing("S1", "Low Orbit", "2025-09-20", "20:45"),
        _showing("S2", "Low Orbit", "2025-09-21", "18:00", format="IMAX", price=18.0, seats_left=2),
        _showing("S3", "Low Orbit", "2025-09-18", "18:30"),
        _showing("S4", "Night Ferry", "2025-09-22", "13:00", seats_left=30),
        _showing("S5", "Night Ferry", "2025-09-23", "13:00", status="cancelled"),
        _showing("S6", "Low Orbit", "2025-09-19", "10:00"),
    ]
    s = {x["showing_id"]: x for x in shows}
    bookings = [
        _booking("B1", "C1", s["S1"], 2, 26.0),
        _booking("B2", "C1", s["S3"], 1, 13.0),
        _booking("B3", "C1", s["S6"], 2, 26.0),
        _booking("B4", "C3", s["S4"], 1, 0.0, exchanged=True),
        _booking("B5", "C1", s["S4"], 2, 26.0, status="used"),
        _booking("B6", "C1", s["S1"], 1, 13.0, snacks=[{"item": "nachos", "quantity": 5}]),
    ]
    people = (("C1", "none", "1990-05-01"), ("C2", "plus", "2011-10-01"))
    customers = {c: {"customer_id": c, "plan": p, "birth_date": b} for c, p, b in people}
    customers["C3"] = {"customer_id": "C3", "plan": "unlimited", "birth_date": "1985-01-01"}
    for customer in customers.values():
        customer.update(name="N " + customer["customer_id"], email=f"{customer['customer_id']}@x")
        customer.setdefault("member_since", "2025-08-01")
    snacks = {"nachos": 5.95, "soda": 3.25}
    return {
        "now": rules.NOW,
        "cinemas": {
            "CN1": {"cinema_id": "CN1", "name": "Riverside Picturehouse", "snacks": snacks}
        },
        "showings": s,
        "customers": customers,
        "bookings": {b["booking_id"]: b for b in bookings},
        "next_booking": 100,
    }


def test_seat_prices_follow_the_plan() -> None:
    kit = MovieTools(tiny_state())
    assert kit.quote_booking("C1", "S1", 2)["total"] == 26.0  # (12 + 1 fee) x 2
    assert kit.quote_booking("C2", "S4", 2)["total"] == 19.2  # 12 less 20%, x 2
    assert kit.quote_booking("C3", "S2", 1)["total"] == 5.0  # unlimited: the IMAX surcharge
    booked = kit.book_seats("C1", "S4", 3)
    assert (booked["booking_id"], booked["paid"], booked["fees"]) == ("B100", 39.0, 3.0)
    assert kit.state["showings"]["S4"]["seats_left"] == 27


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (("C1", "S1", 11), rules.GroupBooking, "events team"),
        (("C1", "S5", 2), rules.NotBookable, "S5 of Night Ferry is cancelled"),
        (("C2", "S1", 1), rules.AgeRestricted, "rated 15, and customer C2, born 2011-10-01, is 13"),
        (("C1", "S2", 3), rules.SoldOut, r"too few seats left \(2\)"),
    ],
)
def test_each_booking_rule_refuses_and_the_quote_says_why(args, error, message) -> None:
    kit = MovieTools(tiny_state())
    with pytest.raises(error, match=message):
        kit.book_seats(*args)
    assert kit.quote_booking(*args)["bookable"] is False
    assert error.handoff == (error is rules.GroupBooking)


def test_cancelling_keeps_booking_fees_inside_a_day_and_closes_two_hours_before() -> None:
    kit = MovieTools(tiny_state())
    early = kit.cancel_booking("B1")
    assert (early["refund"], early["fees_kept"]) == (26.0, 0.0)
    assert kit.state["showings"]["S1"]["seats_left"] == 52
    assert kit.cancel_booking("B3")["refund"] == 24.0  # 17 hours ahead: 2 x 1.00 kept
    with pytest.raises(rules.TooLate, match="18:30"):
        kit.cancel_booking("B2")
    with pytest.raises(rules.BookingNotActive, match="B5 is used"):
        kit.cancel_booking("B5")


def test_an_exchange_is_once_for_the_same_film_and_reprices_the_seats() -> None:
    kit = MovieTools(tiny_state())
    moved = kit.exchange_booking("B1", "S2")  # (18 + 1) x 2 = 38, paid 26
    assert (moved["difference"], moved["paid"], moved["showing_id"]) == (12.0, 38.0, "S2")
    assert (
        kit.state["showings"]["S1"]["seats_left"],
        kit.state["showings"]["S2"]["seats_left"],
    ) == (52, 0)
    with pytest.raises(rules.AlreadyExchanged, match="B1 was exchanged"):
        kit.exchange_booking("B1", "S6")
    with pytest.raises(rules.DifferentFilm, match="S4 shows Night Ferry"):
        kit.exchange_booking("B6", "S4")
    # the same film at another cinema: the policy's "at the same cinema" (synthesize S6, where
    # the tool had let a capable proposer's refused exchange through)
    other = {"cinema_id": "CN2", "cinema": "Harbour Lights"}
    kit.state["showings"]["S7"] = _showing("S7", "Low Orbit", "2025-09-20", "15:00", **other)
    with pytest.raises(rules.DifferentFilm, match="S7 shows Low Orbit at Harbour Lights"):
        kit.exchange_booking("B6", "S7")
    with pytest.raises(rules.SoldOut, match="too few seats"):
        kit.exchange_booking("B6", "S2")
    with pytest.raises(ToolError, match="already for showing S1"):
        kit.exchange_booking("B6", "S1")


def test_snacks_are_charged_and_capped_per_booking() -> None:
    kit = MovieTools(tiny_state())
    assert kit.add_snacks("B1", "Nachos ", 2)["charged"] == 11.9
    with pytest.raises(rules.SnackLimit, match="B6 has 5"):
        kit.add_snacks("B6", "soda", 2)
    with pytest.raises(rules.BookingNotActive, match="B5 is used"):
        kit.add_snacks("B5", "soda", 1)
    with pytest.raises(ToolError, match="not sold here"):
        kit.add_snacks("B1", "caviar", 1)


def test_plans_change_except_inside_the_unlimited_commitment() -> None:
    kit = MovieTools(tiny_state())
    changed = kit.change_membership("C1", "plus")
    assert (changed["monthly_fee"], changed["member_since"]) == (6.99, rules.TODAY)
    with pytest.raises(rules.CommitmentPeriod, match="joined on 2025-08-01"):
        kit.change_membership("C3", "plus")
    with pytest.raises(ToolError, match="already on the plus plan"):
        kit.change_membership("C2", "plus")
    assert kit.get_membership_plans()["unlimited"]["monthly_fee"] == 19.99


def test_searches_and_listings_read_the_showings() -> None:
    kit = MovieTools(tiny_state())
    assert [s["showing_id"] for s in kit.search_showings("low orbit", "2025-09-20")] == ["S1"]
    assert len(kit.list_showings("CN1")) == 6 and kit.get_snack_menu("CN1")["soda"] == 3.25
    assert kit.find_cinema("riverside picturehouse")["cinema_id"] == "CN1"
    assert kit.get_booking("B1")["screen"] == "Nova"


def test_the_world_is_large_and_every_tool_is_in_a_gold_path() -> None:
    domain = MovieDomain()
    world = domain.world(0)
    assert (len(world["cinemas"]), len(world["showings"]), len(world["customers"])) == (8, 320, 180)
    assert len(world["bookings"]) >= 400
    assert "$1.00 per seat" in domain.policy and "{" not in domain.policy
    used = gold_tools(domain)
    assert used == set(MovieTools.specs()) and 18 <= len(used) <= 22


@pytest.mark.slow
def test_generated_tasks_verify_and_validate(tmp_path) -> None:
    gold_round("movie", tmp_path / "out")


def test_read_as_a_caller_the_texts_fit_the_records() -> None:
    """Reading pass, seed 7: "drop my booking and refund you"; "which screen my seats is on";
    "it was your tickets"; "I only go once a month now" moving up to unlimited; "It's raining
    all weekend" for a Wednesday showing; "The earlier one clashes" moving to an earlier one."""
    from datetime import date

    from domains.movie import MovieDomain
    from toolscale.core.contract import item_rng
    from toolscale.kit.phrasing import second_person

    domain = MovieDomain()

    def said(template: str, i: int) -> tuple[object, str]:
        spec = domain.sample_named(item_rng("movie", 0, i), 0, i, template)
        text = f"{spec.instruction} {spec.scenario.reason_for_call}"
        if spec.scenario.behaviour != "change":
            text += f" {spec.scenario.task_instructions}"
        return spec, text.split("you change your mind.")[-1]  # a change of mind's own motive

    bad = ("refund you", " is on and in", " are for", "; it was your")
    for i in range(40):
        for template in ("cancel", "screen", "lost"):
            text = said(template, i)[1]
            assert not any(b in text for b in bad), text
        spec, text = said("plan", i)
        if "unlimited plan" in text or "plan to unlimited" in text:
            assert second_person("I only go once a month now.") not in text, text
        spec, text = said("book", i)
        booked = next(a for a in spec.gold_actions if a.name == "book_seats")
        showing = spec.initial_state["showings"][booked.arguments["showing_id"]]
        if date.fromisoformat(showing["date"]).weekday() < 5:
            assert "raining all weekend" not in text, (showing["date"], text)


def test_an_age_refusal_requires_the_rating_and_counts_the_age_on_the_day() -> None:
    """Reading pass, seed 7: "... customer C5984 is 16. For your records: 2008-12-16." (the
    refusal's fact tacked on): the message says "born 2008-12-16, is 16 on <the day>". The fact
    a refusal requires is the film's rating: a capable agent said "you will be 14 on 2025-09-29",
    a right reason, which the caller's own birth date as the fact had rejected (synthesize S5)."""
    from domains.movie import MovieDomain
    from toolscale.core.contract import item_rng

    domain = MovieDomain()
    spec = domain.sample_named(item_rng("movie", 0, 0), 0, 0, "book.no.age_restricted")
    assert "For your records" not in spec.final_message and ", born " in spec.final_message
    assert spec.required_facts in (["15"], ["18"])
    # the policy counts the age on the showing's day, not today's
    assert rules.age("2010-09-20", "2025-09-19") == 14
    assert rules.age("2010-09-20", "2025-09-20") == 15
