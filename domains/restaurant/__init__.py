"""The restaurant domain (stateful, kit v2): book, cancel and change restaurant reservations.

Declared, not templated: the entities of the world (`world.build_world`), the tool graph
(`tools`, with `@finds` / `@lists` / `@raises`), the policy (`rules`, rendered into policy.md)
and the goals below; the kit composes every task from them (toolscale.kit.compose).
"""

from __future__ import annotations

import random
from typing import Any

from domains.restaurant import rules
from domains.restaurant.tools import RestaurantTools
from domains.restaurant.world import NOTES, build_world, shift
from toolscale.kit import Draw, Entity, Goal, StatefulDomain
from toolscale.kit.words import day

Record = dict[str, Any]


def _meal(reservation: Record) -> str:
    return "lunch" if reservation["time"] < "16:00" else "dinner"


def _reservation_words(reservation: Record, world: Record, precise: bool) -> str:
    place = world["restaurants"][reservation["restaurant_id"]]["name"]
    noun = ("booking", "table", "reservation")[int(reservation["reservation_id"][2:]) % 3]
    when = f" on {day(reservation['date'])}" if precise else ""
    return f"my {_meal(reservation)} {noun} at {place}{when}"


ENTITIES = (
    Entity(
        "customer",
        "customers",
        "customer_id",
        labels={"phone": "phone number"},
    ),
    Entity(
        "restaurant",
        "restaurants",
        "restaurant_id",
        said=("name",),
        labels={"name": "restaurant name"},
        describe=lambda r, w, p: r["name"],
    ),
    Entity(
        "reservation",
        "reservations",
        "reservation_id",
        owner="customer",
        owner_key="customer_id",
        describe=_reservation_words,
        alike=lambda r: r["restaurant_id"],
        tell="date",
        labels={"date": "reservation date"},
    ),
)


def _upcoming(draw: Draw) -> bool:
    return draw["reservation"]["date"] >= rules.TODAY


def _booking(draw: Draw) -> dict[str, Any]:
    rng, place = draw.rng, draw["restaurant"]
    offset = rng.choice((0, *range(1, 31), *range(1, 31), 33, 38, 45))
    party = rng.choices(
        (*range(1, 11), 12, 14, 16), weights=(1, 6, 3, 5, 2, 3, 2, 2, 1, 1, 1, 1, 1)
    )
    return {
        "customer_id": draw["customer"]["customer_id"],
        "restaurant_id": place["restaurant_id"],
        "date": shift(rules.TODAY, offset),
        "time": rng.choice(place["times"]),
        "party_size": party[0],
    }


def _slot(draw: Draw) -> dict[str, Any]:
    return dict(draw.args)  # the booking's own arguments, checked before booking


def _rid(draw: Draw) -> dict[str, Any]:
    return {"reservation_id": draw["reservation"]["reservation_id"]}


def _party(draw: Draw) -> dict[str, Any]:
    now = draw["reservation"]["party_size"]
    wanted = draw.rng.choice([n for n in (*range(1, 11), 12, 15) if n != now])
    return {**_rid(draw), "party_size": wanted}


def _move(draw: Draw) -> dict[str, Any]:
    place = draw.world["restaurants"][draw["reservation"]["restaurant_id"]]
    offset = draw.rng.choice((*range(1, 31), 36))
    new = {"date": shift(rules.TODAY, offset), "time": draw.rng.choice(place["times"])}
    return {**_rid(draw), **new}


def _dish(draw: Draw) -> Record:
    menu = draw["restaurant"]["menu"]
    return menu[int(draw["restaurant"]["restaurant_id"][1:]) % len(menu)]


def _menu(draw: Draw) -> dict[str, Any]:
    return {"restaurant_id": draw["restaurant"]["restaurant_id"]}


def _portions(draw: Draw) -> dict[str, Any]:
    return {"guests": draw.rng.randint(2, 9), "dish": _dish(draw)["dish"]}


def _cost(draw: Draw) -> dict[str, Any]:
    return {"expression": f"{_dish(draw)['price']} * {draw.extra['guests']}"}


def _cuisine(draw: Draw) -> dict[str, Any]:
    place = draw.rng.choice(list(draw.world["restaurants"].values()))
    return {"area": place["area"], "cuisine": place["cuisine"]}


GOALS = (
    Goal(
        "book",
        "book_table",
        ("customer", "restaurant"),
        _booking,
        words=(
            "book a table for {party_size} at {restaurant} on {date} at {time}",
            "reserve {party_size} seats at {restaurant} for {date} at {time}",
            "get a table at {restaurant} for {party_size} people on {date}, {time}",
        ),
        done="You are booked at {restaurant} on {date} at {time} for {party_size}: reservation "
        "{reservation_id}, deposit charged {deposit_paid}.",
        report=("reservation_id",),
        before=(("check_availability", _slot),),
        check=rules.check_booking,
        price="deposit",
        price_noun="deposit",
        motives=(
            "It's my partner's birthday.",
            "My parents are visiting.",
            "We're celebrating a promotion.",
            "I'm taking a client out.",
            "Some old friends are in town.",
            "We want to try somewhere new.",
        ),
        weight=4,
    ),
    Goal(
        "cancel",
        "cancel_reservation",
        ("reservation",),
        _rid,
        words=("cancel {reservation}", "call off {reservation}", "drop {reservation}"),
        done="{reservation} is cancelled; the fee is {cancellation_fee} and {deposit_refund} "
        "of the deposit goes back to your card.",
        report=("cancellation_fee", "deposit_refund"),
        before=(("get_cancellation_quote", _rid),),
        check=rules.cancel_quote,
        price="cancellation_fee",
        motives=(
            "Something came up at work.",
            "One of the kids is ill.",
            "Our plans changed.",
            "My flight was moved.",
            "We found a babysitter problem.",
        ),
    ),
    Goal(
        "party_size",
        "change_party_size",
        ("reservation",),
        _party,
        words=(
            "change {reservation} to {party_size} guests",
            "make {reservation} a table for {party_size}",
            "update the number of guests on {reservation} to {party_size}",
        ),
        done="{reservation} is now for {party_size}; the deposit changed by {deposit_change}.",
        report=("deposit_paid", "deposit_change"),
        check=rules.check_party,
        when=_upcoming,
        motives=(
            "A couple of friends are joining.",
            "Two people dropped out.",
            "My cousin is coming too.",
        ),
    ),
    Goal(
        "move",
        "reschedule_reservation",
        ("reservation",),
        _move,
        words=(
            "move {reservation} to {date} at {time}",
            "reschedule {reservation} for {date}, {time}",
            "shift {reservation} to {time} on {date}",
        ),
        done="{reservation} is moved to {date} at {time}.",
        check=rules.check_move,
        when=_upcoming,
        motives=("That day no longer works for us.", "My sister can only make another day."),
    ),
    Goal(
        "request",
        "add_special_request",
        ("reservation",),
        lambda d: {**_rid(d), "note": d.rng.choice(NOTES)},
        words=(
            "ask for a {note} on {reservation}",
            "add a note to {reservation} that we need a {note}",
            "request a {note} for {reservation}",
        ),
        done="I added the request to {reservation}; its requests are now: {requests}.",
        check=rules.check_request,
        when=_upcoming,
        motives=(
            "We're bringing a toddler.",
            "It's a special occasion.",
            "My father uses a wheelchair.",
        ),
    ),
    Goal(
        "complaint",
        "transfer_to_human_agents",
        ("reservation",),
        lambda d: {"summary": f"Complaint about reservation {d['reservation']['reservation_id']}"},
        words=(
            "complain about {reservation}",
            "make a complaint about how {reservation} went",
            "report a bad experience with {reservation}",
        ),
        done="I'm sorry to hear that. Complaints go to our guest-relations team, so I have "
        "transferred you to a human agent about {reservation} at {reservation[time]}.",
        report=("reservation.time",),
        when=lambda d: d["reservation"]["status"] == "completed",
        motives=("The food was cold.", "We waited an hour for a table.", "We were overcharged."),
        weight=2,
    ),
    Goal(
        "when",
        "get_reservation",
        ("reservation",),
        _rid,
        words=(
            "what time {reservation} is",
            "when exactly {reservation} starts",
            "for what time {reservation} is booked",
        ),
        done="{reservation} is at {time} for {party_size}.",
        report=("time",),
        when=_upcoming,
        motives=("I've lost the confirmation email.", "I need to arrange a taxi."),
    ),
    Goal(
        "fee",
        "get_cancellation_quote",
        ("reservation",),
        _rid,
        words=(
            "what cancelling {reservation} would cost me",
            "how much of my deposit I'd get back if I cancelled {reservation}",
        ),
        done="Cancelling {reservation} now would cost {cancellation_fee}, with {deposit_refund} "
        "of the deposit refunded (free cancellation ends {free_until}). I have not cancelled it.",
        report=("free_until", "cancellation_fee", "deposit_refund"),
        check=rules.cancel_quote,
        motives=("I might not make it.", "My plans are up in the air."),
    ),
    Goal(
        "menu",
        "get_menu",
        ("restaurant",),
        _menu,
        words=(
            "which dishes at {restaurant} are vegan",
            "what vegan options {restaurant} has",
        ),
        done="The vegan dishes at {restaurant} are: {vegan}.",
        report=("vegan",),
        derive=lambda menu: {"vegan": [d["dish"] for d in menu if d["kind"] == "vegan"]},
        motives=("My daughter is vegan.", "I'm bringing a vegan friend."),
        weight=2,
    ),
    Goal(
        "cost",
        "calculate",
        ("restaurant",),
        _cost,
        words=(
            "what {guests} portions of the {dish} at {restaurant} would cost",
            "how much {guests} plates of {dish} at {restaurant} come to",
        ),
        done="{guests} portions of {dish} at {restaurant} come to {result} dollars.",
        extra=_portions,
        report=("result",),
        before=(("get_menu", _menu),),
        motives=("We're planning a group dinner.",),
        weight=2,
    ),
    Goal(
        "search",
        "search_restaurants",
        (),
        _cuisine,
        words=(
            "which {cuisine} restaurants there are in {area}",
            "what {cuisine} places you have in {area}",
        ),
        done="The {cuisine} restaurants in {area} are: {names}.",
        report=("names",),
        derive=lambda found: {"names": [r["name"] for r in found]},
        motives=("I'm new in town.", "A friend recommended the area."),
        weight=2,
    ),
)


class RestaurantDomain(StatefulDomain):
    """Reservations at a city's restaurants: 24 restaurants, 160 customers, ~450 reservations."""

    name = "restaurant"
    version = "1.0"
    toolkit = RestaurantTools
    rules = rules
    entities = ENTITIES
    goals = GOALS

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return build_world(rng)
