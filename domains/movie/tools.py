"""The cinema chain's desk tools: customers, cinemas, showings and bookings; book, cancel and
exchange seats, pre-order snacks, change membership plans. `rules` checks every rule."""

from __future__ import annotations

from typing import Any, ClassVar

from domains.movie import rules
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import PolicyError, find_by, finds, lists, lookup, raises
from toolscale.tools.bounds import text
from toolscale.tools.generic import StatefulGenericTools

Record = dict[str, Any]
LISTED = ("showing_id", "film", "rating", "date", "time", "format", "status")


class MovieTools(StatefulGenericTools):
    """Tools over one task's cinema database (`self.state`). Outputs are JSON values."""

    param_docs: ClassVar[dict[str, str]] = {
        "customer_id": 'The customer id, such as "C1234".',
        "booking_id": 'The booking id, such as "B123456".',
        "cinema_id": 'The cinema id, such as "CN12".',
        "showing_id": 'The showing id, such as "S1234".',
        "seats": "Number of seats.",
        "date": "The date as YYYY-MM-DD.",
    }

    def _get(self, table: str, key: str) -> Record:
        return lookup(self.state, table, key, table.removesuffix("s"))

    @tool(ToolKind.READ)
    @finds("customer", by="customer_id")
    def get_customer(self, customer_id: str) -> Record:
        """Get a customer: name, email, date of birth, membership plan and the date they joined
        it."""
        return self._get("customers", customer_id)

    @tool(ToolKind.READ)
    @lists("booking", of="customer")
    def list_bookings(self, customer_id: str) -> list[Record]:
        """List a customer's bookings, past and upcoming: film, cinema, date, time, seats, amount
        paid, status and pre-ordered snacks.
        """
        owner = self._get("customers", customer_id)["customer_id"]
        return [b for b in self.state["bookings"].values() if b["customer_id"] == owner]

    @tool(ToolKind.READ)
    @finds("customer", by="email")
    def lookup_customer_email(self, email: str) -> Record:
        """Look a customer up by the email address on their account.

        Args:
            email: The customer's email address.
        """
        return find_by(self.state, "customers", "email", email, "customer")

    @tool(ToolKind.READ)
    @finds("booking", by="booking_id")
    def get_booking(self, booking_id: str) -> Record:
        """Get one booking with its showing's screen, format and film rating."""
        booking = self._get("bookings", booking_id)
        showing = self.state["showings"][booking["showing_id"]]
        return {**booking, **{k: showing[k] for k in ("screen", "format", "rating")}}

    @tool(ToolKind.READ)
    @finds("cinema", by="name")
    def find_cinema(self, name: str) -> Record:
        """Find one of our cinemas by its name; returns its id and name.

        Args:
            name: The cinema's name, such as "Riverside Picturehouse".
        """
        cinema = find_by(self.state, "cinemas", "name", name, "cinema")
        return {"cinema_id": cinema["cinema_id"], "name": cinema["name"]}

    @tool(ToolKind.READ)
    @lists("showing", of="cinema")
    def list_showings(self, cinema_id: str) -> list[Record]:
        """List a cinema's showings from five days ago to two weeks ahead: film, rating, date,
        time, format and status.
        """
        cinema = self._get("cinemas", cinema_id)["cinema_id"]
        shows = self.state["showings"].values()
        return [{k: s[k] for k in LISTED} for s in shows if s["cinema_id"] == cinema]

    @tool(ToolKind.READ)
    def get_showing(self, showing_id: str) -> Record:
        """Get a showing: film, rating, runtime, cinema, screen, date, time, format, seat price
        (before any membership price) and seats left.
        """
        return self._get("showings", showing_id)

    @tool(ToolKind.READ)
    def search_showings(self, film: str, date: str) -> list[Record]:
        """Find every cinema's showings of one film on one date.

        Args:
            film: The film's title, such as "The Last Lighthouse".
        """
        title = text(film, "film", max_chars=100).strip().casefold()
        day = text(date, "date", max_chars=20).strip()
        return [
            {"cinema": s["cinema"], **{k: s[k] for k in LISTED}}
            for s in self.state["showings"].values()
            if (s["film"].casefold(), s["date"]) == (title, day)
        ]

    @tool(ToolKind.READ)
    def quote_booking(self, customer_id: str, showing_id: str, seats: int) -> Record:
        """Price seats for a customer under their plan (per seat and total) and say whether, and
        why not, they can be booked. Changes nothing.
        """
        customer, showing = self._get("customers", customer_id), self._get("showings", showing_id)
        try:
            return {**rules.check_seats(self.state, customer, showing, seats), "bookable": True}
        except PolicyError as exc:
            each = rules.seat_cost(customer, showing)
            return {
                "showing_id": showing["showing_id"],
                "per_seat": each,
                "bookable": False,
                "reason": str(exc),
            }

    @tool(ToolKind.READ)
    def get_membership_plans(self) -> Record:
        """The membership plans and their monthly fees: none, plus (a discount on every seat),
        unlimited (free seats, an IMAX surcharge)."""
        return {plan: {"monthly_fee": fee} for plan, fee in rules.MONTHLY_FEE.items()}

    @tool(ToolKind.WRITE)
    @raises(rules.GroupBooking, rules.NotBookable, rules.AgeRestricted, rules.SoldOut)
    def book_seats(self, customer_id: str, showing_id: str, seats: int) -> Record:
        """Book seats and charge the total of quote_booking to the card on file. Returns the
        booking.
        """
        quote = rules.check_booking(self.state, customer_id, showing_id, seats)
        showing, customer = self._get("showings", showing_id), self._get("customers", customer_id)
        showing["seats_left"] -= seats
        bid = f"B{self.state['next_booking']}"
        self.state["next_booking"] += 1
        fees = rules.BOOKING_FEE * seats if customer["plan"] == "none" else 0.0
        keep = ("showing_id", "cinema_id", "cinema", "film", "date", "time")
        made = {"booking_id": bid, "customer_id": customer["customer_id"]}
        made |= {k: showing[k] for k in keep} | {"seats": seats, "paid": quote["total"]}
        self.state["bookings"][bid] = made | {"fees": fees, "status": "confirmed"}
        self.state["bookings"][bid] |= {"exchanged": False, "snacks": []}
        return self.state["bookings"][bid]

    @tool(ToolKind.WRITE)
    @raises(rules.BookingNotActive, rules.TooLate)
    def cancel_booking(self, booking_id: str) -> Record:
        """Cancel a booking and refund it to the card: everything paid, except that booking fees
        are kept inside 24 hours of the film.
        """
        refund = rules.cancel_refund(self.state, booking_id)
        booking = self.state["bookings"][refund["booking_id"]]
        booking["status"] = "cancelled"
        self.state["showings"][booking["showing_id"]]["seats_left"] += booking["seats"]
        return {**refund, "status": "cancelled"}

    @tool(ToolKind.WRITE)
    @raises(
        rules.BookingNotActive,
        rules.TooLate,
        rules.AlreadyExchanged,
        rules.DifferentFilm,
        rules.NotBookable,
        rules.SoldOut,
    )
    def exchange_booking(self, booking_id: str, showing_id: str) -> Record:
        """Move a booking to another showing of the same film at the same cinema (once per
        booking). A dearer showing is charged the difference, a cheaper one refunded.

        Args:
            showing_id: The new showing's id, such as "S1234".
        """
        quote = rules.check_exchange(self.state, booking_id, showing_id)
        booking = self.state["bookings"][booking_id.strip()]
        old, new = self.state["showings"][booking["showing_id"]], self._get("showings", showing_id)
        old["seats_left"] += booking["seats"]
        new["seats_left"] -= booking["seats"]
        for key in ("showing_id", "cinema_id", "cinema", "date", "time"):
            booking[key] = new[key]
        booking.update(paid=quote["total"], exchanged=True)
        return {**booking, "difference": quote["difference"]}

    @tool(ToolKind.WRITE)
    @raises(rules.BookingNotActive, rules.SnackLimit)
    def add_snacks(self, booking_id: str, item: str, quantity: int) -> Record:
        """Pre-order snacks from the cinema's menu onto a booking, charged now, collected at the
        counter.

        Args:
            item: The menu item, such as "large popcorn".
            quantity: How many.
        """
        line = rules.check_snacks(self.state, booking_id, item, quantity)
        booking = self.state["bookings"][booking_id.strip()]
        booking["snacks"].append({"item": line["item"], "quantity": quantity})
        return {**booking, "charged": line["price"]}

    @tool(ToolKind.WRITE)
    @raises(rules.CommitmentPeriod)
    def change_membership(self, customer_id: str, plan: str) -> Record:
        """Move a customer to another membership plan ("none", "plus" or "unlimited") from today.

        Args:
            plan: The new plan.
        """
        change = rules.check_plan(self.state, customer_id, plan)
        customer = self._get("customers", customer_id)
        customer.update(plan=change["plan"], member_since=rules.TODAY)
        return {**customer, "monthly_fee": change["monthly_fee"]}

    @tool(ToolKind.READ)
    def get_snack_menu(self, cinema_id: str) -> Record:
        """Get a cinema's snack menu: each item with its price in dollars."""
        return self._get("cinemas", cinema_id)["snacks"]
