"""The restaurant policy as code: its constants (policy.md is rendered from them), the errors of
each rule, and the checks the tools and the composer share (pure: they never change the state)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import PolicyError, lookup
from toolscale.tools.bounds import number, shown, text

TODAY = "2025-07-14"  # a Monday; the clock of every task
NOW = f"{TODAY}T15:00"
MAX_PARTY = 10  # larger parties are arranged by the events team (a human agent)
DEPOSIT_FROM = 6  # parties of this size or more pay a deposit
DEPOSIT_PER_GUEST = 15.0
DEPOSIT_FREE_TIER = "gold"
BOOKING_WINDOW_DAYS = 30
MIN_NOTICE_HOURS = 2
FREE_CANCEL_HOURS = 24
LATE_FEE_PER_GUEST = 7.5
MAX_REQUESTS = 2
TIERS = ("member", "silver", "gold")

Record = dict[str, Any]


class LargeParty(PolicyError):
    handoff = True


class TooFarAhead(PolicyError):
    pass


class TooSoon(PolicyError):
    pass


class Closed(PolicyError):
    pass


class NoTable(PolicyError):
    pass


class NotActive(PolicyError):
    pass


class TooLateToChange(PolicyError):
    pass


class TooManyRequests(PolicyError):
    pass


def starts(day: str, time: str) -> datetime:
    return datetime.fromisoformat(f"{day}T{time}")


def hours_until(state: Record, day: str, time: str) -> float:
    return (starts(day, time) - datetime.fromisoformat(state["now"])).total_seconds() / 3600


def tables_free(state: Record, restaurant: Record, day: str, time: str) -> int:
    taken = sum(
        r["restaurant_id"] == restaurant["restaurant_id"]
        and (r["date"], r["time"], r["status"]) == (day, time, "confirmed")
        for r in state["reservations"].values()
    )
    return restaurant["tables"] - taken


def deposit(state: Record, customer: Record, party: int) -> float:
    if party < DEPOSIT_FROM or customer["tier"] == DEPOSIT_FREE_TIER:
        return 0.0
    return round(DEPOSIT_PER_GUEST * party, 2)


def _when(day: str, time: str) -> tuple[str, str]:
    day = text(day, "date", max_chars=20).strip()
    time = text(time, "time", max_chars=10).strip()
    try:
        starts(day, time)
    except ValueError:
        raise ToolError(
            f"date {shown(day)} / time {shown(time)}: use YYYY-MM-DD and HH:MM"
        ) from None
    return day, time


def check_slot(state: Record, restaurant: Record, day: str, time: str, party: int) -> None:
    """Raise the policy error that forbids booking `party` guests at `restaurant` then."""
    number(party, "party_size", low=1, high=100, integer=True)
    day, time = _when(day, time)
    name = restaurant["name"]
    if party > MAX_PARTY:
        raise LargeParty(
            f"parties of more than {MAX_PARTY} guests are arranged by our events team, and "
            f"this one is {party}",
            shows=(restaurant["restaurant_id"],),
        )
    if date.fromisoformat(day) > date.fromisoformat(TODAY) + timedelta(BOOKING_WINDOW_DAYS):
        raise TooFarAhead(
            f"tables can be booked at most {BOOKING_WINDOW_DAYS} days ahead, and {day} is later",
            shows=(restaurant["restaurant_id"],),
        )
    if hours_until(state, day, time) < MIN_NOTICE_HOURS:
        raise TooSoon(f"a booking needs at least {MIN_NOTICE_HOURS} hours' notice")
    weekday = f"{date.fromisoformat(day):%A}"
    if weekday == restaurant["closed_on"]:
        raise Closed(f"{name} is closed on {weekday}s", shows=(restaurant["closed_on"],))
    if time not in restaurant["times"]:
        raise ToolError(f"{name} seats guests at {', '.join(restaurant['times'])} only")
    free = tables_free(state, restaurant, day, time)
    if free < 1:
        raise NoTable(
            f"{name} has no table left on {day} at {time}",
            shows=(restaurant["restaurant_id"], free),
        )


def active(state: Record, reservation: Record) -> None:
    if reservation["status"] != "confirmed":
        raise NotActive(
            f"reservation {reservation['reservation_id']} is {reservation['status']}",
            shows=(reservation["status"],),
        )


def changeable(state: Record, reservation: Record) -> None:
    active(state, reservation)
    hours = hours_until(state, reservation["date"], reservation["time"])
    if hours < FREE_CANCEL_HOURS:
        raise TooLateToChange(
            f"a reservation can be changed only {FREE_CANCEL_HOURS} hours or more before it "
            f"starts, and {reservation['reservation_id']} starts on {reservation['date']} at "
            f"{reservation['time']}",
            shows=(reservation["time"],),
        )


def check_booking(
    state: Record, customer_id: str, restaurant_id: str, date: str, time: str, party_size: int
) -> None:
    lookup(state, "customers", customer_id, "customer")
    check_slot(
        state, lookup(state, "restaurants", restaurant_id, "restaurant"), date, time, party_size
    )


def cancel_quote(state: Record, reservation_id: str) -> Record:
    reservation = lookup(state, "reservations", reservation_id, "reservation")
    active(state, reservation)
    late = hours_until(state, reservation["date"], reservation["time"]) < FREE_CANCEL_HOURS
    fee = round(LATE_FEE_PER_GUEST * reservation["party_size"], 2) if late else 0.0
    free_until = starts(reservation["date"], reservation["time"]) - timedelta(
        hours=FREE_CANCEL_HOURS
    )
    return {
        "reservation_id": reservation["reservation_id"],
        "free_until": free_until.isoformat(sep=" ", timespec="minutes"),
        "cancellation_fee": fee,
        "deposit_refund": round(max(reservation["deposit_paid"] - fee, 0.0), 2),
    }


def check_party(state: Record, reservation_id: str, party_size: int) -> Record:
    reservation = lookup(state, "reservations", reservation_id, "reservation")
    changeable(state, reservation)
    restaurant = state["restaurants"][reservation["restaurant_id"]]
    if party_size > MAX_PARTY:
        check_slot(state, restaurant, reservation["date"], reservation["time"], party_size)
    number(party_size, "party_size", low=1, high=MAX_PARTY, integer=True)
    customer = state["customers"][reservation["customer_id"]]
    return {"deposit": deposit(state, customer, party_size)}


def check_move(state: Record, reservation_id: str, date: str, time: str) -> None:
    reservation = lookup(state, "reservations", reservation_id, "reservation")
    changeable(state, reservation)
    restaurant = state["restaurants"][reservation["restaurant_id"]]
    check_slot(state, restaurant, date, time, reservation["party_size"])


def check_request(state: Record, reservation_id: str, note: str) -> None:
    reservation = lookup(state, "reservations", reservation_id, "reservation")
    text(note, "note", max_chars=200)
    active(state, reservation)
    if len(reservation["requests"]) >= MAX_REQUESTS:
        raise TooManyRequests(
            f"a reservation holds at most {MAX_REQUESTS} special requests, and "
            f"{reservation['reservation_id']} has {len(reservation['requests'])}: "
            + "; ".join(reservation["requests"]),
            shows=tuple(reservation["requests"]),
        )
