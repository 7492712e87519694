"""The restaurant agent's tools: find customers, restaurants and reservations; book, cancel,
change; every rule is checked by `rules` (the same checks the composer draws tasks with)."""

from __future__ import annotations

from typing import ClassVar

from domains.restaurant import rules
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import Record, finder, insert, lister, lookup, raises, searcher, why_not
from toolscale.tools.bounds import number
from toolscale.tools.generic import StatefulGenericTools


def _view(state: Record, restaurant: Record) -> Record:
    return {k: v for k, v in restaurant.items() if k != "menu"}


def _named(state: Record, booked: Record) -> Record:
    return {**booked, "restaurant_name": state["restaurants"][booked["restaurant_id"]]["name"]}


class RestaurantTools(StatefulGenericTools):
    """Tools over one task's restaurant database (`self.state`). Outputs are JSON objects."""

    param_docs: ClassVar[dict[str, str]] = {
        "customer_id": 'The customer id, such as "CU1234".',
        "reservation_id": 'The reservation id, such as "RS12345".',
        "restaurant_id": 'The restaurant id, such as "R123".',
        "date": "The date as YYYY-MM-DD.",
        "time": "The seating time as HH:MM.",
        "party_size": "Number of guests.",
    }

    get_customer = finder("customer", "customer_id", "Get a customer's profile and loyalty tier.")
    find_customer_by_email = finder("customer", "email")
    find_customer_by_phone = finder("customer", "phone", arg='The phone, such as "555-1234".')
    list_customer_reservations = lister("reservation", "customer", view=_named)
    get_reservation = finder("reservation", "reservation_id", view=_named)
    find_restaurant = finder(
        "restaurant",
        "name",
        "Find a restaurant by name: area, cuisine, weekday it is closed, "
        "seating times and tables per seating (its menu: get_menu).",
        view=_view,
    )

    search_restaurants = searcher(
        "restaurant",
        ("area", "cuisine"),
        "List the restaurants of one cuisine in one area.",
        view=_view,
    )

    @tool(ToolKind.READ)
    def get_menu(self, restaurant_id: str) -> list[Record]:
        """Get a restaurant's menu: each dish with its kind (vegetarian, vegan, fish, meat) and
        price in dollars."""
        return lookup(self.state, "restaurants", restaurant_id)["menu"]

    @tool(ToolKind.READ)
    def check_availability(
        self, customer_id: str, restaurant_id: str, date: str, time: str, party_size: int
    ) -> Record:
        """Check whether a customer can book a table: tables left at that seating, the deposit
        they would pay, and, when it cannot be booked, why. Changes nothing."""
        customer = lookup(self.state, "customers", customer_id)
        restaurant = lookup(self.state, "restaurants", restaurant_id)
        number(party_size, "party_size", low=1, high=100, integer=True)
        why = why_not(rules.check_slot, self.state, restaurant, date, time, party_size)
        free = rules.tables_free(self.state, restaurant, date.strip(), time.strip())
        return {
            "restaurant_id": restaurant["restaurant_id"],
            "tables_left": max(free, 0),
            "deposit": rules.deposit(self.state, customer, party_size),
            "bookable": not why,
            "reason": why,
        }

    @tool(ToolKind.READ)
    def get_cancellation_quote(self, reservation_id: str) -> Record:
        """Quote cancelling a reservation now: the late-cancellation fee and the deposit refund.
        Changes nothing."""
        return rules.cancel_quote(self.state, reservation_id)

    @tool(ToolKind.WRITE)
    @raises(rules.LargeParty, rules.TooFarAhead, rules.TooSoon, rules.Closed, rules.NoTable)
    def book_table(
        self, customer_id: str, restaurant_id: str, date: str, time: str, party_size: int
    ) -> Record:
        """Book a table and charge any deposit to the card on file. Returns the new reservation."""
        customer = lookup(self.state, "customers", customer_id)
        restaurant = lookup(self.state, "restaurants", restaurant_id)
        rules.check_slot(self.state, restaurant, date, time, party_size)
        fields = {
            "customer_id": customer["customer_id"],
            "restaurant_id": restaurant["restaurant_id"],
            "date": date.strip(),
            "time": time.strip(),
            "party_size": party_size,
            "status": "confirmed",
            "deposit_paid": rules.deposit(self.state, customer, party_size),
            "requests": [],
        }
        return insert(self.state, "reservations", "RS", fields)

    @tool(ToolKind.WRITE)
    @raises(rules.NotActive)
    def cancel_reservation(self, reservation_id: str) -> Record:
        """Cancel a reservation: charges the late-cancellation fee, if any, and refunds the rest
        of the deposit (the amounts of get_cancellation_quote)."""
        quote = rules.cancel_quote(self.state, reservation_id)
        self.state["reservations"][quote["reservation_id"]]["status"] = "cancelled"
        return {**quote, "status": "cancelled"}

    @tool(ToolKind.WRITE)
    @raises(rules.LargeParty, rules.TooLateToChange, rules.NotActive)
    def change_party_size(self, reservation_id: str, party_size: int) -> Record:
        """Change the number of guests of a reservation; the deposit is recomputed (a higher one
        is charged, a lower one refunded). Returns the reservation.

        Args:
            party_size: The new number of guests.
        """
        reservation = rules.check_party(self.state, reservation_id, party_size)
        customer = self.state["customers"][reservation["customer_id"]]
        paid = rules.deposit(self.state, customer, party_size)
        change = round(paid - reservation["deposit_paid"], 2)
        reservation.update(party_size=party_size, deposit_paid=paid)
        return {**reservation, "deposit_change": change}

    @tool(ToolKind.WRITE)
    @raises(rules.TooLateToChange, rules.NotActive, rules.TooFarAhead, rules.Closed, rules.NoTable)
    def reschedule_reservation(self, reservation_id: str, date: str, time: str) -> Record:
        """Move a reservation to another date and seating at the same restaurant.

        Args:
            date: The new date as YYYY-MM-DD.
            time: The new seating time as HH:MM.
        """
        reservation = rules.check_move(self.state, reservation_id, date, time)
        reservation.update(date=date.strip(), time=time.strip())
        return reservation

    @tool(ToolKind.WRITE)
    @raises(rules.TooManyRequests, rules.NotActive)
    def add_special_request(self, reservation_id: str, note: str) -> Record:
        """Add a special request (a high chair, a birthday cake...) to a reservation.

        Args:
            note: The request, in a few words.
        """
        reservation = rules.check_request(self.state, reservation_id, note)
        reservation["requests"].append(note.strip())
        return reservation
