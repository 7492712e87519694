"""The cinema chain's booking policy as code: constants (policy.md is rendered from them), one
error per rule, and the checks its tools and the composer share (pure: they change nothing)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import lookup, rule
from toolscale.tools.bounds import number, quoted, text

TODAY = "2025-09-18"  # a Thursday; the clock of every task
NOW = f"{TODAY}T17:00"
PLANS = ("none", "plus", "unlimited")
MONTHLY_FEE = {"none": 0.0, "plus": 6.99, "unlimited": 19.99}
PLUS_DISCOUNT = 0.2
IMAX_SURCHARGE = 5.0  # what unlimited members pay per IMAX seat
BOOKING_FEE = 1.0  # per seat, for customers without a plan
MAX_SEATS = 10  # larger groups are booked by the events team (a human agent)
CLOSE_MINUTES = 15
CHANGE_HOURS = 2
FEE_KEPT_HOURS = 24
MIN_AGE = {"15": 15, "18": 18}
SNACK_LIMIT = 6
COMMITMENT_DAYS = 180

Record = dict[str, Any]


GroupBooking = rule("GroupBooking", handoff=True)

NotBookable = rule("NotBookable")
AgeRestricted = rule("AgeRestricted")
SoldOut = rule("SoldOut")
BookingNotActive = rule("BookingNotActive")
TooLate = rule("TooLate")
AlreadyExchanged = rule("AlreadyExchanged")
DifferentFilm = rule("DifferentFilm")
SnackLimit = rule("SnackLimit")
CommitmentPeriod = rule("CommitmentPeriod")


def starts_in(state: Record, showing: Record) -> float:
    """Hours from now until `showing` starts (negative once it has)."""
    start = datetime.fromisoformat(f"{showing['date']}T{showing['time']}")
    return (start - datetime.fromisoformat(state["now"])).total_seconds() / 3600


def seat_cost(customer: Record, showing: Record) -> float:
    """One seat for `customer`: unlimited members pay only the IMAX surcharge, plus members get
    their discount, customers without a plan pay the booking fee on top."""
    plan, price = customer["plan"], showing["price"]
    if plan == "unlimited":
        return IMAX_SURCHARGE if showing["format"] == "IMAX" else 0.0
    return round(price * (1 - PLUS_DISCOUNT), 2) if plan == "plus" else price + BOOKING_FEE


def check_seats(state: Record, customer: Record, showing: Record, seats: int) -> Record:
    """The price of `seats` seats at `showing`, or the policy error that forbids them."""
    number(seats, "seats", low=1, high=100, integer=True)
    title, sid = showing["film"], showing["showing_id"]
    GroupBooking.raise_if(
        seats > MAX_SEATS,
        f"groups of more than {MAX_SEATS} are booked by our events team, and this is {seats}",
        sid,
    )
    NotBookable.raise_if(
        showing["status"] != "scheduled" or starts_in(state, showing) * 60 < CLOSE_MINUTES,
        f"showing {sid} of {title} is {showing['status']} and cannot be booked",
        showing["status"],
    )
    years = age(customer["birth_date"], showing["date"])
    # the rating is the reason the caller is told: their own birth date is no news to them,
    # and "you'll be 14 on the day" says it as well as the date does
    AgeRestricted.raise_if(
        years < MIN_AGE.get(showing["rating"], 0),
        f"{title} is rated {showing['rating']}, and customer {customer['customer_id']}, born "
        f"{customer['birth_date']}, is {years} on {showing['date']}",
        showing["rating"],
    )
    SoldOut.raise_if(
        showing["seats_left"] < seats,
        f"showing {sid} has too few seats left ({showing['seats_left']})",
        sid,
        showing["seats_left"],
    )
    each = seat_cost(customer, showing)
    return {"showing_id": sid, "per_seat": each, "seats": seats, "total": round(each * seats, 2)}


def age(born: str, on: str = TODAY) -> int:
    """Age in whole years on the day `on` (the policy: "at least that old on the day")."""
    birth, day = date.fromisoformat(born), date.fromisoformat(on[:10])
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def check_booking(state: Record, customer_id: str, showing_id: str, seats: int) -> Record:
    customer = lookup(state, "customers", customer_id, "customer")
    return check_seats(state, customer, lookup(state, "showings", showing_id, "showing"), seats)


def _open(state: Record, booking_id: str) -> tuple[Record, Record]:
    """The confirmed booking and its showing, which must start more than CHANGE_HOURS away."""
    booking = lookup(state, "bookings", booking_id, "booking")
    BookingNotActive.raise_if(
        booking["status"] != "confirmed",
        f"booking {booking['booking_id']} is {booking['status']}",
        booking["status"],
    )
    showing = state["showings"][booking["showing_id"]]
    TooLate.raise_if(
        starts_in(state, showing) < CHANGE_HOURS,
        f"bookings can be cancelled or exchanged until {CHANGE_HOURS} hours before "
        f"the film, and {booking['booking_id']} starts at {showing['time']} on "
        f"{showing['date']}",
        showing["time"],
    )
    return booking, showing


def cancel_refund(state: Record, booking_id: str) -> Record:
    """What cancelling gives back: the amount paid, less the booking fees inside 24 hours."""
    booking, showing = _open(state, booking_id)
    kept = 0.0
    if booking["fees"] and starts_in(state, showing) < FEE_KEPT_HOURS:
        kept = booking["fees"]
    refund = round(booking["paid"] - kept, 2)
    return {"booking_id": booking["booking_id"], "fees_kept": kept, "refund": refund}


def check_exchange(state: Record, booking_id: str, showing_id: str) -> Record:
    """The price difference of moving the booking to another showing of the same film at the
    same cinema."""
    booking, _ = _open(state, booking_id)
    AlreadyExchanged.raise_if(
        bool(booking["exchanged"]),
        f"a booking can be exchanged once, and {booking['booking_id']} was exchanged before",
        booking["booking_id"],
    )
    target = lookup(state, "showings", showing_id, "showing")
    if target["showing_id"] == booking["showing_id"]:
        raise ToolError(f"booking {booking['booking_id']} is already for showing {showing_id}")
    # the policy's "another showing of the same film at the same cinema": both halves
    elsewhere = target["cinema_id"] != booking["cinema_id"]
    DifferentFilm.raise_if(
        target["film"] != booking["film"] or elsewhere,
        f"a booking can only move to another showing of {booking['film']} at "
        f"{booking['cinema']}; {target['showing_id']} shows {target['film']} at "
        f"{target['cinema']}",
        target["film"] if target["film"] != booking["film"] else target["cinema"],
    )
    customer = state["customers"][booking["customer_id"]]
    quote = check_seats(state, customer, target, booking["seats"])
    return {**quote, "difference": round(quote["total"] - booking["paid"], 2)}


def check_snacks(state: Record, booking_id: str, item: str, quantity: int) -> Record:
    """The snack line to add and its price, or the policy error that forbids it."""
    booking = lookup(state, "bookings", booking_id, "booking")
    number(quantity, "quantity", low=1, high=50, integer=True)
    wanted = text(item, "item", max_chars=60).strip().casefold()
    BookingNotActive.raise_if(
        booking["status"] != "confirmed",
        f"booking {booking['booking_id']} is {booking['status']}",
        booking["status"],
    )
    menu = state["cinemas"][booking["cinema_id"]]["snacks"]
    if wanted not in menu:
        raise ToolError(f"{quoted(item)} is not sold here; the menu is {', '.join(menu)}")
    held = sum(line["quantity"] for line in booking["snacks"])
    SnackLimit.raise_if(
        held + quantity > SNACK_LIMIT,
        f"a booking holds at most {SNACK_LIMIT} pre-ordered snacks, and "
        f"{booking['booking_id']} has {held}",
        held,
    )
    return {"item": wanted, "quantity": quantity, "price": round(menu[wanted] * quantity, 2)}


def check_plan(state: Record, customer_id: str, plan: str) -> Record:
    """The new plan's monthly fee, or the policy error that forbids the change."""
    customer = lookup(state, "customers", customer_id, "customer")
    plan = text(plan, "plan", max_chars=20).strip().casefold()
    if plan not in PLANS:
        raise ToolError(f"plan {quoted(plan)}: choose one of {', '.join(PLANS)}")
    if plan == customer["plan"]:
        raise ToolError(f"customer {customer['customer_id']} is already on the {plan} plan")
    since = date.fromisoformat(customer["member_since"])
    CommitmentPeriod.raise_if(
        customer["plan"] == "unlimited"
        and since + timedelta(COMMITMENT_DAYS) > date.fromisoformat(TODAY),
        f"the unlimited plan runs at least {COMMITMENT_DAYS} days, and "
        f"{customer['customer_id']} joined on {customer['member_since']}",
        customer["member_since"],
    )
    return {"plan": plan, "monthly_fee": MONTHLY_FEE[plan]}
