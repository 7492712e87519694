"""The movie domain (stateful, kit v2): a cinema chain's desk that books, cancels and exchanges
seats, pre-orders snacks, changes membership plans and answers questions about showings.

Declared: the world (`world.build_world`), the tool graph (`tools`), the policy (`rules`,
rendered into policy.md) and the goals below; the kit composes every task from them.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from domains.movie import rules
from domains.movie.invariants import INVARIANTS
from domains.movie.tools import MovieTools
from domains.movie.world import build_world
from toolscale.kit import Draw, Entity, Goal, StatefulDomain
from toolscale.kit.identify import Identification
from toolscale.kit.words import clock, day

Record = dict[str, Any]


def _showing_words(showing: Record, world: Record, precise: bool) -> str:
    film, place, form = showing["film"], showing["cinema"], int(showing["showing_id"][1:]) % 3
    if not precise:
        return (
            f"the {film} showing at {place}",
            f"{film} at {place}",
            f"the {film} screening at {place}",
        )[form]
    kind = "" if showing["format"] == "standard" else f" {showing['format']}"
    when, at = day(showing["date"]), clock(showing["time"])
    return (
        f"the {at}{kind} showing of {film} at {place} on {when}",
        f"{film} at {place}, {when}, {at}{kind}",
        f"the {when} {at}{kind} screening of {film} at {place}",
    )[form]


def _booking_words(booking: Record, world: Record, precise: bool) -> str:
    number = int(booking["booking_id"][1:])
    noun = ("booking", "tickets", "reservation", "seats")[number % 4]
    film, place = booking["film"], booking["cinema"]
    before = not film.startswith("The ") and number // 4 % 2  # not "my The Ninth Lantern seats"
    said = f"my {film} {noun} at {place}" if before else f"my {noun} for {film} at {place}"
    return said + (f" on {day(booking['date'])}" if precise else "")


ENTITIES = (
    Entity("customer", labels={"customer_id": "customer number"}),
    Entity("cinema", said=("name",), labels={"name": "cinema"}),
    Entity(
        "showing",
        owner="cinema",
        describe=_showing_words,
        alike=lambda r: r["film"],
        tell="date",
        labels={"date": "showing date"},
    ),
    Entity(
        "booking",
        owner="customer",
        describe=_booking_words,
        alike=lambda r: (r["cinema_id"], r["film"]),
        tell="date",
        labels={"date": "date of the film", "booking_id": "booking reference"},
    ),
)


def _upcoming(draw: Draw) -> bool:
    return draw["booking"]["date"] >= rules.TODAY


def _seats(draw: Draw) -> dict[str, Any]:
    return {
        "seats": draw.rng.choices((1, 2, 3, 4, 5, 6, 8, 12, 14), (2, 8, 3, 5, 2, 2, 1, 1, 1))[0]
    }


def _target(draw: Draw) -> dict[str, Any]:
    booking = draw["booking"]
    others = draw.world["showings"].values()
    here = [s for s in others if s["cinema_id"] == booking["cinema_id"]]
    here = [s for s in here if s["showing_id"] != booking["showing_id"]]
    same = [s for s in here if s["film"] == booking["film"]]
    to = draw.rng.choice(same if same and draw.rng.random() < 0.8 else here)
    return {"new_film": to["film"], "new_date": to["date"], "new_time": to["time"], "to": to}


def _menu(draw: Draw) -> dict[str, Any]:
    cinema = draw["cinema"] if "cinema" in draw.records else None
    return {"cinema_id": (cinema or draw["booking"])["cinema_id"]}


def _snack(draw: Draw) -> dict[str, Any]:
    menu = draw.world["cinemas"][_menu(draw)["cinema_id"]]["snacks"]
    return {"item": draw.rng.choice(sorted(menu)), "quantity": draw.rng.randint(2, 4)}


def _plan(draw: Draw) -> dict[str, Any]:
    customer = draw["customer"]
    plans = [p for p in ("plus", "unlimited") if p != customer["plan"]]
    return {"plan": draw.rng.choice(plans)}


def _book_motives(draw: Draw) -> tuple[str, ...]:
    """ "It's raining all weekend" only for a showing on a Saturday or Sunday."""
    motives: tuple[str, ...] = ("It's our anniversary.", "The kids are off school.")
    motives += ("My book club read the novel.", "My flatmate has been nagging me to see it.")
    motives += ("We want a quiet night out.", "I loved the director's last film.")
    weekend = date.fromisoformat(draw["showing"]["date"]).weekday() >= 5
    return (*motives, "It's raining all weekend.") if weekend else motives


def _exchange_motives(draw: Draw) -> tuple[str, ...]:
    """ "The earlier one clashes" only when the booking moves to a later showing."""
    booking, to = draw["booking"], draw.extra["to"]
    motives = (
        "My train gets in too late.",
        "A friend wants to come on another day.",
        "I got the days mixed up.",
    )
    later = (to["date"], to["time"]) > (booking["date"], booking.get("time", ""))
    return (*motives, "The earlier one clashes with football practice.") if later else motives


def _plan_motives(draw: Draw) -> tuple[str, ...]:
    """Going more often moves a member up the plans, going less or saving moves them down."""
    up = rules.PLANS.index(draw.extra["plan"]) > rules.PLANS.index(draw["customer"]["plan"])
    if up:
        more = ("I go far more often than I used to.", "My friend swears by it.")
        return (*more, "The new season looks great.")
    return ("Money is tight this year.", "I only go once a month now.")


def _cost(draw: Draw) -> dict[str, Any]:
    menu = draw["cinema"]["snacks"]
    return {"expression": f"{menu[draw.extra['item']]} * {draw.extra['quantity']}"}


GOALS = (
    Goal(
        "book",
        "book_seats",
        extra=_seats,
        words="book seats for {seats} at {showing} | get {seats} of us into {showing} | reserve "
        "places for {seats} at {showing} | sort out tickets for {seats} for {showing}",
        done="I booked {showing} for {seats}: booking {booking_id}, {paid} charged.",
        before=("quote_booking",),
        check=rules.check_booking,
        price="total",
        motives="It's our anniversary. | The kids are off school. | My book club read the novel. | "
        "It's raining all weekend. | My flatmate has been nagging me to see it. | We want a "
        "quiet night out. | I loved the director's last film.",
        motives_for=_book_motives,
        weight=4,
    ),
    Goal(
        "cancel",
        "cancel_booking",
        words="cancel {booking} | call off {booking} | drop {booking} and get my money back | "
        "scrap {booking}",
        done="I cancelled {booking}; {refund} goes back to your card (fees kept: {fees_kept}).",
        report=("refund",),
        check=rules.cancel_refund,
        motives="My shift got changed. | The reviews were awful. | My date cancelled on me. | Our "
        "car is in the garage. | I have a deadline that night. | We saw it somewhere else.",
    ),
    Goal(
        "exchange",
        "exchange_booking",
        ("booking",),
        args=lambda d: {
            "booking_id": d["booking"]["booking_id"],
            "showing_id": d.extra["to"]["showing_id"],
        },
        words="switch {booking} to the {new_time} showing of {new_film} on {new_date} | move "
        "{booking} to {new_film} at {new_time} on {new_date} | change {booking} for "
        "{new_film} on {new_date} at {new_time} | swap {booking} to {new_film}, "
        "{new_date}, {new_time}",
        done="I moved {booking} to showing {showing_id} ({new_film}, {new_date} at {new_time}); "
        "the price difference is {difference}.",
        report=("difference",),
        before=("list_showings",),
        check=rules.check_exchange,
        extra=_target,
        when=_upcoming,
        motives="My train gets in too late. | A friend wants to come on another day. | I got the "
        "days mixed up. | The earlier one clashes with football practice.",
        motives_for=_exchange_motives,
    ),
    Goal(
        "snacks",
        "add_snacks",
        words="pre-order {quantity} servings of {item} with {booking} | add {quantity} servings "
        "of {item} to {booking} | have {quantity} servings of {item} ready for {booking}",
        done="I added {quantity} servings of {item} to {booking} and charged {charged}.",
        before=("get_snack_menu",),
        check=rules.check_snacks,
        extra=_snack,
        when=_upcoming,
        motives="The queue at the counter is always huge. | It's a treat for the kids. | We'll "
        "arrive just in time. | I want to skip the line.",
    ),
    Goal(
        "plan",
        "change_membership",
        extra=_plan,
        words="switch my membership to the {plan} plan | get onto the {plan} plan | change "
        "my cinema plan to {plan}",
        done="You are now on the {plan} plan, at {monthly_fee} a month.",
        before=("get_membership_plans",),
        check=rules.check_plan,
        motives="I go far more often than I used to. | Money is tight this year. | My friend "
        "swears by it. | I only go once a month now. | The new season looks great.",
        motives_for=_plan_motives,
    ),
    Goal(
        "seats_left",
        "get_showing",
        words="how many seats are left for {showing} | whether {showing} still has seats, and "
        "how many | how full {showing} is, in seats left",
        done="{showing} has {seats_left} seats left, at {price} each before plan prices.",
        report=("seats_left",),
        when=lambda d: d["showing"]["status"] == "scheduled",
        motives="I'd like to go at the last minute. | We're a big family. | I want a good seat. | "
        "My friend is deciding tonight.",
    ),
    Goal(
        "where",
        "search_showings",
        extra=lambda d: {
            k: d.rng.choice(list(d.world["showings"].values()))[k] for k in ("film", "date")
        },
        words="which cinemas show {film} on {date} | where {film} is playing on {date} | which "
        "of your cinemas have {film} on {date}",
        done="On {date}, {film} is showing at: {cinemas}.",
        report=("cinemas",),
        derive=lambda found: {"cinemas": [s["cinema"] for s in found]},
        motives="I'm visiting my parents that day. | It's my only free evening. | My nephew wants "
        "to see it.",
        weight=2,
    ),
    Goal(
        "snack_cost",
        "calculate",
        ("cinema",),
        _cost,
        words="what {quantity} servings of {item} at {cinema} would cost | how much {quantity} "
        "servings of {item} come to at {cinema}",
        done="That is {result} dollars for {quantity} servings of {item} at {cinema}.",
        before=("get_snack_menu",),
        extra=lambda d: {
            "item": d.rng.choice(sorted(d["cinema"]["snacks"])),
            "quantity": d.rng.randint(2, 9),
        },
        motives="I'm bringing a school group. | I'm on a budget. | It's a birthday party.",
        weight=2,
    ),
    Goal(
        "screen",
        "get_booking",
        words="which screen and format go with {booking} | what screen and format to expect for "
        "{booking}",
        done="For {booking}: the {screen} screen, {format}.",
        when=lambda d: _upcoming(d) and d["booking"]["status"] == "confirmed",
        motives="My mum needs to know where to meet us. | I want to check it's IMAX.",
    ),
    Goal(
        "lost",
        "transfer_to_human_agents",
        ("booking",),
        lambda d: {"summary": f"Lost property after booking {d['booking']['booking_id']}"},
        words="report something I left behind after {booking} | trace a bag I left behind when "
        "I used {booking} | report lost property after {booking}",
        done="Lost property is handled by the cinema's staff, so I have transferred you to a "
        "human agent about booking {booking[booking_id]}.",
        when=lambda d: d["booking"]["status"] == "used",
        motives="It has my keys in it. | It was a present.",
        weight=2,
    ),
)


class MovieDomain(StatefulDomain):
    """A cinema chain's desk: 8 cinemas, ~320 showings, 180 customers, ~450 bookings."""

    name = "movie"
    version = "1.9"
    invariants = INVARIANTS
    identification = Identification("customer", ("email", "customer_id"))
    toolkit = MovieTools
    rules = rules
    entities = ENTITIES
    goals = GOALS
    build_world = staticmethod(build_world)
