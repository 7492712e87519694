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
    tid, status, start = trip["trip_id"], trip["status"], trip["start"]
    TripNotOpen.raise_if(status != "booked", f"trip {tid} is {status}", status)
    Departed.raise_if(upcoming and start <= TODAY, f"trip {tid} already began on {start}", start)
    return trip


def rooms_left(state: Record, hotel: Record, check_in: str, nights: int) -> int:
    booked = [s for s in state["stays"].values() if s["hotel_id"] == hotel["hotel_id"]]
    booked = [s for s in booked if s["status"] == "booked"]
    nights_of = {
        s["stay_id"]: {shift(s["check_in"], n) for n in range(s["nights"])} for s in booked
    }
    wanted = (shift(check_in, n) for n in range(nights))
    return hotel["rooms"] - max(
        sum(s["rooms"] for s in booked if n in nights_of[s["stay_id"]]) for n in wanted
    )


def stay_price(state: Record, trip: Record, hotel: Record, nights: int, rooms: int) -> float:
    gold = state["travellers"][trip["traveller_id"]]["tier"] == "gold"
    return round(hotel["nightly_rate"] * nights * rooms * (1 - GOLD_DISCOUNT * gold), 2)


def check_stay(
    state: Record, trip_id: str, hotel_id: str, check_in: str, nights: int, rooms: int
) -> Record:
    """The hotel, if `rooms` rooms for `nights` from `check_in` may be booked on the trip."""
    trip, hotel = open_trip(state, trip_id), lookup(state, "hotels", hotel_id)
    number(nights, "nights", low=1, high=MAX_NIGHTS, integer=True)
    number(rooms, "rooms", low=1, high=50, integer=True)
    moment(check_in)
    day, name, city = check_in.strip(), hotel["name"], hotel["city"]
    start, end, out = trip["start"], trip["end"], shift(check_in.strip(), nights)
    GroupBooking.raise_if(
        rooms > MAX_ROOMS, f"stays of over {MAX_ROOMS} rooms go to our group desk", trip["trip_id"]
    )
    WrongCity.raise_if(city != trip["city"], f"{name} is in {city}, not {trip['city']}", city)
    OutsideTrip.raise_if(
        day < max(start, TODAY) or out > end,
        f"a stay must fall within the trip ({start} to {end}) and not before today",
        start,
        end,
    )
    left = rooms_left(state, hotel, day, nights)
    NoRooms.raise_if(left < rooms, f"{name} has {max(left, 0)} rooms left then", hotel["hotel_id"])
    return hotel


def cancel_stay(state: Record, stay_id: str) -> Record:
    stay = lookup(state, "stays", stay_id)
    sid, status, day = stay["stay_id"], stay["status"], stay["check_in"]
    StayNotActive.raise_if(status != "booked", f"stay {sid} is {status}", status)
    LateStayCancel.raise_if(
        days_between(TODAY, day) < FREE_STAY_CANCEL_DAYS,
        f"a stay can be cancelled until {FREE_STAY_CANCEL_DAYS} days before check-in ({day})",
        day,
    )
    return stay


def trip_refund(state: Record, trip_id: str) -> Record:
    trip = open_trip(state, trip_id, upcoming=True)
    days, paid = days_between(TODAY, trip["start"]), trip["price"] - trip["points_credit"]
    refund = paid - ADMIN_FEE if days >= FULL_REFUND_DAYS else paid / 2
    refund = round(max(refund, 0.0), 2) if days >= HALF_REFUND_DAYS else 0.0
    fee = round(paid - refund, 2)
    return {
        "trip_id": trip["trip_id"],
        "days_to_departure": days,
        "cancellation_fee": fee,
        "refund": refund,
    }


def insurance_quote(state: Record, trip_id: str, plan: str) -> Record:
    wanted = text(plan, "plan", max_chars=40).strip().lower()
    if wanted not in PLANS:
        raise ToolError(f"plan {plan!r}: choose one of {', '.join(PLANS)}")
    trip = open_trip(state, trip_id, upcoming=True)
    held, start = trip["insurance"], trip["start"]
    AlreadyInsured.raise_if(bool(held), f"the trip is insured already ({held} plan)", held)
    InsuranceTooLate.raise_if(
        start > TODAY and days_between(TODAY, start) < INSURANCE_MIN_DAYS,  # else departed
        f"insurance is sold until {INSURANCE_MIN_DAYS} days before departure ({start})",
        start,
    )
    premium = round(trip["price"] * PLANS[wanted], 2)
    return {"trip_id": trip["trip_id"], "plan": wanted, "premium": premium}


def entry(state: Record, trip_id: str) -> Record:
    """What entering the trip's country asks of its traveller."""
    trip = lookup(state, "trips", trip_id)
    traveller, visa = state["travellers"][trip["traveller_id"]], state["visas"][trip["country"]]
    needed = traveller["nationality"] in visa["needs"]
    return {
        "trip_id": trip["trip_id"],
        "country": trip["country"],
        "nationality": traveller["nationality"],
        "visa_required": needed,
        "visa_on_file": trip["country"] in traveller["visas"],
        "visa_fee": visa["fee"] if needed else 0.0,
        "passport_expiry": traveller["passport_expiry"],
        "passport_needed_until": shift(trip["end"], PASSPORT_SPARE_DAYS),
    }


def check_visa(state: Record, trip_id: str) -> Record:
    trip, found = open_trip(state, trip_id), entry(state, trip_id)
    expiry, until, start = found["passport_expiry"], found["passport_needed_until"], trip["start"]
    VisaNotRequired.raise_if(
        not found["visa_required"] or found["visa_on_file"],
        f"no visa application is needed for {found['country']} ({found['nationality']} passport)",
        found["country"],  # the reason's fact: not the caller's own passport code
    )
    PassportExpires.raise_if(
        expiry < until, f"the passport expires on {expiry} but must be valid until {until}", expiry
    )
    UrgentVisa.raise_if(
        days_between(TODAY, start) < VISA_PROCESSING_DAYS,
        f"a visa takes {VISA_PROCESSING_DAYS} days and the trip leaves on {start}: urgent visas "
        "are handled by our documents team",
        start,
    )
    return found


def check_points(state: Record, trip_id: str, points: int) -> Record:
    trip = open_trip(state, trip_id, upcoming=True)
    number(points, "points", low=POINTS_STEP, high=10**7, integer=True)
    if points % POINTS_STEP:
        raise ToolError(f"points are redeemed in steps of {POINTS_STEP}")
    held, due = (
        state["travellers"][trip["traveller_id"]]["points"],
        trip["price"] - trip["points_credit"],
    )
    NotEnoughPoints.raise_if(held < points, f"the traveller holds {held} points only", held)
    PointsCap.raise_if(
        points * POINT_VALUE > due * MAX_POINTS_SHARE,
        f"points may pay at most {MAX_POINTS_SHARE:.0%} of the {due:.2f} due",
        trip["price"],
    )
    return trip
