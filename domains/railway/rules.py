"""The railway policy as code: record lookups, train status, and every fee and refund quote.

Quotes validate the request against policy.md and raise ToolError when it is not allowed; they
never change the state. The WRITE tools apply a quote; the READ tools show one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.tools.bounds import identifier, shown

# (minimum days before departure, fee rate per fare class), first match wins
CANCEL_RATES: tuple[tuple[int, dict[str, float]], ...] = (
    (14, {"saver": 1.0, "standard": 0.0, "first": 0.0}),
    (3, {"saver": 1.0, "standard": 0.2, "first": 0.1}),
    (0, {"saver": 1.0, "standard": 0.5, "first": 0.3}),
)
CHANGE_FEE = {"regular": 15.0, "silver": 7.5, "gold": 0.0}  # per passenger
FREE_BAGS = {"regular": 0, "silver": 1, "gold": 2}  # per passenger
BAG_FEE = 12.5
MAX_BAGS = 3  # per passenger
MAX_PASSENGERS = 6
FARE_CLASSES = ("saver", "standard", "first")

Record = dict[str, Any]


def lookup(state: Record, table: str, key: str) -> Record:
    """The record `key` of `state[table]`, or a ToolError naming what was not found."""
    label = {"customers": "customer", "bookings": "booking", "trains": "train"}[table]
    record = state[table].get(identifier(key, f"the {label} id").strip())
    if record is None:
        raise ToolError(f"no {label} with id {shown(key)}")
    return record


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
    if booking["status"] != "confirmed":
        raise ToolError(f"booking {booking['booking_id']} is already {booking['status']}")
    train = state["trains"][booking["train_number"]]
    if train_status(state, train) == "departed":
        raise ToolError(
            f"train {train['train_number']} of booking {booking['booking_id']} has already "
            f"departed ({train['date']} {train['departure_time']})"
        )
    return train


def _bookable(state: Record, train: Record, fare_class: str, passengers: int) -> None:
    status = train_status(state, train)
    if status != "scheduled":
        raise ToolError(f"train {train['train_number']} is {status} and cannot be booked")
    if fare_class not in train["fares"]:
        raise ToolError(f"unknown fare class {fare_class!r}; use saver, standard or first")
    if train["seats_left"][fare_class] < passengers:
        raise ToolError(
            f"train {train['train_number']} has only {train['seats_left'][fare_class]} "
            f"{fare_class} seat(s) left, {passengers} needed"
        )


def refund_quote(state: Record, booking: Record) -> Record:
    train = _active(state, booking)
    days = days_before(state, train)
    if train["status"] == "cancelled":
        fee, refund = 0.0, round(booking["ticket_price"] + booking["fees_paid"], 2)
    else:
        rate = next(r for least, r in CANCEL_RATES if days >= least)[booking["fare_class"]]
        fee = round(booking["ticket_price"] * rate, 2)
        refund = round(booking["ticket_price"] - fee, 2)
    return {
        "booking_id": booking["booking_id"],
        "days_before_departure": days,
        "train_cancelled_by_operator": train["status"] == "cancelled",
        "cancellation_fee": fee,
        "refund_amount": refund,
    }


def change_quote(state: Record, booking: Record, new_train: Record) -> Record:
    train = _active(state, booking)
    if train["status"] == "cancelled":
        raise ToolError(
            f"train {train['train_number']} was cancelled by the operator: cancel the booking "
            "for a full refund and book a new ticket instead"
        )
    if booking["fare_class"] == "saver":
        raise ToolError("saver tickets cannot be changed")
    if new_train["train_number"] == train["train_number"]:
        raise ToolError(f"booking {booking['booking_id']} is already on {train['train_number']}")
    if (new_train["origin"], new_train["destination"]) != (train["origin"], train["destination"]):
        raise ToolError("a booking can only be changed to a train on the same route")
    _bookable(state, new_train, booking["fare_class"], booking["passengers"])
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


def upgrade_quote(state: Record, booking: Record) -> Record:
    train = _active(state, booking)
    if booking["fare_class"] != "standard":
        raise ToolError(f"only standard tickets can be upgraded, not {booking['fare_class']}")
    _bookable(state, train, "first", booking["passengers"])
    first_price = round(train["fares"]["first"] * booking["passengers"], 2)
    return {
        "booking_id": booking["booking_id"],
        "upgrade_cost": round(max(first_price - booking["ticket_price"], 0.0), 2),
        "new_ticket_price": max(first_price, booking["ticket_price"]),
    }


def luggage_quote(state: Record, booking: Record, bags: int) -> Record:
    train = _active(state, booking)
    if train["status"] == "cancelled":
        raise ToolError(f"train {train['train_number']} was cancelled by the operator")
    if bags < 1:
        raise ToolError("bags must be at least 1")
    total = booking["luggage"] + bags
    if total > MAX_BAGS * booking["passengers"]:
        raise ToolError(
            f"at most {MAX_BAGS} bags per passenger: this booking allows "
            f"{MAX_BAGS * booking['passengers']} in total and has {booking['luggage']}"
        )
    free = FREE_BAGS[state["customers"][booking["customer_id"]]["membership"]]
    free *= booking["passengers"]
    paid = max(total - free, 0) - max(booking["luggage"] - free, 0)
    return {"booking_id": booking["booking_id"], "luggage": total, "fee": round(BAG_FEE * paid, 2)}


def check_bookable(state: Record, train: Record, fare_class: str, passengers: int) -> None:
    """Raise ToolError unless `passengers` seats of `fare_class` can be sold on `train`."""
    if not 1 <= passengers <= MAX_PASSENGERS:
        raise ToolError(f"passengers must be between 1 and {MAX_PASSENGERS}")
    _bookable(state, train, fare_class, passengers)
