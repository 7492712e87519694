"""The railway policy as code: its constants (policy.md is rendered from them), one `PolicyError`
per rule, and the quotes and checks the tools and the composer share (they never change the
state: a WRITE tool applies a quote, a READ tool shows one)."""

from __future__ import annotations

from datetime import date
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import lookup, rule

TODAY = "2025-06-10"
CLOCK = "12:00"
NOW = f"{TODAY}T{CLOCK}"
FARE_CLASSES = ("saver", "standard", "first")
TIERS = ("regular", "silver", "gold")
CANCEL_DAYS = (14, 3, 0)  # least days before departure of each band, first match wins
CANCEL_FEES = {"saver": (1.0, 1.0, 1.0), "standard": (0.0, 0.2, 0.5), "first": (0.0, 0.1, 0.3)}
CHANGE_FEE = {"regular": 15.0, "silver": 7.5, "gold": 0.0}  # per passenger
FREE_BAGS = {"regular": 0, "silver": 1, "gold": 2}  # per passenger
BAG_FEE = 12.5
MAX_BAGS = 3  # per passenger
MAX_PASSENGERS = 6  # larger groups go to the group travel desk (a human agent)

Record = dict[str, Any]


NotActive = rule("NotActive")
Departed = rule("Departed")
OperatorCancelled = rule("OperatorCancelled")
SaverFixed = rule("SaverFixed")
NotStandard = rule("NotStandard")
SoldOut = rule("SoldOut")
TooManyBags = rule("TooManyBags")
GroupBooking = rule("GroupBooking", handoff=True)


def train_status(state: Record, train: Record) -> str:
    """'cancelled' (by the operator), 'departed' (departure is not after now) or 'scheduled'."""
    if train["status"] == "cancelled":
        return "cancelled"
    if f"{train['date']}T{train['departure_time']}" <= state["now"]:
        return "departed"
    return "scheduled"


def days_before(state: Record, train: Record) -> int:
    return (date.fromisoformat(train["date"]) - date.fromisoformat(state["today"])).days


def _active(state: Record, booking: Record) -> Record:
    """The booking's train, after checking the booking can still be modified or cancelled."""
    number = booking["train_number"]
    NotActive.raise_if(
        booking["status"] != "confirmed",
        f"booking {booking['booking_id']} is already {booking['status']}",
        booking["status"],
        number,
    )
    train = state["trains"][number]
    Departed.raise_if(
        train_status(state, train) == "departed",
        f"train {number} of booking {booking['booking_id']} has already departed "
        f"({train['date']} {train['departure_time']})",
        number,
        train["departure_time"],
    )
    return train


def _not_cancelled(train: Record, advice: str = "") -> None:
    OperatorCancelled.raise_if(
        train["status"] == "cancelled",
        f"train {train['train_number']} was cancelled by the operator{advice}",
        train["train_number"],
    )


def _seats(state: Record, train: Record, fare_class: str, passengers: int) -> None:
    status = train_status(state, train)
    if status != "scheduled":
        raise ToolError(f"train {train['train_number']} is {status} and cannot be booked")
    if fare_class not in train["fares"]:
        raise ToolError(f"unknown fare class {fare_class!r}; use saver, standard or first")
    SoldOut.raise_if(
        train["seats_left"][fare_class] < passengers,
        f"train {train['train_number']} has only {train['seats_left'][fare_class]} "
        f"{fare_class} seat(s) left, {passengers} needed",
        train["train_number"],
    )


def refund_quote(state: Record, booking_id: str) -> Record:
    booking = lookup(state, "bookings", booking_id, "booking")
    train = _active(state, booking)
    days = days_before(state, train)
    if train["status"] == "cancelled":
        fee, refund = 0.0, round(booking["ticket_price"] + booking["fees_paid"], 2)
    else:
        band = next((i for i, least in enumerate(CANCEL_DAYS) if days >= least), -1)
        fee = round(booking["ticket_price"] * CANCEL_FEES[booking["fare_class"]][band], 2)
        refund = round(booking["ticket_price"] - fee, 2)
    return {
        "booking_id": booking["booking_id"],
        "days_before_departure": days,
        "train_cancelled_by_operator": train["status"] == "cancelled",
        "cancellation_fee": fee,
        "refund_amount": refund,
    }


def change_quote(state: Record, booking_id: str, new_train_number: str) -> Record:
    booking = lookup(state, "bookings", booking_id, "booking")
    new_train = lookup(state, "trains", new_train_number, "train")
    train = _active(state, booking)
    _not_cancelled(train, ": cancel the booking for a full refund and book a new ticket instead")
    SaverFixed.raise_if(
        booking["fare_class"] == "saver",
        f"booking {booking['booking_id']} is a saver ticket, and saver tickets cannot be changed",
        "saver",
        train["train_number"],
    )
    if new_train["train_number"] == train["train_number"]:
        raise ToolError(f"booking {booking['booking_id']} is already on {train['train_number']}")
    if (new_train["origin"], new_train["destination"]) != (train["origin"], train["destination"]):
        raise ToolError("a booking can only be changed to a train on the same route")
    _seats(state, new_train, booking["fare_class"], booking["passengers"])
    tier = state["customers"][booking["customer_id"]]["membership"]
    fee = round(CHANGE_FEE[tier] * booking["passengers"], 2)
    new_price = round(new_train["fares"][booking["fare_class"]] * booking["passengers"], 2)
    difference = round(new_price - booking["ticket_price"], 2)
    return {
        "booking_id": booking["booking_id"],
        "new_train_number": new_train["train_number"],
        "change_fee": fee,
        "fare_difference": difference,
        "total_to_pay": round(fee + max(difference, 0.0), 2),
        "new_ticket_price": max(new_price, booking["ticket_price"]),
    }


def upgrade_quote(state: Record, booking_id: str) -> Record:
    booking = lookup(state, "bookings", booking_id, "booking")
    train = _active(state, booking)
    NotStandard.raise_if(
        booking["fare_class"] != "standard",
        f"only standard tickets can be upgraded, and booking {booking['booking_id']} is "
        f"{booking['fare_class']}",
        booking["fare_class"],
        train["train_number"],
    )
    _not_cancelled(train)
    if train_status(state, train) == "scheduled":  # else a rule above refused it already
        _seats(state, train, "first", booking["passengers"])
    first_price = round(train["fares"]["first"] * booking["passengers"], 2)
    return {
        "booking_id": booking["booking_id"],
        "upgrade_cost": round(max(first_price - booking["ticket_price"], 0.0), 2),
        "new_ticket_price": max(first_price, booking["ticket_price"]),
    }


def luggage_quote(state: Record, booking_id: str, bags: int) -> Record:
    booking = lookup(state, "bookings", booking_id, "booking")
    train = _active(state, booking)
    _not_cancelled(train)
    if bags < 1:
        raise ToolError("bags must be at least 1")
    total = booking["luggage"] + bags
    TooManyBags.raise_if(
        total > MAX_BAGS * booking["passengers"],
        f"at most {MAX_BAGS} bags per passenger: this booking allows "
        f"{MAX_BAGS * booking['passengers']} in total and has {booking['luggage']}",
        train["train_number"],
    )
    free = FREE_BAGS[state["customers"][booking["customer_id"]]["membership"]]
    free *= booking["passengers"]
    paid = max(total - free, 0) - max(booking["luggage"] - free, 0)
    return {"booking_id": booking["booking_id"], "luggage": total, "fee": round(BAG_FEE * paid, 2)}


def check_booking(
    state: Record, customer_id: str, train_number: str, fare_class: str, passengers: int
) -> None:
    """Raise the error that forbids selling `passengers` seats of `fare_class` on the train."""
    lookup(state, "customers", customer_id, "customer")
    train = lookup(state, "trains", train_number, "train")
    GroupBooking.raise_if(
        passengers > MAX_PASSENGERS,
        f"bookings of more than {MAX_PASSENGERS} passengers are made by our group travel "
        f"desk, and this one is for {passengers}",
        train["train_number"],
    )
    if passengers < 1:
        raise ToolError(f"passengers must be between 1 and {MAX_PASSENGERS}")
    _seats(state, train, fare_class, passengers)
