"""The travel desk's policy as code: constants (policy.md is rendered from them), one error per
rule, and the quotes and checks the tools and the composer share (pure: they change nothing)."""

from __future__ import annotations

from toolscale.core.contract import ToolError
from toolscale.kit import Record, lookup, rule
from toolscale.kit.clock import days_between, moment, shift
from toolscale.tools.bounds import number, text

TODAY = "2025-09-01"  # a Monday; the clock of every task
NOW = f"{TODAY}T10:00"
MAX_ROOMS = 4  # more rooms in one stay: the group desk (a human agent)
MAX_NIGHTS = 21
GOLD_DISCOUNT = 0.1  # gold members pay 10% less for hotel stays
FREE_STAY_CANCEL_DAYS = 2
FULL_REFUND_DAYS = 30
HALF_REFUND_DAYS = 14
ADMIN_FEE = 50.0
INSURANCE_MIN_DAYS = 7
PLANS = {"basic": 0.04, "comprehensive": 0.07}  # premium as a share of the trip's price
VISA_PROCESSING_DAYS = 15
PASSPORT_SPARE_DAYS = 180  # a passport must be valid this long after the trip ends
POINT_VALUE = 0.01  # dollars per loyalty point
POINTS_STEP = 100
MAX_POINTS_SHARE = 0.5  # points pay at most half of what is still due on a trip
TIERS = ("blue", "silver", "gold")

TripNotOpen = rule("TripNotOpen")
Departed = rule("Departed")
GroupBooking = rule("GroupBooking", handoff=True)
WrongCity = rule("WrongCity")
OutsideTrip = rule("OutsideTrip")
NoRooms = rule("NoRooms")
StayNotActive = rule("StayNotActive")
LateStayCancel = rule("LateStayCancel")
InsuranceTooLate = rule("InsuranceTooLate")
AlreadyInsured = rule("AlreadyInsured")
VisaNotRequired = rule("VisaNotRequired")
PassportExpires = rule("PassportExpires")
UrgentVisa = rule("UrgentVisa", handoff=True)
NotEnoughPoints = rule("NotEnoughPoints")
PointsCap = rule("PointsCap")


def open_trip(state: Record, trip_id: str, upcoming: bool = False) -> Record:
    """The trip, if it is booked (and, when `upcoming`, has not started)."""
    trip = lookup(state, "trips", trip_id)
    if trip["status"] != "booked":
        raise TripNotOpen(f"trip {trip['trip_id']} is {trip['status']}", shows=(trip["status"],))
    if upcoming and trip["start"] <= TODAY:
        raise Departed(
            f"trip {trip['trip_id']} started on {trip['start']}; only trips that have not "
            "started can be changed this way",
            shows=(trip["start"],),
        )
    return trip


def rooms_left(state: Record, hotel: Record, check_in: str, nights: int) -> int:
    nights_taken = [shift(check_in, n) for n in range(nights)]
    taken = max(
        sum(
            s["rooms"]
            for s in state["stays"].values()
            if s["hotel_id"] == hotel["hotel_id"]
            and s["status"] == "booked"
            and s["check_in"] <= night < shift(s["check_in"], s["nights"])
        )
        for night in nights_taken
    )
    return hotel["rooms"] - taken


def stay_price(state: Record, trip: Record, hotel: Record, nights: int, rooms: int) -> float:
    tier = state["travellers"][trip["traveller_id"]]["tier"]
    share = 1 - GOLD_DISCOUNT if tier == "gold" else 1.0
    return round(hotel["nightly_rate"] * nights * rooms * share, 2)


def check_stay(
    state: Record, trip_id: str, hotel_id: str, check_in: str, nights: int, rooms: int
) -> Record:
    """The hotel, if `rooms` rooms for `nights` from `check_in` may be booked on the trip."""
    trip, hotel = open_trip(state, trip_id), lookup(state, "hotels", hotel_id)
    number(nights, "nights", low=1, high=MAX_NIGHTS, integer=True)
    number(rooms, "rooms", low=1, high=50, integer=True)
    moment(check_in)
    check_in, out = check_in.strip(), shift(check_in.strip(), nights)
    if rooms > MAX_ROOMS:
        raise GroupBooking(
            f"stays of more than {MAX_ROOMS} rooms are booked by our group desk, and this one "
            f"has {rooms}",
            shows=(trip["trip_id"],),
        )
    if hotel["city"] != trip["city"]:
        raise WrongCity(
            f"{hotel['name']} is in {hotel['city']}, but trip {trip['trip_id']} goes to "
            f"{trip['city']}",
            shows=(hotel["city"], trip["city"]),
        )
    if check_in < max(trip["start"], TODAY) or out > trip["end"]:
        raise OutsideTrip(
            f"a stay must fall within the trip ({trip['start']} to {trip['end']}) and not "
            f"before today, and {check_in} to {out} does not",
            shows=(trip["start"], trip["end"]),
        )
    left = rooms_left(state, hotel, check_in, nights)
    if left < rooms:
        raise NoRooms(
            f"{hotel['name']} has {max(left, 0)} rooms left on some of those nights",
            shows=(hotel["hotel_id"],),
        )
    return hotel


def cancel_stay(state: Record, stay_id: str) -> Record:
    stay = lookup(state, "stays", stay_id)
    if stay["status"] != "booked":
        raise StayNotActive(f"stay {stay['stay_id']} is {stay['status']}", shows=(stay["status"],))
    if days_between(TODAY, stay["check_in"]) < FREE_STAY_CANCEL_DAYS:
        raise LateStayCancel(
            f"a stay can be cancelled up to {FREE_STAY_CANCEL_DAYS} days before check-in, and "
            f"{stay['stay_id']} starts on {stay['check_in']}",
            shows=(stay["check_in"],),
        )
    return stay


def trip_refund(state: Record, trip_id: str) -> Record:
    trip = open_trip(state, trip_id, upcoming=True)
    days = days_between(TODAY, trip["start"])
    paid = trip["price"] - trip["points_credit"]
    refund = paid - ADMIN_FEE if days >= FULL_REFUND_DAYS else paid / 2
    refund = round(max(refund, 0.0), 2) if days >= HALF_REFUND_DAYS else 0.0
    return {
        "trip_id": trip["trip_id"],
        "days_to_departure": days,
        "cancellation_fee": round(paid - refund, 2),
        "refund": refund,
    }


def insurance_quote(state: Record, trip_id: str, plan: str) -> Record:
    wanted = text(plan, "plan", max_chars=40).strip().lower()
    if wanted not in PLANS:
        raise ToolError(f"plan {plan!r}: choose one of {', '.join(PLANS)}")
    trip = open_trip(state, trip_id, upcoming=True)
    if trip["insurance"]:
        raise AlreadyInsured(
            f"trip {trip['trip_id']} is already insured ({trip['insurance']} plan)",
            shows=(trip["insurance"],),
        )
    if days_between(TODAY, trip["start"]) < INSURANCE_MIN_DAYS:
        raise InsuranceTooLate(
            f"insurance must be bought at least {INSURANCE_MIN_DAYS} days before departure, and "
            f"trip {trip['trip_id']} leaves on {trip['start']}",
            shows=(trip["start"],),
        )
    return {
        "trip_id": trip["trip_id"],
        "plan": wanted,
        "premium": round(trip["price"] * PLANS[wanted], 2),
    }


def entry(state: Record, trip_id: str) -> Record:
    """What entering the trip's country asks of its traveller."""
    trip = lookup(state, "trips", trip_id)
    traveller = state["travellers"][trip["traveller_id"]]
    needs, fee = (state["visas"][trip["country"]][k] for k in ("needs", "fee"))
    return {
        "trip_id": trip["trip_id"],
        "country": trip["country"],
        "nationality": traveller["nationality"],
        "visa_required": traveller["nationality"] in needs,
        "visa_on_file": trip["country"] in traveller["visas"],
        "visa_fee": fee if traveller["nationality"] in needs else 0.0,
        "passport_expiry": traveller["passport_expiry"],
        "passport_needed_until": shift(trip["end"], PASSPORT_SPARE_DAYS),
    }


def check_visa(state: Record, trip_id: str) -> Record:
    trip, found = open_trip(state, trip_id), entry(state, trip_id)
    if not found["visa_required"] or found["visa_on_file"]:
        held = "holds one already" if found["visa_on_file"] else f"is {found['nationality']}"
        raise VisaNotRequired(
            f"no visa application is needed for {found['country']}: the traveller {held}",
            shows=(found["nationality"],),
        )
    if found["passport_expiry"] < found["passport_needed_until"]:
        raise PassportExpires(
            f"the passport must be valid until {found['passport_needed_until']} and expires on "
            f"{found['passport_expiry']}: renew it before applying",
            shows=(found["passport_expiry"],),
        )
    if days_between(TODAY, trip["start"]) < VISA_PROCESSING_DAYS:
        raise UrgentVisa(
            f"a visa takes {VISA_PROCESSING_DAYS} days to process and trip {trip['trip_id']} "
            f"leaves on {trip['start']}: urgent visas are handled by our documents team",
            shows=(trip["start"],),
        )
    return found


def check_points(state: Record, trip_id: str, points: int) -> Record:
    trip = open_trip(state, trip_id, upcoming=True)
    number(points, "points", low=POINTS_STEP, high=10**7, integer=True)
    if points % POINTS_STEP:
        raise ToolError(f"points are redeemed in steps of {POINTS_STEP}")
    traveller = state["travellers"][trip["traveller_id"]]
    if traveller["points"] < points:
        raise NotEnoughPoints(
            f"the traveller has {traveller['points']} points, fewer than {points}",
            shows=(traveller["points"],),
        )
    due = trip["price"] - trip["points_credit"]
    if points * POINT_VALUE > due * MAX_POINTS_SHARE:
        raise PointsCap(
            f"points may pay at most {MAX_POINTS_SHARE:.0%} of the {due:.2f} still due on trip "
            f"{trip['trip_id']}",
            shows=(trip["price"],),
        )
    return trip
