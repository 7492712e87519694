"""The travel desk's tools: find travellers, trips, stays and hotels; quote and book hotel stays,
insurance, visas and points; cancel. Every rule is checked by `rules`."""

from __future__ import annotations

from typing import ClassVar

from domains.travel import rules
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import Record, finder, insert, lister, lookup, raises, searcher, why_not
from toolscale.kit.clock import moment, shift
from toolscale.tools.bounds import number
from toolscale.tools.generic import StatefulGenericTools


def _hotel_named(state: Record, stay: Record) -> Record:
    return {**stay, "hotel_name": state["hotels"][stay["hotel_id"]]["name"]}


class TravelTools(StatefulGenericTools):
    """Tools over one task's travel-desk database (`self.state`). Outputs are JSON objects."""

    param_docs: ClassVar[dict[str, str]] = {
        "traveller_id": 'The traveller id, such as "TR1234".',
        "trip_id": 'The trip id, such as "TP12345".',
        "stay_id": 'The hotel stay id, such as "ST12345".',
        "hotel_id": 'The hotel id, such as "H104".',
        "check_in": "The check-in date as YYYY-MM-DD.",
        "nights": "Number of nights.",
        "rooms": "Number of rooms.",
        "points": "How many loyalty points to redeem.",
        "plan": 'The insurance plan: "basic" or "comprehensive".',
        "city": 'The city, such as "Lisbon".',
        "board": 'The board: "room only", "breakfast" or "half board".',
    }

    get_traveller = finder("traveller", "traveller_id", "Get a traveller: passport, visas, points.")
    find_traveller_by_email = finder("traveller", "email")
    find_traveller_by_phone = finder("traveller", "phone", arg='The phone, such as "555-1234".')
    list_traveller_trips = lister("trip", "traveller")
    get_trip = finder("trip", "trip_id", "Get a trip: city, dates, status, price and insurance.")
    list_trip_stays = lister("stay", "trip", "List the hotel stays of a trip.", view=_hotel_named)
    get_stay = finder("stay", "stay_id", view=_hotel_named)
    find_hotel = finder("hotel", "name")
    search_hotels = searcher("hotel", ("city", "board"), "List the hotels of a city with a board.")

    @tool(ToolKind.READ)
    def quote_stay(
        self, trip_id: str, hotel_id: str, check_in: str, nights: int, rooms: int
    ) -> Record:
        """Quote a hotel stay on a trip: its total price, rooms left on those nights and, when it
        cannot be booked, why. Changes nothing."""
        trip, hotel = lookup(self.state, "trips", trip_id), lookup(self.state, "hotels", hotel_id)
        moment(check_in)
        why = why_not(rules.check_stay, self.state, trip_id, hotel_id, check_in, nights, rooms)
        number(nights, "nights", low=1, high=rules.MAX_NIGHTS, integer=True)
        number(rooms, "rooms", low=1, high=50, integer=True)
        left = max(rules.rooms_left(self.state, hotel, check_in.strip(), nights), 0)
        total = rules.stay_price(self.state, trip, hotel, nights, rooms)
        return {"total": total, "rooms_left": left, "bookable": not why, "reason": why}

    @tool(ToolKind.READ)
    def get_cancellation_quote(self, trip_id: str) -> Record:
        """Quote cancelling a trip now: the days left to departure, the fee and the refund.
        Changes nothing."""
        return rules.trip_refund(self.state, trip_id)

    @tool(ToolKind.READ)
    def get_insurance_quote(self, trip_id: str, plan: str) -> Record:
        """Quote travel insurance for a trip: the premium of a plan. Changes nothing."""
        return rules.insurance_quote(self.state, trip_id, plan)

    @tool(ToolKind.READ)
    def check_entry_requirements(self, trip_id: str) -> Record:
        """What entering a trip's country asks of its traveller: whether a visa is required and
        already held, its fee, and how long the passport must stay valid. Changes nothing."""
        return rules.entry(self.state, trip_id)

    @tool(ToolKind.WRITE)
    @raises(
        rules.TripNotOpen, rules.GroupBooking, rules.WrongCity, rules.OutsideTrip, rules.NoRooms
    )
    def book_hotel_stay(
        self, trip_id: str, hotel_id: str, check_in: str, nights: int, rooms: int
    ) -> Record:
        """Book a hotel stay on a trip and charge its price (quote_stay) to the card on file."""
        hotel = rules.check_stay(self.state, trip_id, hotel_id, check_in, nights, rooms)
        trip = self.state["trips"][trip_id.strip()]
        fields = {
            "trip_id": trip["trip_id"],
            "hotel_id": hotel["hotel_id"],
            "check_in": check_in.strip(),
            "nights": nights,
            "rooms": rooms,
            "price": rules.stay_price(self.state, trip, hotel, nights, rooms),
            "status": "booked",
        }
        return insert(self.state, "stays", "ST", fields)

    @tool(ToolKind.WRITE)
    @raises(rules.StayNotActive, rules.LateStayCancel)
    def cancel_stay(self, stay_id: str) -> Record:
        """Cancel a hotel stay and refund its price in full (allowed until shortly before
        check-in)."""
        stay = rules.cancel_stay(self.state, stay_id)
        stay["status"] = "cancelled"
        return {**stay, "refund": stay["price"]}

    @tool(ToolKind.WRITE)
    @raises(rules.TripNotOpen, rules.Departed)
    def cancel_trip(self, trip_id: str) -> Record:
        """Cancel a trip and its hotel stays; the refund follows the days left to departure
        (the amounts of get_cancellation_quote)."""
        quote = rules.trip_refund(self.state, trip_id)
        self.state["trips"][quote["trip_id"]]["status"] = "cancelled"
        for stay in self.state["stays"].values():
            if stay["trip_id"] == quote["trip_id"] and stay["status"] == "booked":
                stay["status"] = "cancelled"
        return {**quote, "status": "cancelled"}

    @tool(ToolKind.WRITE)
    @raises(rules.TripNotOpen, rules.Departed, rules.AlreadyInsured, rules.InsuranceTooLate)
    def add_travel_insurance(self, trip_id: str, plan: str) -> Record:
        """Insure a trip with a plan and charge its premium (get_insurance_quote)."""
        quote = rules.insurance_quote(self.state, trip_id, plan)
        self.state["trips"][quote["trip_id"]]["insurance"] = quote["plan"]
        return {**quote, "charged": quote["premium"]}

    @tool(ToolKind.WRITE)
    @raises(rules.TripNotOpen, rules.VisaNotRequired, rules.PassportExpires, rules.UrgentVisa)
    def apply_for_visa(self, trip_id: str) -> Record:
        """Apply for the visa a trip's country requires of its traveller and charge its fee; the
        visa is on file once processed."""
        found = rules.check_visa(self.state, trip_id)
        traveller = self.state["travellers"][self.state["trips"][found["trip_id"]]["traveller_id"]]
        traveller["visas"].append(found["country"])
        ready = shift(rules.TODAY, rules.VISA_PROCESSING_DAYS)
        return {"country": found["country"], "fee_charged": found["visa_fee"], "ready_by": ready}

    @tool(ToolKind.WRITE)
    @raises(rules.TripNotOpen, rules.Departed, rules.NotEnoughPoints, rules.PointsCap)
    def redeem_points(self, trip_id: str, points: int) -> Record:
        """Pay part of a trip with loyalty points (in steps of 100, each worth one cent)."""
        trip = rules.check_points(self.state, trip_id, points)
        traveller = self.state["travellers"][trip["traveller_id"]]
        credit = round(points * rules.POINT_VALUE, 2)
        traveller["points"] -= points
        trip["points_credit"] = round(trip["points_credit"] + credit, 2)
        due = round(trip["price"] - trip["points_credit"], 2)
        return {"credit": credit, "points_left": traveller["points"], "still_due": due}
