"""The multi-step railway task templates (two to six gold actions): conditions, changes, rebooking.

Conditional templates state a threshold in the request; the gold branch is the one the policy's
quote selects, so the agent must read the quote before acting. Thresholds are whole numbers, so
they never contain an amount the tools print.
"""

from __future__ import annotations

import math
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
    other_day_trains,
    pick,
    route_trains,
    train_of,
    trip,
    unique_trip,
    upcoming,
)


def upgrade_or_luggage(rng: random.Random, state: Record) -> Draft | None:
    def fitting(b: Record, t: Record) -> bool:
        return (
            b["fare_class"] == "standard"
            and fits(t, "first", b["passengers"])
            and b["luggage"] < rules.MAX_BAGS * b["passengers"]
            and unique_trip(state, b)
        )

    booking = pick(rng, upcoming(state, fitting))
    if booking is None:
        return None
    customer, train = customer_of(state, booking), train_of(state, booking)
    cost = rules.upgrade_quote(state, booking)["upgrade_cost"]
    upgrade = cost < 2 or rng.random() < 0.5
    if upgrade:
        budget = math.ceil(cost) + rng.randint(0, 25)
    else:
        budget = max(math.floor(cost) - rng.randint(1, 25), 1)
    bags = rng.randint(1, min(2, rules.MAX_BAGS * booking["passengers"] - booking["luggage"]))
    run = Runner(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    run("get_upgrade_quote", booking_id=booking["booking_id"])
    if upgrade:
        run("upgrade_class", booking_id=booking["booking_id"])
        message = f"Booking {booking['booking_id']} is upgraded to first class for {money(cost)}."
        found = facts(cost)
    else:
        out = run("add_luggage", booking_id=booking["booking_id"], bags=bags)
        message = (
            f"The upgrade of booking {booking['booking_id']} would cost {money(cost)}, above your "
            f"limit of {budget}, so I did not upgrade it. I added {bags_text(bags)} instead, for a "
            f"fee of {money(out['fee'])}."
        )
        found = facts(cost, out["fee"])
    return Draft(
        f"Hi, {customer['name']} here ({customer['email']}). For my trip {trip(state, train)} on "
        f"{train['date']}: upgrade me to first class if the upgrade costs at most {budget}. If it "
        f"costs more, don't upgrade; just add {bags_text(bags)} to that booking instead. "
        "What did I pay?",
        run.actions,
        message,
        found,
    )


def cancel_or_change(rng: random.Random, state: Record) -> Draft | None:
    def fitting(b: Record, t: Record) -> bool:
        return b["fare_class"] != "saver" and bool(other_day_trains(state, b))

    booking = pick(rng, upcoming(state, fitting))
    if booking is None:
        return None
    new_date = rng.choice(sorted(other_day_trains(state, booking)))
    target = other_day_trains(state, booking)[new_date][0]
    refund = rules.refund_quote(state, booking)["refund_amount"]
    cancel = refund >= 2 and rng.random() < 0.5
    if cancel:
        threshold = max(math.floor(refund) - rng.randint(0, 20), 1)
    else:
        threshold = math.floor(refund) + rng.randint(1, 30)
    booking_id = booking["booking_id"]
    run = Runner(state)
    run("get_refund_quote", booking_id=booking_id)
    if cancel:
        run("cancel_booking", booking_id=booking_id)
        message = f"Booking {booking_id} is cancelled and {money(refund)} will be refunded."
        found = facts(refund)
    else:
        view = run("get_booking_details", booking_id=booking_id)
        run("search_trains", origin=view["origin"], destination=view["destination"], date=new_date)
        out = run("change_booking", booking_id=booking_id, new_train_number=target["train_number"])
        message = (
            f"Cancelling would only refund {money(refund)}, so I moved booking {booking_id} to "
            f"train {target['train_number']} at {target['departure_time']} on {new_date}. You paid "
            f"{money(out['total_to_pay'])} (change fee {money(out['change_fee'])})."
        )
        found = facts(target["train_number"], out["total_to_pay"])
    return Draft(
        f"About my booking {booking_id}: if cancelling it today refunds me at least {threshold}, "
        "please cancel it. Otherwise keep it but move it to the earliest train on the same route "
        f"on {new_date} that has seats for us. Tell me what happened and any amounts.",
        run.actions,
        message,
        found,
    )


def change_and_luggage(rng: random.Random, state: Record) -> Draft | None:
    def fitting(b: Record, t: Record) -> bool:
        return (
            b["fare_class"] != "saver"
            and b["luggage"] < rules.MAX_BAGS * b["passengers"]
            and unique_trip(state, b)
            and bool(other_day_trains(state, b))
        )

    booking = pick(rng, upcoming(state, fitting))
    if booking is None:
        return None
    customer, train = customer_of(state, booking), train_of(state, booking)
    new_date = rng.choice(sorted(other_day_trains(state, booking)))
    latest = rng.random() < 0.5
    target = other_day_trains(state, booking)[new_date][-1 if latest else 0]
    bags = rng.randint(1, min(3, rules.MAX_BAGS * booking["passengers"] - booking["luggage"]))
    booking_id = booking["booking_id"]
    run = Runner(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    run.search(train, new_date)
    out = run("change_booking", booking_id=booking_id, new_train_number=target["train_number"])
    bag = run("add_luggage", booking_id=booking_id, bags=bags)
    return Draft(
        f"Hello, I'm {customer['name']} ({customer['email']}). Please move my trip "
        f"{trip(state, train)} on {train['date']} to {new_date}, on the "
        f"{'latest' if latest else 'earliest'} train that day with enough seats in my class, and "
        f"add {bags_text(bags)} to it. How much is all that?",
        run.actions,
        f"Booking {booking_id} is now on train {target['train_number']} at "
        f"{target['departure_time']} on {new_date}; the change cost {money(out['total_to_pay'])}. "
        f"I added {bags_text(bags)} for {money(bag['fee'])}.",
        facts(target["train_number"], out["total_to_pay"], bag["fee"]),
    )


def cancel_upcoming(rng: random.Random, state: Record) -> Draft | None:
    ids = {b["booking_id"] for b in upcoming(state)}
    customers = [c for c in state["customers"].values() if ids & set(c["booking_ids"])]
    customer = pick(rng, customers)
    if customer is None:
        return None
    mine = [i for i in customer["booking_ids"] if i in ids]
    if rng.random() < 0.3:  # the operator cancelled one of the trains: a full refund
        state["trains"][state["bookings"][rng.choice(mine)]["train_number"]]["status"] = "cancelled"
    run = Runner(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    refunds = [(i, run("cancel_booking", booking_id=i)["refund_amount"]) for i in mine]
    lines = "; ".join(f"{i}: refund {money(r)}" for i, r in refunds)
    return Draft(
        f"This is {customer['name']}, email {customer['email']}. My plans changed: cancel every "
        "booking of mine whose train hasn't left yet, and tell me the refund for each.",
        run.actions,
        f"I cancelled {len(refunds)} booking(s) whose trains had not left: {lines}. "
        "Bookings whose trains already departed cannot be cancelled.",
        facts(*(i for i, _ in refunds), *(r for _, r in refunds)),
    )


def rebook_cancelled(rng: random.Random, state: Record) -> Draft | None:
    def fitting(b: Record, t: Record) -> bool:
        return unique_trip(state, b) and len(route_trains(state, t, t["date"])) == 2

    booking = pick(rng, upcoming(state, fitting))
    if booking is None:
        return None
    customer, train = customer_of(state, booking), train_of(state, booking)
    fare_class, passengers = booking["fare_class"], booking["passengers"]
    other = next(t for t in route_trains(state, train, train["date"]) if t is not train)
    train["status"] = "cancelled"
    other["seats_left"][fare_class] = max(
        other["seats_left"][fare_class], passengers + rng.randint(0, 4)
    )
    bags = rng.choice((0, 0, 1, 2))
    run = Runner(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    out = run("cancel_booking", booking_id=booking["booking_id"])
    run.search(train)
    new = run(
        "book_ticket",
        customer_id=customer["customer_id"],
        train_number=other["train_number"],
        fare_class=fare_class,
        passengers=passengers,
    )
    found = facts(out["refund_amount"], new["booking_id"], new["ticket_price"])
    message = (
        f"Your train was cancelled by the operator, so booking {booking['booking_id']} is "
        f"cancelled with a full refund of {money(out['refund_amount'])}. New booking "
        f"{new['booking_id']} is on train {other['train_number']} at {other['departure_time']}, "
        f"costing {money(new['ticket_price'])}."
    )
    extra = ""
    if bags:
        bag = run("add_luggage", booking_id=new["booking_id"], bags=bags)
        found += facts(bag["fee"])
        message += f" I added {bags_text(bags)} to it for {money(bag['fee'])}."
        extra = f", with {bags_text(bags)}"
    return Draft(
        f"Hi, {customer['name']} ({customer['email']}). I heard my train {trip(state, train)} on "
        f"{train['date']} was cancelled. Please cancel that booking and book the same class and "
        f"number of passengers on the other train that day{extra}. What do I get back and what "
        "do I pay?",
        run.actions,
        message,
        found,
    )
