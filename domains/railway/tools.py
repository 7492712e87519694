"""The railway agent's tools: look up customers, bookings and trains; book, cancel, change, upgrade.

Every fee and refund is computed by `rules` (the policy as code, the checks the composer draws
tasks with); READ tools show a quote, WRITE tools apply it. Outputs are JSON text; a request the
policy forbids raises its `PolicyError`. The `@finds` / `@lists` / `@raises` links are the tool
graph (toolscale.kit.graph).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from domains.railway import rules
from domains.railway.world import make_booking
from toolscale.core.contract import ToolError, ToolKind, tool
from toolscale.kit import find_by, finds, lists, lookup, raises
from toolscale.tools.bounds import identifier, quoted, text
from toolscale.tools.generic import StatefulGenericTools

FareClass = Literal["saver", "standard", "first"]


# What a customer's booking list shows of each booking.
_LISTED = (
    "booking_id", "train_number", "origin", "destination", "travel_date", "departure_time",
    "fare_class", "passengers", "status", "train_status",
)  # fmt: skip


def _dump(value: Any) -> str:
    return json.dumps(value)


class RailwayTools(StatefulGenericTools):
    """Tools over one task's railway database (`self.state`)."""

    def _station(self, name: str) -> str:
        wanted = identifier(name, "a station").strip().casefold()
        for code, station in self.state["stations"].items():
            if wanted in (code.casefold(), station["city"].casefold(), station["name"].casefold()):
                return code
        raise ToolError(f"unknown station {quoted(name)}; call list_stations for the valid ones")

    def _train_view(self, train: dict[str, Any]) -> dict[str, Any]:
        return {**train, "status": rules.train_status(self.state, train)}

    def _booking_view(self, booking: dict[str, Any]) -> dict[str, Any]:
        train = self.state["trains"][booking["train_number"]]
        return {
            **booking,
            "origin": train["origin"],
            "destination": train["destination"],
            "departure_time": train["departure_time"],
            "train_status": rules.train_status(self.state, train),
        }

    @tool(ToolKind.READ)
    @finds("customer", by="customer_id")
    def get_customer_details(self, customer_id: str) -> str:
        """Get a customer's profile: name, email, membership tier and booking ids.

        Args:
            customer_id: The customer id, such as "C12345".
        """
        return _dump(lookup(self.state, "customers", customer_id, "customer"))

    @tool(ToolKind.READ)
    @finds("customer", by="email")
    def find_customer_by_email(self, email: str) -> str:
        """Find a customer by email address and return their profile (as get_customer_details).

        Args:
            email: The customer's email address.
        """
        return _dump(find_by(self.state, "customers", "email", email, "customer"))

    @tool(ToolKind.READ)
    @finds("booking", by="booking_id")
    def get_booking_details(self, booking_id: str) -> str:
        """Get a booking: customer, train, travel date, fare class, passengers, ticket price paid,
        luggage, fees paid, status, refund, the train's route (station codes), departure time
        and status (scheduled, departed or cancelled by the operator).

        Args:
            booking_id: The booking id, such as "BK1234".
        """
        return _dump(self._booking_view(lookup(self.state, "bookings", booking_id, "booking")))

    @tool(ToolKind.READ)
    @lists("booking", of="customer")
    def list_customer_bookings(self, customer_id: str) -> str:
        """List all bookings of a customer, each with route, travel date, departure time, fare
        class, passengers, booking status and train status.

        Args:
            customer_id: The customer id, such as "C12345".
        """
        customer = lookup(self.state, "customers", customer_id, "customer")
        rows = []
        for booking_id in customer["booking_ids"]:
            view = self._booking_view(self.state["bookings"][booking_id])
            rows.append({k: view[k] for k in _LISTED})
        return _dump(rows)

    @tool(ToolKind.READ)
    def list_stations(self) -> str:
        """List the stations served: code, city and station name."""
        return _dump(list(self.state["stations"].values()))

    @tool(ToolKind.READ)
    def search_trains(self, origin: str, destination: str, date: str) -> str:
        """Search the trains from origin to destination on one date, earliest departure first.
        Each result has times, status, fares per passenger and seats left per fare class.

        Args:
            origin: Departure station code, city or station name, such as "LDN" or "London".
            destination: Arrival station code, city or station name.
            date: Travel date as YYYY-MM-DD.
        """
        route = (self._station(origin), self._station(destination))
        day = text(date, "date", max_chars=40).strip()
        found = [
            self._train_view(t)
            for t in self.state["trains"].values()
            if (t["origin"], t["destination"]) == route and t["date"] == day
        ]
        return _dump(sorted(found, key=lambda t: t["departure_time"]))

    @tool(ToolKind.READ)
    def get_train_details(self, train_number: str) -> str:
        """Get a train: route (station codes), date, departure and arrival times, status
        (scheduled, departed or cancelled), fares per passenger and seats left per fare class.

        Args:
            train_number: The train number, such as "RW512".
        """
        return _dump(self._train_view(lookup(self.state, "trains", train_number, "train")))

    @tool(ToolKind.READ)
    def get_fare(self, train_number: str, fare_class: FareClass, passengers: int = 1) -> str:
        """Get the price of tickets on a train: fare per passenger and total for the passengers.

        Args:
            train_number: The train number, such as "RW512".
            fare_class: One of "saver", "standard", "first".
            passengers: Number of passengers (default 1).
        """
        train = lookup(self.state, "trains", train_number, "train")
        if not 1 <= passengers <= rules.MAX_PASSENGERS:
            raise ToolError(f"passengers must be between 1 and {rules.MAX_PASSENGERS}")
        if fare_class not in train["fares"]:
            raise ToolError(f"unknown fare class {fare_class!r}; use saver, standard or first")
        fare = train["fares"][fare_class]
        return _dump(
            {
                "train_number": train["train_number"],
                "fare_class": fare_class,
                "fare_per_passenger": fare,
                "passengers": passengers,
                "total": round(fare * passengers, 2),
            }
        )

    @tool(ToolKind.READ)
    def get_refund_quote(self, booking_id: str) -> str:
        """Quote what cancelling a booking now would cost and refund, by the cancellation policy.
        Returns days before departure, the cancellation fee and the refund amount. Changes nothing.

        Args:
            booking_id: The booking id, such as "BK1234".
        """
        return _dump(rules.refund_quote(self.state, booking_id))

    @tool(ToolKind.READ)
    def get_change_quote(self, booking_id: str, new_train_number: str) -> str:
        """Quote moving a booking to another train on the same route: change fee, fare difference
        and the total to pay. Changes nothing.

        Args:
            booking_id: The booking id, such as "BK1234".
            new_train_number: The train to move the booking to.
        """
        return _dump(rules.change_quote(self.state, booking_id, new_train_number))

    @tool(ToolKind.READ)
    def get_upgrade_quote(self, booking_id: str) -> str:
        """Quote upgrading a standard booking to first class on the same train. Changes nothing.

        Args:
            booking_id: The booking id, such as "BK1234".
        """
        return _dump(rules.upgrade_quote(self.state, booking_id))

    @tool(ToolKind.WRITE)
    @raises(rules.SoldOut, rules.GroupBooking)
    def book_ticket(
        self, customer_id: str, train_number: str, fare_class: FareClass, passengers: int
    ) -> str:
        """Book tickets for a customer, charged to the payment method on file. Returns the new
        booking, including its booking id and the ticket price paid.

        Args:
            customer_id: The customer id, such as "C12345".
            train_number: The train to book, such as "RW512".
            fare_class: One of "saver", "standard", "first".
            passengers: Number of passengers (1 to 6).
        """
        rules.check_booking(self.state, customer_id, train_number, fare_class, passengers)
        customer = self.state["customers"][customer_id.strip()]
        train = self.state["trains"][train_number.strip()]
        train["seats_left"][fare_class] -= passengers
        booking = make_booking(self.state, customer["customer_id"], train, fare_class, passengers)
        return _dump(booking)

    @tool(ToolKind.WRITE)
    @raises(rules.Departed, rules.NotActive)
    def cancel_booking(self, booking_id: str) -> str:
        """Cancel a booking and refund it by the cancellation policy (the same amounts as
        get_refund_quote). Returns the cancellation fee and the refund amount.

        Args:
            booking_id: The booking id, such as "BK1234".
        """
        quote = rules.refund_quote(self.state, booking_id)
        booking = self.state["bookings"][quote["booking_id"]]
        train = self.state["trains"][booking["train_number"]]
        train["seats_left"][booking["fare_class"]] += booking["passengers"]
        booking["status"] = "cancelled"
        booking["refund_amount"] = quote["refund_amount"]
        return _dump({**quote, "status": "cancelled"})

    @tool(ToolKind.WRITE)
    @raises(
        rules.SaverFixed, rules.SoldOut, rules.OperatorCancelled, rules.Departed, rules.NotActive
    )
    def change_booking(self, booking_id: str, new_train_number: str) -> str:
        """Move a booking to another train on the same route (another date or time), same fare
        class and passengers. Charges the change fee plus any higher fare (a lower fare is not
        refunded). Returns the new train, the change fee, the fare difference and the total paid.

        Args:
            booking_id: The booking id, such as "BK1234".
            new_train_number: The train to move the booking to.
        """
        quote = rules.change_quote(self.state, booking_id, new_train_number)
        booking = self.state["bookings"][quote["booking_id"]]
        new_train = self.state["trains"][quote["new_train_number"]]
        old_train = self.state["trains"][booking["train_number"]]
        old_train["seats_left"][booking["fare_class"]] += booking["passengers"]
        new_train["seats_left"][booking["fare_class"]] -= booking["passengers"]
        booking["train_number"] = new_train["train_number"]
        booking["travel_date"] = new_train["date"]
        booking["ticket_price"] = quote["new_ticket_price"]
        booking["fees_paid"] = round(booking["fees_paid"] + quote["change_fee"], 2)
        moved = {"travel_date": new_train["date"], "departure_time": new_train["departure_time"]}
        return _dump(quote | moved)

    @tool(ToolKind.WRITE)
    @raises(
        rules.NotStandard, rules.SoldOut, rules.OperatorCancelled, rules.Departed, rules.NotActive
    )
    def upgrade_class(self, booking_id: str) -> str:
        """Upgrade a standard booking to first class on the same train, charging the difference
        between the first-class fare for all passengers and the ticket price already paid.
        Returns the upgrade cost.

        Args:
            booking_id: The booking id, such as "BK1234".
        """
        quote = rules.upgrade_quote(self.state, booking_id)
        booking = self.state["bookings"][quote["booking_id"]]
        seats = self.state["trains"][booking["train_number"]]["seats_left"]
        seats["standard"] += booking["passengers"]
        seats["first"] -= booking["passengers"]
        booking["fare_class"] = "first"
        booking["ticket_price"] = quote["new_ticket_price"]
        return _dump({**quote, "fare_class": "first"})

    @tool(ToolKind.WRITE)
    @raises(rules.TooManyBags, rules.OperatorCancelled, rules.Departed, rules.NotActive)
    def add_luggage(self, booking_id: str, bags: int) -> str:
        """Add checked bags to a booking. Bags within the membership allowance are free, others
        cost the per-bag fee. Returns the booking's new bag count and the fee charged.

        Args:
            booking_id: The booking id, such as "BK1234".
            bags: Number of bags to add (at least 1).
        """
        quote = rules.luggage_quote(self.state, booking_id, bags)
        booking = self.state["bookings"][quote["booking_id"]]
        booking["luggage"] = quote["luggage"]
        booking["fees_paid"] = round(booking["fees_paid"] + quote["fee"], 2)
        return _dump(quote)
