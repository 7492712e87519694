"""The railway domain (stateful, kit v2): book, cancel, change and upgrade train tickets.

Declared, not templated: the world (`world.build_world`: every station, hundreds of trains,
customers and bookings, one fixed clock), the tool graph (`tools`, with `@finds` / `@lists` /
`@raises`), the policy (`rules`, rendered into policy.md) and the goals below (over `draws`); the
kit composes the tasks from them (toolscale.kit.compose). One task is hand-written (`stations_in`).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from domains.railway import rules
from domains.railway.draws import (
    BOOKING_MOTIVES,
    CLASS_WORDS,
    SEARCH,
    _bags,
    _bid,
    _difference,
    _fare,
    _move,
    _others,
    _status,
    _target,
    _trip,
    city,
)
from domains.railway.invariants import INVARIANTS
from domains.railway.tools import RailwayTools
from domains.railway.world import build_world
from toolscale.kit import (
    Draft,
    Draw,
    Entity,
    Goal,
    GoldRunner,
    Request,
    StatefulDomain,
    Template,
)
from toolscale.kit.identify import Identification
from toolscale.kit.words import day

Record = dict[str, Any]
NOUNS = ("trip", "booking", "journey", "ticket", "train")


def _booking_words(booking: Record, world: Record, precise: bool) -> str:
    number = int(booking["booking_id"][2:])
    noun, fare = NOUNS[number % len(NOUNS)], CLASS_WORDS[booking["fare_class"]]
    origin, destination = (city(world, booking[end]) for end in ("origin", "destination"))
    today = booking["travel_date"] == world["today"]
    on = (" today" if today else f" on {day(booking['travel_date'])}") if precise else ""
    # "for": "the trip I booked on Saturday 7 June" reads as the day it was bought
    made = (" for today" if today else f" for {day(booking['travel_date'])}") if precise else ""
    forms = (
        f"my {fare} {noun} from {origin} to {destination}{on}",
        f"the {origin} to {destination} {noun} I {'made' if noun == 'booking' else 'booked'}{made} "
        f"({booking['fare_class']} class)",
        f"my {noun}{on} from {origin} to {destination} ({fare})",
    )
    return forms[number // len(NOUNS) % len(forms)]


ENTITIES = (
    Entity("customer"),
    Entity(
        "booking",
        owner="customer",
        describe=_booking_words,
        alike=lambda b: (b["origin"], b["destination"], b["fare_class"]),
        tell="travel_date",
    ),
)


def _train(draw: Draw) -> dict[str, Any]:
    return {"train_number": draw["booking"]["train_number"]}


MISSED = "I missed my train earlier."


def _left_today(draw: Draw) -> bool:
    """A departed train a caller still asks to cancel, change, upgrade, add bags to or get a
    refund quote for left earlier today: a trip of days ago is no one's plan."""
    return _status(draw) != "departed" or draw["booking"]["travel_date"] == rules.TODAY


def _missed(motives: tuple[str, ...]) -> Any:
    """The motives that fit a draw: "I missed my train" only for a train that has left."""

    def fit(draw: Draw) -> tuple[str, ...]:
        gone = _status(draw) == "departed"
        return tuple(m for m in motives if (m == MISSED) == gone)

    return fit


CANCEL_MOTIVES = (
    "My plans changed.",
    "The meeting I was going to was cancelled.",
    "I'm driving instead.",
    "My friend can't host us after all.",
    "I've caught a bad cold.",
    "The event was postponed.",
    MISSED,
)
CHANGE_MOTIVES = (
    "My meeting was moved.",
    "I'd rather travel at another time.",
    "My return flight changed.",
    "The original time is too early for the kids.",
    "I need to be there sooner.",
    MISSED,
)

GOALS = (
    Goal(
        "cancel",
        "cancel_booking",
        ("booking",),
        _bid,
        words="cancel {booking} | call off {booking} | drop {booking} | get rid of {booking}",
        done="{booking} is cancelled: the fee is {cancellation_fee} and {refund_amount} goes back "
        "to your payment method on file.",
        report=("refund_amount",),
        before=(("get_refund_quote", _bid),),
        check=rules.refund_quote,
        price="cancellation_fee",
        when=_left_today,
        motives=CANCEL_MOTIVES,
        motives_for=_missed(CANCEL_MOTIVES),
        weight=5,
    ),
    Goal(
        "change",
        "change_booking",
        ("booking",),
        _move,
        words="move {booking} to the {departure} train on {date} | switch {booking} to the "
        "{departure} departure on {date} | change {booking} to the train leaving at "
        "{departure} on {date}",
        done="{booking} is now on train {new_train_number} at {departure_time} on {travel_date}; "
        "you paid {total_to_pay} (change fee {change_fee}).",
        report=("total_to_pay",),
        before=(SEARCH, ("get_change_quote", _move)),
        check=rules.change_quote,
        when=lambda d: bool(_others(d)) and _left_today(d),
        extra=_target,
        price="total_to_pay",
        price_noun="change",
        motives=CHANGE_MOTIVES,
        motives_for=_missed(CHANGE_MOTIVES),
        weight=4,
    ),
    Goal(
        "upgrade",
        "upgrade_class",
        ("booking",),
        _bid,
        words="upgrade {booking} to first class | move {booking} up to first class | get "
        "first-class seats for {booking}",
        done="{booking} is now first class; the upgrade cost {upgrade_cost}.",
        # the train's seats: what a sold-out refusal states ("only 0 first seats left")
        before=(("get_train_details", _train), ("get_upgrade_quote", _bid)),
        check=rules.upgrade_quote,
        when=lambda d: d["booking"]["fare_class"] != "first" and _left_today(d),
        price="upgrade_cost",
        price_noun="upgrade",
        motives="I'd like a more comfortable seat. | I need to work on the train. | It's our "
        "anniversary. | My back has been bad lately.",
    ),
    Goal(
        "luggage",
        "add_luggage",
        ("booking",),
        lambda d: {**_bid(d), "bags": d.extra["bags"]},
        words="add {checked} to {booking} | check in {checked} for {booking} | bring {checked} "
        "on {booking}",
        done="I added {checked} to {booking}, which now has {luggage} bag(s); the fee is {fee}.",
        report=("fee",),
        check=rules.luggage_quote,
        when=_left_today,
        extra=_bags,
        motives="I'm moving some things. | We're going away for a while. | I'm bringing gifts.",
    ),
    Goal(
        "book",
        "book_ticket",
        ("customer",),
        lambda d: {
            "customer_id": d["customer"]["customer_id"],
            **_fare("")(d),
        },
        words="book {tickets} from {origin} to {destination} on the {departure} train on {date} | "
        "get {tickets} on the {departure} from {origin} to {destination} on {date} | "
        "reserve {tickets} from {origin} to {destination} on {date}, on the {departure} "
        "train",
        done="You are booked: booking {booking_id} on train {train_number} at {departure} on "
        "{date}, {tickets}, {ticket_price} in total.",
        report=("booking_id", "ticket_price"),
        before=(SEARCH,),
        check=rules.check_booking,
        extra=_trip((1, 1, 1, 2, 2, 3, 4, 7, 8)),
        motives=BOOKING_MOTIVES,
        weight=4,
    ),
    Goal(
        "times",
        "get_train_details",
        ("booking",),
        _train,
        words="what time {booking} leaves and when it arrives | when {booking} departs and when "
        "it gets in",
        done="{booking} is on train {train_number}, leaving at {departure_time} and arriving at "
        "{arrival_time}.",
        report=("departure_time", "arrival_time"),
        when=lambda d: d["booking"]["status"] == "confirmed" and _status(d) == "scheduled",
        motives="I need to plan getting to the station. | Someone is picking me up.",
        weight=2,
    ),
    Goal(
        "refund",
        "get_refund_quote",
        ("booking",),
        _bid,
        words="how much I would get back if I cancelled {booking} now | what cancelling "
        "{booking} would cost me in fees",
        done="Cancelling {booking} now would cost {cancellation_fee} and refund "
        "{refund_amount}. I have not cancelled it.",
        report=("cancellation_fee", "refund_amount"),
        check=rules.refund_quote,
        when=_left_today,
        motives="My plans might change. | I'm not sure I can travel any more.",
        weight=2,
    ),
    Goal(
        "change_cost",
        "get_change_quote",
        ("booking",),
        _move,
        words="what it would cost to move {booking} to the {departure} train on {date} | how "
        "much I'd pay to switch {booking} to the {departure} departure on {date}",
        done="Moving {booking} to train {new_train_number} would cost {total_to_pay} (change "
        "fee {change_fee}). I have not changed it.",
        report=("total_to_pay",),
        before=(SEARCH,),
        check=rules.change_quote,
        when=lambda d: bool(_others(d)) and _left_today(d),
        extra=_target,
        motives="I'm thinking about travelling later. | My schedule may shift.",
        weight=2,
    ),
    Goal(
        "fare",
        "get_fare",
        (),
        _fare(""),
        words="how much {tickets} from {origin} to {destination} on the {departure} train on "
        "{date} would cost | what {tickets} on the {departure} from {origin} to "
        "{destination} on {date} would come to",
        done="{tickets} on train {train_number} cost {total} in total.",
        before=(SEARCH,),
        extra=_trip((1, 2, 3, 4)),
        motives="We're planning a family trip. | I'm comparing prices for a group.",
        weight=2,
    ),
    Goal(
        "first_extra",
        "calculate",
        (),
        _difference,
        words="how much more first class costs than standard for {who} on the {departure} train "
        "from {origin} to {destination} on {date} | the extra cost of first class over "
        "standard for {who} on the {departure} from {origin} to {destination} on {date}",
        done="On train {train_number}, first class costs {result} more than standard for {who}.",
        before=(SEARCH, ("get_fare", _fare("standard")), ("get_fare", _fare("first"))),
        extra=_trip((1, 2, 3, 4)),
        motives="I'm wondering whether to treat myself. | We're deciding on a class.",
        weight=2,
    ),
    Goal(
        "compensation",
        "transfer_to_human_agents",
        ("booking",),
        lambda d: {
            "summary": f"Compensation claim for booking {d['booking']['booking_id']} on train "
            f"{d['booking']['train_number']}, which the customer says was badly delayed."
        },
        words="claim compensation for the delay on {booking} | get money back because {booking} "
        "ran very late | complain that {booking} was badly delayed",
        done="Compensation claims are handled by our human agents, so I have transferred you to "
        "one with a summary of your claim about train {booking[train_number]}.",
        when=lambda d: d["booking"]["status"] == "confirmed" and _status(d) == "departed",
        motives="I missed an important appointment. | We waited for over an hour.",
        weight=2,
    ),
)


def stations_in(rng: random.Random, world: Record) -> Draft | None:
    """Which station a city has: one item of the station list, picked by the caller's city (a
    goal's `report` cannot select it)."""
    station = rng.choice(sorted(world["stations"].values(), key=lambda s: s["code"]))
    run = GoldRunner(RailwayTools, world)
    run("list_stations")
    city = station["city"]
    goals = (
        f"which station you serve in {city} and its code",
        f"the name and code of your station in {city}",
        f"what your station in {city} is called and its code",
    )
    motives = (  # the caller's words: the opening says one, the reason gives the same
        "I'm new to train travel.",
        "A friend is meeting me there.",
        "I'm planning a trip.",
        "My ticket names only the city.",
    )
    goal = rng.choice(goals)
    return Draft(
        Request(
            goals,
            "know",
            motives=motives,
            stated={"city": city},
            reason=f"You want to know {goal}.",
        ),
        run.actions,
        f"In {city} we serve {station['name']}, station code {station['code']}.",
        [station["name"], station["code"]],
        writes=False,
    )


class RailwayDomain(StatefulDomain):
    """Train tickets of one railway: 16 stations, ~220 trains, 140 customers, ~400 bookings."""

    name = "railway"
    version = "4.8"
    invariants = INVARIANTS
    identification = Identification("customer", ("email", "customer_id"), records=("booking",))
    toolkit = RailwayTools
    rules = rules
    entities = ENTITIES
    goals = GOALS
    handmade: ClassVar[dict[str, tuple[Template, int]]] = {"stations_in": (stations_in, 1)}

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return build_world(rng)
