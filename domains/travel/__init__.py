"""The travel domain (stateful, kit v2): a travel agency's desk for trips already sold: hotel
stays on them, travel insurance, visas, loyalty points, cancellations.

Declared, not templated: the world (`world.build_world`), the tool graph (`tools`), the policy
(`rules`, rendered into policy.md) and the goals below; the kit composes every task.
"""

from __future__ import annotations

from typing import Any

from domains.travel import rules, world
from domains.travel.invariants import INVARIANTS
from domains.travel.tools import TravelTools
from toolscale.kit import Draw, Entity, Goal, Record, StatefulDomain
from toolscale.kit.clock import days_between, shift
from toolscale.kit.identify import Identification
from toolscale.kit.words import day


def _trip_words(trip: Record, world: Record, precise: bool) -> str:
    noun = ("trip", "holiday", "booking")[int(trip["trip_id"][2:]) % 3]
    if not precise:
        return f"my {noun} to {trip['city']}"
    went = "that began" if trip["start"] < rules.TODAY else "leaving"  # a trip under way began
    return f"my {noun} to {trip['city']} {went} {day(trip['start'])}"


def _stay_words(stay: Record, world: Record, precise: bool) -> str:
    hotel = world["hotels"][stay["hotel_id"]]["name"]
    return f"my stay at {hotel}" + (f" from {day(stay['check_in'])}" if precise else "")


ENTITIES = (
    Entity("traveller", labels={"phone": "phone number"}),
    Entity("hotel", said=("name",), labels={"name": "hotel name"}),
    Entity(
        "trip",
        owner="traveller",
        describe=_trip_words,
        alike=lambda t: t["city"],
        tell="start",
        labels={"start": "departure date"},
    ),
    Entity(
        "stay",
        owner="trip",
        describe=_stay_words,
        alike=lambda s: s["hotel_id"],
        tell="check_in",
        labels={"check_in": "arrival date"},
    ),
)


def _ahead(draw: Draw) -> bool:
    return draw["trip"]["start"] > rules.TODAY


def _stay(draw: Draw) -> Record:
    trip, rng = draw["trip"], draw.rng
    length = days_between(trip["start"], trip["end"])
    check_in = shift(trip["start"], rng.choice((*range(length), length, -1)))
    rooms = rng.choices((1, 2, 3, 4, 5, 6), weights=(8, 6, 2, 1, 1, 1))[0]
    return {"check_in": check_in, "nights": rng.randint(1, 5), "rooms": rooms}


def _city(draw: Draw) -> Record:
    hotel = draw.rng.choice(list(draw.world["hotels"].values()))
    return {"city": hotel["city"], "board": hotel["board"]}


def _redeemed(draw: Draw) -> dict[str, Any]:
    points = draw.rng.randrange(1000, 60001, 500)
    return {"points": points, "redeemed": points}


GOALS = (
    Goal(
        "book_hotel_stay",
        extra=_stay,
        words="book {rooms} rooms at {hotel} for {nights} nights from {check_in} on {trip} | "
        "add a stay at {hotel} to {trip}: {rooms} rooms, {nights} nights, checking in "
        "{check_in} | reserve {hotel} for {trip}, {nights} nights from {check_in}, {rooms} rooms",
        done="Booked: stay {stay_id} at {hotel} from {check_in}, {nights} nights, {rooms} rooms, "
        "for {price}.",
        before=("quote_stay",),
        check=rules.check_stay,
        price="total",
        price_noun="stay",
        motives="We want a few nights by the sea. | My parents are joining us. | The tour "
        "ends early. | We fancy a second base. | Our friends recommended it.",
        weight=4,
    ),
    Goal(
        "cancel_stay",
        words="cancel {stay} | drop {stay} from my trip | call off {stay}",
        done="{stay} is cancelled and {refund} is refunded to your card.",
        check=rules.cancel_stay,
        motives="We found somewhere closer to the old town. | Friends will put us up. | "
        "We are cutting the trip short.",
    ),
    Goal(
        "cancel_trip",
        words="cancel {trip} | call off {trip} altogether | cancel the whole of {trip}",
        done="{trip} is cancelled with its stays; the fee is {cancellation_fee} and {refund} "
        "goes back to you.",
        before=("get_cancellation_quote",),
        check=rules.trip_refund,
        price="cancellation_fee",
        motives="My mother is in hospital. | I lost my job. | Work won't give me the time off. "
        "| We are expecting a baby.",
    ),
    Goal(
        "add_travel_insurance",
        extra=lambda d: {"plan": d.rng.choice(list(rules.PLANS))},
        words="add {plan} travel insurance to {trip} | insure {trip} with the {plan} plan | "
        "get {plan} cover for {trip}",
        done="{trip} now has {plan} insurance; the premium of {premium} is charged.",
        before=("get_insurance_quote",),
        check=rules.insurance_quote,
        price="premium",
        motives="A friend's luggage was lost last year. | I want peace of mind. | "
        "The weather there is unpredictable.",
    ),
    Goal(
        "apply_for_visa",
        words="apply for the visa I need for {trip} | get my visa sorted for {trip} | "
        "start a visa application for {trip}",
        done="The visa application for {country} is filed for {trip}; the fee of {fee_charged} "
        "is charged and it is ready by {ready_by}.",
        before=("check_entry_requirements",),
        check=rules.check_visa,
        price="visa_fee",
        motives="The embassy website confuses me. | It's my first trip abroad. | "
        "I don't want trouble at the border.",
    ),
    Goal(
        "redeem_points",
        extra=_redeemed,
        words="use {points} of my points on {trip} | put {points} loyalty points towards {trip} "
        "| redeem {points} points against {trip}",
        # not {points}: the traveller read before it holds "points" too, the balance
        done="{redeemed} points are redeemed on {trip}: a credit of {credit}, {still_due} still "
        "due and {points_left} points left.",
        before=("get_traveller",),  # the points held: a trip found by its id does not show them
        check=rules.check_points,
        motives="The points are about to expire. | Money is tight this month. | "
        "I've been saving them for this.",
    ),
    Goal(
        "get_cancellation_quote",
        words="how much I'd get back if I cancelled {trip} | what cancelling {trip} would cost",
        done="Cancelling {trip} now would cost {cancellation_fee} and refund {refund} "
        "({days_to_departure} days before departure). I have not cancelled it.",
        check=rules.trip_refund,
        when=_ahead,
        motives="I might not be able to go. | Things are uncertain at home.",
    ),
    Goal(
        "search_hotels",
        extra=_city,
        words="which hotels in {city} come with {board} | what {board} hotels you have in {city}",
        done="The {board} hotels in {city} are: {names}.",
        derive=lambda found: {"names": [h["name"] for h in found]},
        motives="We're planning next year's holiday. | A friend is going there.",
        weight=2,
    ),
    Goal(
        "cost",
        "calculate",
        ("hotel",),
        lambda d: {
            "expression": f"{d['hotel']['nightly_rate']} * {d.extra['nights']} * {d.extra['rooms']}"
        },
        extra=lambda d: {"nights": d.rng.randint(2, 9), "rooms": d.rng.randint(2, 4)},
        words="what {nights} nights in {rooms} rooms at {hotel} would cost at the nightly rate | "
        "how much {rooms} rooms for {nights} nights at {hotel} come to before discounts",
        done="{rooms} rooms for {nights} nights at {hotel} come to {result} dollars.",
        motives="I'm comparing hotels for a family reunion.",
        weight=2,
    ),
)


class TravelDomain(StatefulDomain):
    """A travel agency's desk: 40 hotels in ten cities, 150 travellers, ~300 trips, their stays."""

    name = "travel"
    version = "1.8"
    invariants = INVARIANTS
    identification = Identification("traveller", ("email", "phone", "traveller_id"))
    toolkit = TravelTools
    rules = rules
    entities = ENTITIES
    goals = GOALS
    build_world = staticmethod(world.build_world)
