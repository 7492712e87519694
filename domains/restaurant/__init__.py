"""The restaurant domain (stateful, kit v2): book, cancel and change restaurant reservations.

Declared, not templated: the entities of the world (`world.build_world`), the tool graph
(`tools`, with `@finds` / `@lists` / `@raises`), the policy (`rules`, rendered into policy.md)
and the goals below; the kit composes every task from them (toolscale.kit.compose).
"""

from __future__ import annotations

from typing import Any

from domains.restaurant import rules, world
from domains.restaurant.invariants import INVARIANTS
from domains.restaurant.tools import RestaurantTools
from toolscale.kit import Draw, Entity, Goal, Record, StatefulDomain
from toolscale.kit.clock import shift
from toolscale.kit.identify import Identification
from toolscale.kit.words import day


def _reservation_words(reservation: Record, world: Record, precise: bool) -> str:
    place = world["restaurants"][reservation["restaurant_id"]]["name"]
    meal = "lunch" if reservation["time"] < "16:00" else "dinner"
    noun = ("booking", "table", "reservation")[int(reservation["reservation_id"][2:]) % 3]
    when = f" on {day(reservation['date'])}" if precise else ""
    return f"my {meal} {noun} at {place}{when}"


ENTITIES = (
    Entity("customer", labels={"phone": "phone number"}),
    Entity("restaurant", said=("name",), labels={"name": "restaurant name"}),
    Entity(
        "reservation",
        owner="customer",
        describe=_reservation_words,
        alike=lambda r: r["restaurant_id"],
        tell="date",
        labels={"date": "reservation date"},
    ),
)


def _upcoming(draw: Draw) -> bool:
    return draw["reservation"]["date"] >= rules.TODAY


def _slot(draw: Draw, offsets: tuple[int, ...]) -> dict[str, Any]:
    booked = draw.records.get("reservation") or draw["restaurant"]
    place = draw.world["restaurants"][booked["restaurant_id"]]
    return {
        "date": shift(rules.TODAY, draw.rng.choice(offsets)),
        "time": draw.rng.choice(place["times"]),
    }


def _booking(draw: Draw) -> dict[str, Any]:
    sizes = (*range(1, 11), 12, 14, 16)
    party = draw.rng.choices(sizes, weights=(1, 6, 3, 5, 2, 3, 2, 2, 1, 1, 1, 1, 1))[0]
    days = (0, 0, 0, *range(1, 31), *range(1, 31), 33, 38, 45)  # today: often too soon
    return {**_slot(draw, days), "party_size": party}


def _party(draw: Draw) -> dict[str, Any]:
    now = draw["reservation"]["party_size"]
    return {"party_size": draw.rng.choice([n for n in (*range(1, 11), 12, 15) if n != now])}


def _dish(draw: Draw) -> Record:
    menu = draw["restaurant"]["menu"]
    return menu[int(draw["restaurant"]["restaurant_id"][1:]) % len(menu)]


def _cuisine(draw: Draw) -> dict[str, Any]:
    place = draw.rng.choice(list(draw.world["restaurants"].values()))
    return {"area": place["area"], "cuisine": place["cuisine"]}


# Why a party grows or shrinks, by how many guests it changes by: (fits, motive).
PARTY_MOTIVES = (
    "My cousin is joining us too.",
    "A couple of friends are joining.",
    "More of the family are coming.",
    "Someone in our party can't make it.",
    "Two people dropped out.",
    "A few people dropped out.",
)
_PARTY_CHANGE = (1, 2, 3, -1, -2, -3)  # a motive's change; 3 is three or more either way


def _party_motives(draw: Draw) -> tuple[str, ...]:
    """The motive that fits the change of party size ("Two people dropped out": two fewer)."""
    change = draw.extra["party_size"] - draw["reservation"]["party_size"]
    change = max(-3, min(3, change))
    return tuple(m for m, c in zip(PARTY_MOTIVES, _PARTY_CHANGE, strict=True) if c == change)


# A special request with its article, and why a caller asks for it.
NOTED = {
    "window seat": "a window seat",
    "high chair": "a high chair",
    "birthday cake": "a birthday cake",
    "wheelchair access": "wheelchair access",
    "quiet corner": "a quiet corner",
}
NOTE_MOTIVES = {
    "window seat": ("It's a special occasion.", "We'd like a view."),
    "high chair": ("We're bringing a toddler.",),
    "birthday cake": ("It's a special occasion.", "It's my mother's birthday."),
    "wheelchair access": ("My father uses a wheelchair.",),
    "quiet corner": ("We'd like somewhere calm to talk.", "We're bringing a toddler."),
}


def _note(draw: Draw) -> dict[str, Any]:
    note = draw.rng.choice(world.NOTES)
    return {"note": note, "noted": NOTED[note]}


GOALS = (
    Goal(
        "book_table",
        extra=_booking,
        words="book a table for {party_size} at {restaurant} on {date} at {time} | reserve "
        "{party_size} seats at {restaurant} for {date} at {time} | get a table at {restaurant} "
        "for {party_size} people on {date}, {time}",
        done="You are booked at {restaurant} on {date} at {time} for {party_size}: reservation "
        "{reservation_id}, deposit charged {deposit_paid}.",
        before=("check_availability",),
        check=lambda w, **a: rules.check_slot(
            w, w["restaurants"][a["restaurant_id"]], a["date"], a["time"], a["party_size"]
        ),
        price="deposit",
        motives="It's my partner's birthday. | My parents are visiting. | We're celebrating a "
        "promotion. | I'm taking a client out. | Some old friends are in town. | We want to try "
        "somewhere new.",
        weight=4,
    ),
    Goal(
        "cancel_reservation",
        words="cancel {reservation} | call off {reservation} | drop {reservation}",
        done="{reservation} is cancelled; the fee is {cancellation_fee} and {deposit_refund} "
        "of the deposit goes back to your card.",
        before=("get_cancellation_quote",),
        check=rules.cancel_quote,
        price="cancellation_fee",
        motives="Something came up at work. | One of the kids is ill. | Our plans changed. | "
        "My flight was moved. | We found a babysitter problem.",
    ),
    Goal(
        "change_party_size",
        extra=_party,
        words="change {reservation} to {party_size} guests | make {reservation} a table for "
        "{party_size} | update the number of guests on {reservation} to {party_size}",
        done="{reservation} is now for {party_size} guests; the deposit is now {deposit_paid}.",
        check=rules.check_party,
        when=_upcoming,
        motives=PARTY_MOTIVES,
        motives_for=_party_motives,
    ),
    Goal(
        "reschedule_reservation",
        extra=lambda d: _slot(d, (*range(1, 31), 36)),
        words="move {reservation} to {date} at {time} | reschedule {reservation} for {date}, "
        "{time} | shift {reservation} to {time} on {date}",
        done="{reservation} is moved to {date} at {time}.",
        check=rules.check_move,
        when=_upcoming,
        motives="That day no longer works for us. | My sister can only make another day.",
    ),
    Goal(
        "add_special_request",
        extra=_note,
        words="ask for {noted} on {reservation} | add a note to {reservation} that we need "
        "{noted} | request {noted} for {reservation}",
        done="I added the request to {reservation}; its requests are now: {requests}.",
        check=rules.check_request,
        when=_upcoming,
        motives=tuple(dict.fromkeys(m for ms in NOTE_MOTIVES.values() for m in ms)),
        motives_for=lambda d: NOTE_MOTIVES[d.extra["note"]],
    ),
    Goal(
        "complaint",
        "transfer_to_human_agents",
        ("reservation",),
        words="complain about {reservation} | make a complaint about how {reservation} went | "
        "report a bad experience with {reservation}",
        done="I'm sorry to hear that. Complaints go to our guest-relations team, so I have "
        "transferred you to a human agent about {reservation} at {reservation[time]}.",
        when=lambda d: d["reservation"]["status"] == "completed",
        motives="The food was cold. | We waited an hour for a table. | We were overcharged.",
        weight=2,
    ),
    Goal(
        "get_reservation",
        words="what time {reservation} is | when exactly {reservation} starts | for what time "
        "{reservation} is booked",
        done="{reservation} is at {time} for {party_size}.",
        when=_upcoming,
        motives="I've lost the confirmation email. | I need to arrange a taxi.",
    ),
    Goal(
        "get_cancellation_quote",
        words="what cancelling {reservation} would cost me | how much of my deposit I'd get "
        "back if I cancelled {reservation}",
        done="Cancelling {reservation} now would cost {cancellation_fee}, with {deposit_refund} "
        "of the deposit refunded (free cancellation ends {free_until}). I have not cancelled it.",
        check=rules.cancel_quote,
        motives="I might not make it. | My plans are up in the air.",
    ),
    Goal(
        "get_menu",
        words="which dishes at {restaurant} are vegan | what vegan options {restaurant} has",
        done="The vegan dishes at {restaurant} are: {vegan}.",
        derive=lambda menu: {"vegan": [d["dish"] for d in menu if d["kind"] == "vegan"]},
        motives="My daughter is vegan. | I'm bringing a vegan friend.",
        weight=2,
    ),
    Goal(
        "cost",
        "calculate",
        ("restaurant",),
        lambda d: {"expression": f"{_dish(d)['price']} * {d.extra['guests']}"},
        extra=lambda d: {"guests": d.rng.randint(2, 9), "dish": _dish(d)["dish"]},
        words="what {guests} portions of the {dish} at {restaurant} would cost | how much "
        "{guests} plates of {dish} at {restaurant} come to",
        done="{guests} portions of {dish} at {restaurant} come to {result} dollars.",
        before=("get_menu",),
        motives=("We're planning a group dinner.",),
        weight=2,
    ),
    Goal(
        "search_restaurants",
        extra=_cuisine,
        words="which {cuisine} restaurants there are in {area} | what {cuisine} places you have "
        "in {area}",
        done="The {cuisine} restaurants in {area} are: {names}.",
        derive=lambda found: {"names": [r["name"] for r in found]},
        motives="I'm new in town. | A friend recommended the area.",
        weight=2,
    ),
)


class RestaurantDomain(StatefulDomain):
    """Reservations at a city's restaurants: 24 restaurants, 160 customers, ~450 reservations."""

    name = "restaurant"
    version = "1.9"
    invariants = INVARIANTS
    identification = Identification("customer", ("email", "phone", "customer_id"))
    toolkit = RestaurantTools
    rules = rules
    entities = ENTITIES
    goals = GOALS
    build_world = staticmethod(world.build_world)
