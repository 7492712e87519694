"""What the railway's goals read from a draw: the booking, its trip, fares and searches."""

from __future__ import annotations

from typing import Any

from domains.railway import rules
from toolscale.kit import Draw
from toolscale.kit.words import spoken

Record = dict[str, Any]
CLASS_WORDS = {"saver": "saver", "standard": "standard", "first": "first-class"}


def city(world: Record, code: str) -> str:
    """The city of the station `code`."""
    return world["stations"][code]["city"]


def _bid(draw: Draw) -> dict[str, Any]:
    return {"booking_id": draw["booking"]["booking_id"]}


def _status(draw: Draw) -> str:
    return rules.train_status(draw.world, draw.world["trains"][draw["booking"]["train_number"]])


def _others(draw: Draw) -> list[Record]:
    """Scheduled trains on the booking's route other than its own."""
    booking = draw["booking"]
    return [
        t
        for t in draw.world["trains"].values()
        if (t["origin"], t["destination"]) == (booking["origin"], booking["destination"])
        and t["train_number"] != booking["train_number"]
        and rules.train_status(draw.world, t) == "scheduled"
    ]


def _target(draw: Draw) -> dict[str, Any]:
    train = draw.rng.choice(_others(draw))
    return {"date": train["date"], "departure": train["departure_time"], "to": train}


def _move(draw: Draw) -> dict[str, Any]:
    return {**_bid(draw), "new_train_number": draw.extra["to"]["train_number"]}


def _route(draw: Draw) -> dict[str, Any]:
    train = draw.extra["to"]
    return {"origin": train["origin"], "destination": train["destination"], "date": train["date"]}


def _trip(group: tuple[int, ...]) -> Any:
    """`extra` of a goal on a scheduled train the caller names by route, date and time, for a
    number of passengers drawn from `group`."""

    def extra(draw: Draw) -> dict[str, Any]:
        train = draw.rng.choice(list(draw.world["trains"].values()))
        while rules.train_status(draw.world, train) != "scheduled":
            train = draw.rng.choice(list(draw.world["trains"].values()))
        fare_class = draw.rng.choices(rules.FARE_CLASSES, weights=(1, 3, 2))[0]
        passengers = draw.rng.choice(group)
        tickets = f"{spoken(passengers)} {CLASS_WORDS[fare_class]} ticket"
        return {
            "origin": city(draw.world, train["origin"]),
            "destination": city(draw.world, train["destination"]),
            "date": train["date"],
            "departure": train["departure_time"],
            "tickets": tickets + ("s" if passengers > 1 else ""),
            "class": fare_class,
            "who": f"{spoken(passengers)} passenger" + ("s" if passengers > 1 else ""),
            "passengers": passengers,
            "to": train,
        }

    return extra


def _fare(fare_class: str) -> Any:
    return lambda d: {
        "train_number": d.extra["to"]["train_number"],
        "fare_class": fare_class or d.extra["class"],
        "passengers": d.extra["passengers"],
    }


def _difference(draw: Draw) -> dict[str, Any]:
    fares, passengers = draw.extra["to"]["fares"], draw.extra["passengers"]
    first, standard = (round(fares[c] * passengers, 2) for c in ("first", "standard"))
    return {"expression": f"{first} - {standard}"}


def _bags(draw: Draw) -> dict[str, Any]:
    bags = draw.rng.choice((1, 1, 2, 2, 3, 4))
    return {"bags": bags, "checked": f"{spoken(bags)} checked bag" + ("s" if bags > 1 else "")}


SEARCH = ("search_trains", _route)
BOOKING_MOTIVES = (
    "We're visiting relatives.",
    "I have a conference to attend.",
    "It's for a weekend away.",
    "My daughter starts university there.",
    "I'm going to a wedding.",
    "We're off to a football match.",
)
