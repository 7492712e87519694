"""The restaurant policy as code: its constants (policy.md is rendered from them), the errors of
each rule, and the checks the tools and the composer share (pure: they never change the state)."""

from __future__ import annotations

from datetime import date, timedelta

from toolscale.core.contract import ToolError
from toolscale.kit import Record, lookup, rule
from toolscale.kit.clock import hours_until, moment, weekday
from toolscale.tools.bounds import number, text

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

LargeParty = rule("LargeParty", handoff=True)
TooFarAhead = rule("TooFarAhead")
TooSoon = rule("TooSoon")
Closed = rule("Closed")
NoTable = rule("NoTable")
NotActive = rule("NotActive")
TooLateToChange = rule("TooLateToChange")
TooManyRequests = rule("TooManyRequests")


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


def check_slot(state: Record, restaurant: Record, day: str, time: str, party: int) -> None:
    """Raise the policy error that forbids booking `party` guests at `restaurant` then."""
    number(party, "party_size", low=1, high=100, integer=True)
    moment(day, time)
    day, time, name = day.strip(), time.strip(), restaurant["name"]
    LargeParty.raise_if(
        party > MAX_PARTY,
        f"parties of more than {MAX_PARTY} guests are arranged by our events team, and "
        f"this one is {party}",
        restaurant["restaurant_id"],
    )
    TooFarAhead.raise_if(
        date.fromisoformat(day) > date.fromisoformat(TODAY) + timedelta(BOOKING_WINDOW_DAYS),
        f"tables can be booked at most {BOOKING_WINDOW_DAYS} days ahead, and {day} is later",
        restaurant["restaurant_id"],
    )
    TooSoon.raise_if(
        hours_until(state["now"], day, time) < MIN_NOTICE_HOURS,
        f"a booking needs at least {MIN_NOTICE_HOURS} hours' notice",
    )
    Closed.raise_if(
        weekday(day) == restaurant["closed_on"],
        f"{name} is closed on {weekday(day)}s",
        restaurant["closed_on"],
    )
    if time not in restaurant["times"]:
        raise ToolError(f"{name} seats guests at {', '.join(restaurant['times'])} only")
    free = tables_free(state, restaurant, day, time)
    NoTable.raise_if(
        free < 1, f"{name} has no table left on {day} at {time}", restaurant["restaurant_id"], free
    )


def changeable(state: Record, reservation_id: str, late_ok: bool = True) -> Record:
    """The reservation, if it is confirmed (and, unless `late_ok`, a day or more ahead)."""
    reservation = lookup(state, "reservations", reservation_id)
    rid, status = reservation["reservation_id"], reservation["status"]
    said = {"no_show": "was a no-show"}.get(status, f"is {status}")  # not the raw "no_show"
    NotActive.raise_if(status != "confirmed", f"reservation {rid} {said}", status)
    late = hours_until(state["now"], reservation["date"], reservation["time"]) < FREE_CANCEL_HOURS
    TooLateToChange.raise_if(
        late and not late_ok,
        f"a reservation can be changed only {FREE_CANCEL_HOURS} hours or more before it "
        f"starts, and {rid} starts on {reservation['date']} at {reservation['time']}",
        reservation["time"],
    )
    return reservation


def cancel_quote(state: Record, reservation_id: str) -> Record:
    reservation = changeable(state, reservation_id)
    starts = moment(reservation["date"], reservation["time"])
    late = hours_until(state["now"], reservation["date"], reservation["time"]) < FREE_CANCEL_HOURS
    fee = round(LATE_FEE_PER_GUEST * reservation["party_size"], 2) if late else 0.0
    return {
        "reservation_id": reservation["reservation_id"],
        "free_until": (starts - timedelta(hours=FREE_CANCEL_HOURS)).isoformat(" ", "minutes"),
        "cancellation_fee": fee,
        "deposit_refund": round(max(reservation["deposit_paid"] - fee, 0.0), 2),
    }


def check_party(state: Record, reservation_id: str, party_size: int) -> Record:
    reservation = changeable(state, reservation_id, late_ok=False)
    if party_size > MAX_PARTY:  # a rule of check_slot refuses it
        check_move(state, reservation_id, reservation["date"], reservation["time"], party_size)
    else:
        number(party_size, "party_size", low=1, high=MAX_PARTY, integer=True)
    return reservation


def check_move(state: Record, reservation_id: str, date: str, time: str, party: int = 0) -> Record:
    reservation = changeable(state, reservation_id, late_ok=False)
    restaurant = state["restaurants"][reservation["restaurant_id"]]
    check_slot(state, restaurant, date, time, party or reservation["party_size"])
    return reservation


def check_request(state: Record, reservation_id: str, note: str) -> Record:
    text(note, "note", max_chars=200)
    reservation = changeable(state, reservation_id)
    TooManyRequests.raise_if(
        len(reservation["requests"]) >= MAX_REQUESTS,
        f"a reservation holds at most {MAX_REQUESTS} special requests, and "
        f"{reservation['reservation_id']} has {len(reservation['requests'])}: "
        + "; ".join(reservation["requests"]),
        *reservation["requests"],
    )
    return reservation
