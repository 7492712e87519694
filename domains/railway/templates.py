"""The simple railway task templates (one to four gold actions): look up, quote, book, cancel,
refuse, hand off.

Each template picks records from the run's world, plays its gold actions with a `GoldRunner`
and describes the caller with a `Request`: what they want in several wordings, without the ids
and emails they give only when the agent asks (`known`). It returns None when the world has
nothing it can use.
"""

from __future__ import annotations

import random

from domains.railway import rules
from domains.railway.runner import (
    BOOKING,
    EMAIL,
    Record,
    bags_text,
    customer_of,
    facts,
    fits,
    gold,
    money,
    pick,
    route_trains,
    search,
    tickets_text,
    train_of,
    trip,
    unique_trip,
    upcoming,
)
from toolscale.kit import Draft, Request


def departure_time(rng: random.Random, state: Record) -> Draft | None:
    booking = pick(rng, upcoming(state))
    if booking is None:
        return None
    run = gold(state)
    view = run("get_booking_details", booking_id=booking["booking_id"])
    train = run("get_train_details", train_number=view["train_number"])
    dep, arr, where = train["departure_time"], train["arrival_time"], trip(state, train)
    return Draft(
        Request(
            (
                f"what time my train {where} leaves and when it arrives",
                f"the departure and arrival times of my booked train {where}",
                f"when my train {where} departs and when it gets in",
            ),
            kind="know",
            known={BOOKING: booking["booking_id"]},
            motives=("I need to plan getting to the station.", "Someone is picking me up."),
        ),
        run.actions,
        f"Your train {train['train_number']} on {train['date']} departs at {dep} and arrives "
        f"at {arr}.",
        [dep, arr],
        writes=False,
    )


def refund_quote(rng: random.Random, state: Record) -> Draft | None:
    booking = pick(rng, upcoming(state, lambda b, t: b["fare_class"] != "saver"))
    if booking is None:
        return None
    run = gold(state)
    quote = run("get_refund_quote", booking_id=booking["booking_id"])
    where = trip(state, train_of(state, booking))
    return Draft(
        Request(
            (
                f"how much I would get back if I cancelled my booking {where} today",
                f"what refund I would get for cancelling my trip {where} today",
                f"what cancelling my trip {where} would cost me in fees today",
            ),
            kind="know",
            known={BOOKING: booking["booking_id"]},
            motives=("My plans might change.", "I'm not sure I can travel any more."),
            conditions=(
                (
                    "Don't cancel anything yet.",
                    "I'm not cancelling yet, just asking.",
                    "Please don't cancel it for now.",
                ),
            ),
            notes="You only want the quote: do not agree to cancel.",
        ),
        run.actions,
        f"If you cancelled booking {booking['booking_id']} today, the cancellation fee would be "
        f"{money(quote['cancellation_fee'])} and you would get "
        f"{money(quote['refund_amount'])} back. I have not cancelled it.",
        facts(quote["refund_amount"]),
        writes=False,
    )


def fare_lookup(rng: random.Random, state: Record) -> Draft | None:
    train = pick(rng, [t for t in state["trains"].values() if route_trains(state, t, t["date"])])
    if train is None:
        return None
    first = route_trains(state, train, train["date"])[0]
    fare_class, passengers = rng.choice(rules.FARE_CLASSES), rng.randint(2, 4)
    run = gold(state)
    search(run, train)
    quote = run(
        "get_fare", train_number=first["train_number"], fare_class=fare_class, passengers=passengers
    )
    seats, where, day = tickets_text(passengers, fare_class), trip(state, train), train["date"]
    return Draft(
        Request(
            (
                f"how much {seats} on the earliest train {where} on {day} would cost in total",
                f"the total price of {seats} {where} on the first train of {day}",
                f"what {seats} for the earliest departure {where} on {day} come to",
            ),
            kind="know",
            stated={
                "travel date": day,
                "number of passengers": str(passengers),
                "fare class": fare_class,
            },
            motives=("We're planning a family trip.", "I'm comparing prices for a group."),
            conditions=(
                (
                    "Just the price, please.",
                    "Only the total, thanks.",
                    "No need to book anything.",
                    "I only need the figure.",
                ),
            ),
        ),
        run.actions,
        f"The earliest train is {first['train_number']} at {first['departure_time']}; "
        f"{seats} cost {money(quote['total'])} in total.",
        facts(first["train_number"], quote["total"]),
        writes=False,
    )


def add_luggage(rng: random.Random, state: Record) -> Draft | None:
    room = upcoming(state, lambda b, t: b["luggage"] < rules.MAX_BAGS * b["passengers"])
    booking = pick(rng, room)
    if booking is None:
        return None
    bags = rng.randint(1, min(3, rules.MAX_BAGS * booking["passengers"] - booking["luggage"]))
    run = gold(state)
    out = run("add_luggage", booking_id=booking["booking_id"], bags=bags)
    where, luggage = trip(state, train_of(state, booking)), bags_text(bags)
    return Draft(
        Request(
            (
                f"add {luggage} to my booking {where}",
                f"check in {luggage} for my trip {where}",
                f"bring {luggage} on my train {where}",
                f"have {luggage} added for my journey {where}",
            ),
            known={BOOKING: booking["booking_id"]},
            motives=("I'm moving some things.", "We're going away for a while."),
            conditions=(
                (
                    "Tell me what it costs.",
                    "What will that cost me?",
                    "Let me know the fee.",
                    "How much is that going to be?",
                ),
            ),
        ),
        run.actions,
        f"I added {luggage} to booking {booking['booking_id']}, which now has "
        f"{out['luggage']} bag(s). The fee charged is {money(out['fee'])}.",
        facts(out["fee"]),
        writes=True,
    )


def cancel_by_email(rng: random.Random, state: Record) -> Draft | None:
    booking = pick(rng, upcoming(state, lambda b, t: unique_trip(state, b)))
    if booking is None:
        return None
    customer, train = customer_of(state, booking), train_of(state, booking)
    run = gold(state)
    run("find_customer_by_email", email=customer["email"])
    run("list_customer_bookings", customer_id=customer["customer_id"])
    out = run("cancel_booking", booking_id=booking["booking_id"])
    where, day = trip(state, train), train["date"]
    return Draft(
        Request(
            (
                f"cancel my trip {where} on {day}",
                f"cancel the booking I have {where} for {day}",
                f"call off my train journey {where} on {day}",
                f"drop my {day} booking {where}",
            ),
            known={EMAIL: customer["email"]},
            motives=("My plans changed.", "The meeting I was going to was cancelled."),
            conditions=(
                (
                    "How much will I get back?",
                    "What refund will I get?",
                    "Let me know the refund.",
                    "I'd like to know what comes back to me.",
                ),
            ),
        ),
        run.actions,
        f"Booking {booking['booking_id']} is cancelled. The cancellation fee was "
        f"{money(out['cancellation_fee'])} and {money(out['refund_amount'])} will be refunded "
        "to your payment method on file.",
        facts(booking["booking_id"], out["refund_amount"]),
        writes=True,
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
    run = gold(state)
    run("find_customer_by_email", email=customer["email"])
    search(run, target)
    new = run(
        "book_ticket",
        customer_id=customer["customer_id"],
        train_number=target["train_number"],
        fare_class=fare_class,
        passengers=passengers,
    )
    seats, where, date = tickets_text(passengers, fare_class), trip(state, target), target["date"]
    return Draft(
        Request(
            (
                f"book {seats} {where} on {date} on the earliest train that still has enough "
                "seats in that class",
                f"get {seats} {where} for {date}, on the first train with room for us in that "
                "class",
                f"reserve {seats} on the earliest train {where} on {date} that can take us",
                f"buy {seats} {where} on {date}: whichever train leaves first and still has "
                "room in that class",
            ),
            known={EMAIL: customer["email"]},
            motives=("We're visiting relatives.", "I have a conference to attend."),
        ),
        run.actions,
        f"Booked: booking {new['booking_id']} on train {target['train_number']} departing "
        f"{target['departure_time']} on {date}, {seats}, total {money(new['ticket_price'])}.",
        facts(new["booking_id"], target["train_number"], new["ticket_price"]),
        writes=True,
    )


def change_quote(rng: random.Random, state: Record) -> Draft | None:
    def movable(b: Record, t: Record) -> bool:
        return b["fare_class"] != "saver" and any(
            o["train_number"] != t["train_number"] and fits(o, b["fare_class"], b["passengers"])
            for o in route_trains(state, t)
        )

    booking = pick(rng, upcoming(state, movable))
    if booking is None:
        return None
    train = train_of(state, booking)
    others = [
        o
        for o in route_trains(state, train)
        if o["train_number"] != train["train_number"]
        and fits(o, booking["fare_class"], booking["passengers"])
    ]
    target = rng.choice(others)
    run = gold(state)
    run("get_booking_details", booking_id=booking["booking_id"])
    search(run, train, target["date"])
    quote = run(
        "get_change_quote",
        booking_id=booking["booking_id"],
        new_train_number=target["train_number"],
    )
    where, dep, day = trip(state, train), target["departure_time"], target["date"]
    return Draft(
        Request(
            (
                f"what it would cost to move my booking {where} to the {dep} train on {day}",
                f"how much I'd pay to switch my trip {where} to the {dep} departure on {day}",
            ),
            kind="know",
            known={BOOKING: booking["booking_id"]},
            conditions=(
                (
                    "Only tell me the price; don't change anything yet.",
                    "Just a quote please, no changes.",
                    "I'm only asking, don't move it yet.",
                ),
            ),
            notes="You only want the quote: do not agree to change the booking.",
        ),
        run.actions,
        f"Moving booking {booking['booking_id']} to train {target['train_number']} at {dep} on "
        f"{day} would cost {money(quote['total_to_pay'])} (change fee "
        f"{money(quote['change_fee'])}). I have not changed it.",
        facts(target["train_number"], quote["total_to_pay"]),
        writes=False,
    )


def membership(rng: random.Random, state: Record) -> Draft | None:
    customer = pick(rng, [c for c in state["customers"].values() if c["booking_ids"]])
    if customer is None:
        return None
    run = gold(state)
    profile = run("get_customer_details", customer_id=customer["customer_id"])
    count = len(profile["booking_ids"])
    return Draft(
        Request(
            (
                "which membership tier I have and how many bookings are on my account",
                "my membership level and the number of bookings I hold",
            ),
            kind="know",
            known={"customer id": customer["customer_id"]},
            motives=("I want to know what allowances I get.",),
        ),
        run.actions,
        f"Your membership tier is {profile['membership']} and you have {count} booking(s): "
        f"{', '.join(profile['booking_ids'])}.",
        [profile["membership"], *profile["booking_ids"]],
        writes=False,
    )


def stations_in(rng: random.Random, state: Record) -> Draft | None:
    station = rng.choice(sorted(state["stations"].values(), key=lambda s: s["code"]))
    run = gold(state)
    run("list_stations")
    return Draft(
        Request(
            (
                f"which station you serve in {station['city']} and its code",
                f"the name and code of your station in {station['city']}",
            ),
            kind="know",
            stated={"city": station["city"]},
        ),
        run.actions,
        f"In {station['city']} we serve {station['name']}, station code {station['code']}.",
        [station["name"]],
        writes=False,
    )


def refuse_saver_upgrade(rng: random.Random, state: Record) -> Draft | None:
    booking = pick(rng, upcoming(state, lambda b, t: b["fare_class"] == "saver"))
    if booking is None:
        return None
    run = gold(state)
    run("get_booking_details", booking_id=booking["booking_id"])
    train = train_of(state, booking)
    where = trip(state, train)
    return Draft(
        Request(
            (
                f"upgrade my saver ticket {where} to first class",
                f"move my saver booking {where} up to first class",
            ),
            known={BOOKING: booking["booking_id"]},
            motives=("I'd like a more comfortable seat.",),
        ),
        run.actions,
        f"I'm sorry: booking {booking['booking_id']} on train {train['train_number']} is a saver "
        "ticket, and saver tickets cannot be upgraded under our policy, so I have not changed it.",
        # the booking id is the caller's own: the train number is what the look-up shows
        [booking["booking_id"], train["train_number"]],
        writes=False,
        nl_assertions=["The agent refuses to upgrade a saver ticket and changes nothing."],
    )


def compensation_handoff(rng: random.Random, state: Record) -> Draft | None:
    def departed(b: Record, t: Record) -> bool:
        return b["status"] == "confirmed" and rules.train_status(state, t) == "departed"

    booking = pick(rng, [b for b in state["bookings"].values() if departed(b, train_of(state, b))])
    if booking is None:
        return None
    train = train_of(state, booking)
    run = gold(state)
    run("get_booking_details", booking_id=booking["booking_id"])
    where = trip(state, train)
    run(
        "transfer_to_human_agents",
        summary=f"Compensation claim for booking {booking['booking_id']}, train "
        f"{train['train_number']} on {train['date']}, which the customer says was delayed.",
    )
    return Draft(
        Request(
            (
                f"claim compensation because my train {where} was badly delayed",
                f"get money back for the long delay on my journey {where}",
            ),
            known={BOOKING: booking["booking_id"]},
            motives=("I missed an important appointment.", "We waited for over an hour."),
        ),
        run.actions,
        "Compensation claims are handled by our human agents, so I have transferred you to a "
        f"human agent with a summary of your claim about train {train['train_number']} on "
        f"{train['date']}.",
        [train["train_number"]],
        writes=False,
        nl_assertions=["The agent transfers the user to a human agent for the compensation claim."],
    )


def fare_difference(rng: random.Random, state: Record) -> Draft | None:
    train = pick(rng, [t for t in state["trains"].values() if route_trains(state, t, t["date"])])
    if train is None:
        return None
    first = route_trains(state, train, train["date"])[0]
    passengers = rng.randint(1, 4)
    run = gold(state)
    search(run, train)
    number = first["train_number"]
    low = run("get_fare", train_number=number, fare_class="standard", passengers=passengers)
    high = run("get_fare", train_number=number, fare_class="first", passengers=passengers)
    difference = run("calculate", expression=f"{high['total']} - {low['total']}")
    where, day = trip(state, train), train["date"]
    who = "me" if passengers == 1 else f"{passengers} of us"
    return Draft(
        Request(
            (
                f"how much more first class costs than standard for {who} on the earliest train "
                f"{where} on {day}",
                f"the extra cost of first class over standard for {who} on the first train {where} "
                f"on {day}",
            ),
            kind="know",
            stated={"travel date": day, "number of passengers": str(passengers)},
            motives=("I'm wondering whether to treat myself.", "We're deciding on a class."),
        ),
        run.actions,
        f"On train {number}, the earliest {where} on {day}, standard costs "
        f"{money(low['total'])} and first class {money(high['total'])} for {who}: first class "
        f"costs {difference} more.",
        [str(difference)],
        writes=False,
    )
