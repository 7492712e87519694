"""The simple railway task templates (one to three gold actions): look up, quote, book, cancel.

Each template picks records from a fresh state, plays its gold actions with a `Runner` and words
the request and the correct final reply from the real tool outputs. It returns None when the state
has nothing it can use.
"""

from __future__ import annotations

import random

from domains.railway import rules
from domains.railway.runner import (
    Draft,
    Record,
    Runner,
    bags_text,
    customer_of,
    facts,
    fits,
    money,
    pick,
    route_trains,
    tickets_text,
    train_of,
    trip,
    unique_trip,
    upcoming,
)


def departure_time(rng: random.Random, state: Record) -> Draft | None:
    booking = pick(rng, upcoming(state))
    if booking is None:
        return None
    run = Runner(state)
    view = run("get_booking_details", booking_id=booking["booking_id"])
    train = run("get_train_details", train_number=view["train_number"])
    dep, arr = train["departure_time"], train["arrival_time"]
    return Draft(
        f"Hi, what time does the train of my booking {booking['booking_id']} leave, and when "
        "does it arrive?",
        run.actions,
        f"Your train {train['train_number']} on {train['date']} departs at {dep} and arrives "
        f"at {arr}.",
        [dep, arr],
    )


def refund_quote(rng: random.Random, state: Record) -> Draft | None:
    booking = pick(rng, upcoming(state, lambda b, t: b["fare_class"] != "saver"))
    if booking is None:
        return None
    run = Runner(state)
    quote = run("get_refund_quote", booking_id=booking["booking_id"])
    return Draft(
        f"I'm thinking about cancelling booking {booking['booking_id']}, but don't cancel it "
        "yet. How much would I get back if I cancelled it today?",
        run.actions,
        f"If you cancelled booking {booking['booking_id']} today, the cancellation fee would be "
        f"{money(quote['cancellation_fee'])} and you would get "
        f"{money(quote['refund_amount'])} back. I have not cancelled it.",
        facts(quote["refund_amount"]),
    )


def fare_lookup(rng: random.Random, state: Record) -> Draft | None:
    train = pick(rng, [t for t in state["trains"].values() if route_trains(state, t, t["date"])])
    if train is None:
        return None
    first = route_trains(state, train, train["date"])[0]
    fare_class, passengers = rng.choice(rules.FARE_CLASSES), rng.randint(2, 4)
    run = Runner(state)
    run.search(train)
    quote = run(
        "get_fare", train_number=first["train_number"], fare_class=fare_class, passengers=passengers
    )
    return Draft(
        f"How much would {tickets_text(passengers, fare_class)} on the earliest train "
        f"{trip(state, train)} on {train['date']} cost in total? Just the price, please.",
        run.actions,
        f"The earliest train is {first['train_number']} at {first['departure_time']}; "
        f"{tickets_text(passengers, fare_class)} cost {money(quote['total'])} in total.",
        facts(first["train_number"], quote["total"]),
    )


def add_luggage(rng: random.Random, state: Record) -> Draft | None:
    room = upcoming(state, lambda b, t: b["luggage"] < rules.MAX_BAGS * b["passengers"])
    booking = pick(rng, room)
    if booking is None:
        return None
    bags = rng.randint(1, min(3, rules.MAX_BAGS * booking["passengers"] - booking["luggage"]))
    run = Runner(state)
    out = run("add_luggage", booking_id=booking["booking_id"], bags=bags)
    return Draft(
        f"Please add {bags_text(bags)} to my booking {booking['booking_id']}. "
        "What does it cost me?",
        run.actions,
        f"I added {bags_text(bags)} to booking {booking['booking_id']}, which now has "
        f"{out['luggage']} bag(s). The fee charged is {money(out['fee'])}.",
        facts(out["fee"]),
    )


def cancel_by_email(rng: random.Random, state: Record) -> Draft | None:
    booking = pick(rng, upcoming(state, lambda b, t: unique_trip(state, b)))
    if booking is None:
        return None
    customer, train = customer_of(state, booking), train_of(state, booking)
    run = Runner(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    out = run("cancel_booking", booking_id=booking["booking_id"])
    return Draft(
        f"Hello, this is {customer['name']} ({customer['email']}). Please cancel my trip "
        f"{trip(state, train)} on {train['date']}. How much will I get back?",
        run.actions,
        f"Booking {booking['booking_id']} is cancelled. The cancellation fee was "
        f"{money(out['cancellation_fee'])} and {money(out['refund_amount'])} will be refunded "
        "to your payment method on file.",
        facts(booking["booking_id"], out["refund_amount"]),
    )


def book_earliest(rng: random.Random, state: Record) -> Draft | None:
    fare_class = rng.choices(rules.FARE_CLASSES, weights=(1, 3, 2))[0]
    passengers = rng.randint(1, 3)
    days: dict[tuple[str, str, str], list[Record]] = {}
    for t in state["trains"].values():
        if rules.train_status(state, t) == "scheduled":
            days.setdefault((t["origin"], t["destination"], t["date"]), []).append(t)
    options = [
        sorted(ts, key=lambda t: t["departure_time"])
        for ts in days.values()
        if any(fits(t, fare_class, passengers) for t in ts)
    ]
    tricky = [ts for ts in options if not fits(ts[0], fare_class, passengers)]
    day = pick(rng, tricky if tricky and rng.random() < 0.6 else options)
    if day is None:
        return None
    target = next(t for t in day if fits(t, fare_class, passengers))
    customer = rng.choice(list(state["customers"].values()))
    run = Runner(state)
    run("find_customer_by_email", email=customer["email"])
    run.search(target)
    new = run(
        "book_ticket",
        customer_id=customer["customer_id"],
        train_number=target["train_number"],
        fare_class=fare_class,
        passengers=passengers,
    )
    seats = tickets_text(passengers, fare_class)
    return Draft(
        f"Hi, I'm {customer['name']}, email {customer['email']}. Please book {seats} "
        f"{trip(state, target)} on {target['date']} on the earliest train that still has "
        "enough seats in that class.",
        run.actions,
        f"Booked: booking {new['booking_id']} on train {target['train_number']} departing "
        f"{target['departure_time']} on {target['date']}, {seats}, total "
        f"{money(new['ticket_price'])}.",
        facts(new["booking_id"], target["train_number"], new["ticket_price"]),
    )
