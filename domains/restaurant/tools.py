"""The restaurant agent's tools: find customers, restaurants and reservations; book, cancel,
change; every rule is checked by `rules` (the same checks the composer draws tasks with)."""

from __future__ import annotations

from typing import Any

from domains.restaurant import rules
from toolscale.core.contract import ToolError, ToolKind, tool
from toolscale.kit import find_by, finds, lists, lookup, raises
from toolscale.tools.bounds import number, text
from toolscale.tools.generic import StatefulGenericTools

Record = dict[str, Any]


class RestaurantTools(StatefulGenericTools):
    """Tools over one task's restaurant database (`self.state`). Outputs are JSON objects."""

    def _restaurant_view(self, restaurant: Record) -> Record:
        return {k: v for k, v in restaurant.items() if k != "menu"}

    @tool(ToolKind.READ)
    @finds("customer", by="customer_id")
    def get_customer(self, customer_id: str) -> Record:
        """Get a customer's profile: name, email, phone and loyalty tier.

        Args:
            customer_id: The customer id, such as "CU1234".
        """
        return lookup(self.state, "customers", customer_id, "customer")

    @tool(ToolKind.READ)
    @finds("customer", by="email")
    def find_customer_by_email(self, email: str) -> Record:
        """Find a customer by email address; returns their profile.

        Args:
            email: The customer's email address.
        """
        return find_by(self.state, "customers", "email", email, "customer")

    @tool(ToolKind.READ)
    @finds("customer", by="phone")
    def find_customer_by_phone(self, phone: str) -> Record:
        """Find a customer by phone number; returns their profile.

        Args:
            phone: The phone number, such as "555-1234".
        """
        return find_by(self.state, "customers", "phone", phone, "customer")

    @tool(ToolKind.READ)
    @lists("reservation", of="customer")
    def list_customer_reservations(self, customer_id: str) -> list[Record]:
        """List a customer's reservations (past and upcoming) with restaurant, date, time, party
        size and status.

        Args:
            customer_id: The customer id, such as "CU1234".
        """
        customer = lookup(self.state, "customers", customer_id, "customer")
        return [
            {**r, "restaurant_name": self.state["restaurants"][r["restaurant_id"]]["name"]}
            for r in self.state["reservations"].values()
            if r["customer_id"] == customer["customer_id"]
        ]

    @tool(ToolKind.READ)
    @finds("reservation", by="reservation_id")
    def get_reservation(self, reservation_id: str) -> Record:
        """Get a reservation: restaurant, date, time, party size, status, deposit paid and
        special requests.

        Args:
            reservation_id: The reservation id, such as "RS12345".
        """
        reservation = lookup(self.state, "reservations", reservation_id, "reservation")
        name = self.state["restaurants"][reservation["restaurant_id"]]["name"]
        return {**reservation, "restaurant_name": name}

    @tool(ToolKind.READ)
    @finds("restaurant", by="name")
    def find_restaurant(self, name: str) -> Record:
        """Find a restaurant by its name: area, cuisine, weekday it is closed, seating times and
        tables per seating.

        Args:
            name: The restaurant's name, such as "Copper Lantern".
        """
        return self._restaurant_view(find_by(self.state, "restaurants", "name", name, "restaurant"))

    @tool(ToolKind.READ)
    def search_restaurants(self, area: str, cuisine: str) -> list[Record]:
        """List the restaurants of one cuisine in one area.

        Args:
            area: The area, such as "Old Town".
            cuisine: The cuisine, such as "Thai".
        """
        area = text(area, "area", max_chars=60).strip().casefold()
        cuisine = text(cuisine, "cuisine", max_chars=60).strip().casefold()
        return [
            self._restaurant_view(r)
            for r in self.state["restaurants"].values()
            if (r["area"].casefold(), r["cuisine"].casefold()) == (area, cuisine)
        ]

    @tool(ToolKind.READ)
    def get_menu(self, restaurant_id: str) -> list[Record]:
        """Get a restaurant's menu: each dish with its kind (vegetarian, vegan, fish, meat) and
        price in dollars.

        Args:
            restaurant_id: The restaurant id, such as "R123".
        """
        return lookup(self.state, "restaurants", restaurant_id, "restaurant")["menu"]

    @tool(ToolKind.READ)
    def check_availability(
        self, customer_id: str, restaurant_id: str, date: str, time: str, party_size: int
    ) -> Record:
        """Check whether a customer can book a table: tables left at that seating, the deposit
        they would pay, and, when it cannot be booked, why. Changes nothing.

        Args:
            customer_id: The customer id, such as "CU1234".
            restaurant_id: The restaurant id, such as "R123".
            date: The date as YYYY-MM-DD.
            time: The seating time as HH:MM.
            party_size: Number of guests.
        """
        customer = lookup(self.state, "customers", customer_id, "customer")
        restaurant = lookup(self.state, "restaurants", restaurant_id, "restaurant")
        number(party_size, "party_size", low=1, high=100, integer=True)
        try:
            rules.check_slot(self.state, restaurant, date, time, party_size)
            why = ""
        except ToolError as exc:
            why = str(exc)
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
        Changes nothing.

        Args:
            reservation_id: The reservation id, such as "RS12345".
        """
        return rules.cancel_quote(self.state, reservation_id)

    @tool(ToolKind.WRITE)
    @raises(rules.LargeParty, rules.TooFarAhead, rules.TooSoon, rules.Closed, rules.NoTable)
    def book_table(
        self, customer_id: str, restaurant_id: str, date: str, time: str, party_size: int
    ) -> Record:
        """Book a table and charge any deposit to the card on file. Returns the new reservation.

        Args:
            customer_id: The customer id, such as "CU1234".
            restaurant_id: The restaurant id, such as "R123".
            date: The date as YYYY-MM-DD.
            time: The seating time as HH:MM.
            party_size: Number of guests.
        """
        rules.check_booking(self.state, customer_id, restaurant_id, date, time, party_size)
        customer = self.state["customers"][customer_id.strip()]
        rid = f"RS{self.state['next_reservation']}"
        self.state["next_reservation"] += 1
        reservation = {
            "reservation_id": rid,
            "customer_id": customer["customer_id"],
            "restaurant_id": restaurant_id.strip(),
            "date": date.strip(),
            "time": time.strip(),
            "party_size": party_size,
            "status": "confirmed",
            "deposit_paid": rules.deposit(self.state, customer, party_size),
            "requests": [],
        }
        self.state["reservations"][rid] = reservation
        return reservation

    @tool(ToolKind.WRITE)
    @raises(rules.NotActive)
    def cancel_reservation(self, reservation_id: str) -> Record:
        """Cancel a reservation: charges the late-cancellation fee, if any, and refunds the rest
        of the deposit (the amounts of get_cancellation_quote).

        Args:
            reservation_id: The reservation id, such as "RS12345".
        """
        quote = rules.cancel_quote(self.state, reservation_id)
        self.state["reservations"][quote["reservation_id"]]["status"] = "cancelled"
        return {**quote, "status": "cancelled"}

    @tool(ToolKind.WRITE)
    @raises(rules.LargeParty, rules.TooLateToChange, rules.NotActive)
    def change_party_size(self, reservation_id: str, party_size: int) -> Record:
        """Change the number of guests of a reservation; the deposit is recomputed (a higher one
        is charged, a lower one refunded). Returns the reservation.

        Args:
            reservation_id: The reservation id, such as "RS12345".
            party_size: The new number of guests.
        """
        quote = rules.check_party(self.state, reservation_id, party_size)
        reservation = self.state["reservations"][reservation_id.strip()]
        change = round(quote["deposit"] - reservation["deposit_paid"], 2)
        reservation.update(party_size=party_size, deposit_paid=quote["deposit"])
        return {**reservation, "deposit_change": change}

    @tool(ToolKind.WRITE)
    @raises(rules.TooLateToChange, rules.NotActive, rules.TooFarAhead, rules.Closed, rules.NoTable)
    def reschedule_reservation(self, reservation_id: str, date: str, time: str) -> Record:
        """Move a reservation to another date and seating at the same restaurant.

        Args:
            reservation_id: The reservation id, such as "RS12345".
            date: The new date as YYYY-MM-DD.
            time: The new seating time as HH:MM.
        """
        rules.check_move(self.state, reservation_id, date, time)
        reservation = self.state["reservations"][reservation_id.strip()]
        reservation.update(date=date.strip(), time=time.strip())
        return reservation

    @tool(ToolKind.WRITE)
    @raises(rules.TooManyRequests, rules.NotActive)
    def add_special_request(self, reservation_id: str, note: str) -> Record:
        """Add a special request (a high chair, a birthday cake...) to a reservation.

        Args:
            reservation_id: The reservation id, such as "RS12345".
            note: The request, in a few words.
        """
        rules.check_request(self.state, reservation_id, note)
        reservation = self.state["reservations"][reservation_id.strip()]
        reservation["requests"].append(note.strip())
        return reservation
