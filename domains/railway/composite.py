"""The multi-step railway task templates (two to eight gold actions): conditions, changes,
rebooking.

Conditional templates state a threshold in the request; the gold branch is the one the policy's
quote selects, so the agent must read the quote before acting. Thresholds are whole numbers on
the right side of the quote and never equal to it, so the request never states an amount the
agent must report.
"""

from __future__ import annotations

import math
import random

from domains.railway import rules
from domains.railway.runner import (
    BOOKING,
    EMAIL,
    Record,
    bags_text,
    clear_of,
    customer_of,
    facts,
    fits,
    gold,
    money,
    other_day_trains,
    own,
    pick,
    route_trains,
    search,
    train_of,
    trip,
    unique_trip,
    upcoming,
)
from toolscale.kit import Draft, Request


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
        budget = math.floor(cost) + rng.randint(1, 25)  # above the cost, never equal to it
    else:
        budget = max(math.ceil(cost) - rng.randint(1, 25), 1)
    bags = rng.randint(1, min(2, rules.MAX_BAGS * booking["passengers"] - booking["luggage"]))
    run = gold(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    run("get_upgrade_quote", booking_id=booking["booking_id"])
    if upgrade:
        run("upgrade_class", booking_id=booking["booking_id"])
        message = f"Booking {booking['booking_id']} is upgraded to first class for {money(cost)}."
        found = facts(cost)
        budget = clear_of(budget, found, 1)
    else:
        out = run("add_luggage", booking_id=booking["booking_id"], bags=bags)
        found = facts(cost, out["fee"])
        budget = clear_of(budget, found, -1)
        message = (
            f"The upgrade of booking {booking['booking_id']} would cost {money(cost)}, above your "
            f"limit of {budget}, so I did not upgrade it. I added {bags_text(bags)} instead, for a "
            f"fee of {money(out['fee'])}."
        )
    where, day = trip(state, train), train["date"]
    return Draft(
        Request(
            (
                f"upgrade my trip {where} on {day} to first class",
                f"get first-class seats on my journey {where} on {day}",
                f"move up to first class for my {day} train {where}",
            ),
            known={EMAIL: customer["email"]},
            conditions=(
                f"Only if the upgrade costs at most {budget}. If it costs more, don't upgrade; "
                f"just add {bags_text(bags)} to that booking instead.",
                ("What did I pay?", "Tell me what it cost.", "Let me know the amount charged."),
            ),
        ),
        run.actions,
        message,
        found,
        writes=True,
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
        threshold = max(math.ceil(refund) - 1 - rng.randint(0, 20), 1)  # below the refund
    else:
        threshold = math.floor(refund) + rng.randint(1, 30)
    booking_id = booking["booking_id"]
    run = gold(state)
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
    threshold = clear_of(threshold, found, -1 if cancel else 1)
    where = trip(state, train_of(state, booking))
    return Draft(
        Request(
            (
                f"either cancel or move my booking {where}",
                f"sort out my trip {where}: cancel it or move it",
                f"decide between cancelling and rebooking my journey {where}",
            ),
            known={BOOKING: booking_id},
            conditions=(
                f"If cancelling it today refunds me at least {threshold}, cancel it. Otherwise "
                f"keep it but move it to the earliest train on the same route on {new_date} that "
                "has seats for us.",
                (
                    "Tell me what happened and any amounts.",
                    "Let me know what you did and what it cost or refunded.",
                    "Please report back with the amounts.",
                ),
            ),
        ),
        run.actions,
        message,
        found,
        writes=True,
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
    run = gold(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    search(run, train, new_date)
    out = run("change_booking", booking_id=booking_id, new_train_number=target["train_number"])
    bag = run("add_luggage", booking_id=booking_id, bags=bags)
    which = "latest" if latest else "earliest"
    where, day = trip(state, train), train["date"]
    return Draft(
        Request(
            (
                f"move my trip {where} on {day} to {new_date}, on the {which} train that day with "
                f"enough seats in my class, and add {bags_text(bags)} to it",
                f"change my journey {where} from {day} to the {which} train on {new_date} that has "
                f"room in my class, and put {bags_text(bags)} on the booking",
            ),
            known={EMAIL: customer["email"]},
            conditions=(
                (
                    "How much is all that?",
                    "What does that come to?",
                    "Tell me the total cost.",
                    "What will I be charged?",
                ),
            ),
        ),
        run.actions,
        f"Booking {booking_id} is now on train {target['train_number']} at "
        f"{target['departure_time']} on {new_date}; the change cost {money(out['total_to_pay'])}. "
        f"I added {bags_text(bags)} for {money(bag['fee'])}.",
        facts(target["train_number"], out["total_to_pay"], bag["fee"]),
        writes=True,
    )


def cancel_upcoming(rng: random.Random, state: Record) -> Draft | None:
    ids = {b["booking_id"] for b in upcoming(state)}
    customers = [c for c in state["customers"].values() if ids & set(c["booking_ids"])]
    customer = pick(rng, customers)
    if customer is None:
        return None
    mine = [i for i in customer["booking_ids"] if i in ids]
    changed = None
    if rng.random() < 0.3:  # the operator cancelled one of the trains: a full refund
        state = changed = own(state)
        state["trains"][state["bookings"][rng.choice(mine)]["train_number"]]["status"] = "cancelled"
    run = gold(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    refunds = [(i, run("cancel_booking", booking_id=i)["refund_amount"]) for i in mine]
    lines = "; ".join(f"{i}: refund {money(r)}" for i, r in refunds)
    return Draft(
        Request(
            (
                "cancel every booking of mine whose train hasn't left yet",
                "cancel all my upcoming train bookings",
                "call off all of my trips that haven't happened yet",
                "cancel whatever train bookings I still have coming up",
            ),
            known={EMAIL: customer["email"]},
            motives=("My plans changed.", "I'm moving abroad next week."),
            conditions=(
                (
                    "Tell me the refund for each.",
                    "I need the refund amount for every one.",
                    "What comes back for each of them?",
                ),
            ),
        ),
        run.actions,
        f"I cancelled {len(refunds)} booking(s) whose trains had not left: {lines}. "
        "Bookings whose trains already departed cannot be cancelled.",
        facts(*(i for i, _ in refunds), *(r for _, r in refunds)),
        writes=True,
        state=changed,
    )


def rebook_cancelled(rng: random.Random, state: Record) -> Draft | None:
    def fitting(b: Record, t: Record) -> bool:
        return unique_trip(state, b) and len(route_trains(state, t, t["date"])) == 2

    booking = pick(rng, upcoming(state, fitting))
    if booking is None:
        return None
    state = own(state)
    booking = state["bookings"][booking["booking_id"]]
    customer, train = customer_of(state, booking), train_of(state, booking)
    fare_class, passengers = booking["fare_class"], booking["passengers"]
    other = next(t for t in route_trains(state, train, train["date"]) if t is not train)
    train["status"] = "cancelled"
    other["seats_left"][fare_class] = max(
        other["seats_left"][fare_class], passengers + rng.randint(0, 4)
    )
    bags = rng.choice((0, 0, 1, 2))
    run = gold(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    out = run("cancel_booking", booking_id=booking["booking_id"])
    search(run, train)
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
    where, day = trip(state, train), train["date"]
    return Draft(
        Request(
            (
                f"cancel my booking on the cancelled train {where} on {day} and book the same "
                f"class and number of passengers on the other train that day{extra}",
                f"swap my cancelled train {where} on {day} for the other train that day, same "
                f"class and passengers{extra}",
            ),
            known={EMAIL: customer["email"]},
            motives=("I heard my train was cancelled.", "I got a message about a cancellation."),
            conditions=(
                (
                    "What do I get back and what do I pay?",
                    "Tell me the refund and the new price.",
                    "I need to know both the refund and the new fare.",
                ),
            ),
        ),
        run.actions,
        message,
        found,
        writes=True,
        state=state,
    )


def cancel_which_trip(rng: random.Random, state: Record) -> Draft | None:
    """An ambiguous request: the caller has two upcoming trips on one route and does not say
    which to cancel; the agent must list their bookings and ask for the travel date."""
    pairs = []
    for customer in state["customers"].values():
        mine = [b for b in upcoming(state) if b["customer_id"] == customer["customer_id"]]
        for booking in mine:
            twins = [
                o
                for o in mine
                if o is not booking
                and train_of(state, o)["origin"] == train_of(state, booking)["origin"]
                and train_of(state, o)["destination"] == train_of(state, booking)["destination"]
                and o["travel_date"] != booking["travel_date"]
            ]
            if twins:
                pairs.append((customer, booking))
    if not pairs:
        return None
    customer, booking = rng.choice(pairs)
    run = gold(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    out = run("cancel_booking", booking_id=booking["booking_id"])
    where = trip(state, train_of(state, booking))
    return Draft(
        Request(
            (f"cancel my trip {where}", f"cancel my booking {where}", f"call off my train {where}"),
            known={EMAIL: customer["email"], "travel date": booking["travel_date"]},
            conditions=(("How much will I get back?", "What refund will I get?"),),
            notes="You have two trips on this route; you mean the one on your travel date.",
        ),
        run.actions,
        f"Booking {booking['booking_id']} on {booking['travel_date']} is cancelled; "
        f"{money(out['refund_amount'])} will be refunded to your payment method on file.",
        facts(booking["booking_id"], out["refund_amount"]),
        writes=True,
    )
