"""The league ticket desk's tools: find fans, teams, games, tickets and season passes; buy,
return, transfer and upgrade tickets, renew passes. Every rule is checked by `rules`."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from domains.basketball import rules
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import find_by, finds, lists, lookup, raises
from toolscale.tools.bounds import text
from toolscale.tools.generic import StatefulGenericTools

Record = dict[str, Any]


class BasketballTools(StatefulGenericTools):
    """Tools over one task's league database (`self.state`). Outputs are JSON values."""

    def _ticket(self, ticket: Record) -> Record:
        game = self.state["games"][ticket["game_id"]]
        keep = ("home_team", "away_team", "arena", "date", "tipoff")
        return {**ticket, **{k: game[k] for k in keep}, "game_status": game["status"]}

    @tool(ToolKind.READ)
    @finds("fan", by="fan_id")
    def get_fan(self, fan_id: str) -> Record:
        """Get a fan account: name, email, phone and membership tier (standard, insider, elite).

        Args:
            fan_id: The fan id, such as "F1234".
        """
        return lookup(self.state, "fans", fan_id, "fan")

    @tool(ToolKind.READ)
    @finds("fan", by="email")
    def find_fan_by_email(self, email: str) -> Record:
        """Find a fan account by its email address.

        Args:
            email: The fan's email address.
        """
        return find_by(self.state, "fans", "email", email, "fan")

    @tool(ToolKind.READ)
    @finds("fan", by="phone")
    def find_fan_by_phone(self, phone: str) -> Record:
        """Find a fan account by its phone number.

        Args:
            phone: The phone number, such as "312-555-1234".
        """
        return find_by(self.state, "fans", "phone", phone, "fan")

    @tool(ToolKind.READ)
    @lists("ticket", of="fan")
    def list_fan_tickets(self, fan_id: str) -> list[Record]:
        """List every ticket order a fan holds, past and upcoming, with the game, section,
        seats, price paid and status.

        Args:
            fan_id: The fan id, such as "F1234".
        """
        fan = lookup(self.state, "fans", fan_id, "fan")
        return [
            self._ticket(t) for t in self.state["tickets"].values() if t["fan_id"] == fan["fan_id"]
        ]

    @tool(ToolKind.READ)
    @finds("ticket", by="ticket_id")
    def get_ticket(self, ticket_id: str) -> Record:
        """Get one ticket order: its game (teams, arena, date, tip-off time), section, number of
        seats, price paid, status and who transferred it, if anyone.

        Args:
            ticket_id: The ticket id, such as "TK12345".
        """
        return self._ticket(lookup(self.state, "tickets", ticket_id, "ticket"))

    @tool(ToolKind.READ)
    @finds("team", by="name")
    def find_team(self, name: str) -> Record:
        """Find a team by its full name: its id, city and home arena.

        Args:
            name: The team's name, such as "Harbor Hawks".
        """
        return find_by(self.state, "teams", "name", name, "team")

    @tool(ToolKind.READ)
    @lists("game", of="team")
    def list_home_games(self, team_id: str) -> list[Record]:
        """List a team's home games this month and next: opponent, date, tip-off and status.

        Args:
            team_id: The team id, such as "T12".
        """
        team = lookup(self.state, "teams", team_id, "team")
        keep = ("game_id", "away_team", "date", "tipoff", "status")
        return [
            {k: g[k] for k in keep}
            for g in self.state["games"].values()
            if g["home_team_id"] == team["team_id"]
        ]

    @tool(ToolKind.READ)
    def get_game(self, game_id: str) -> Record:
        """Get a game: teams, arena, date, tip-off, status, the final score once played, and
        each section's seat price and seats left.

        Args:
            game_id: The game id, such as "G1234".
        """
        return lookup(self.state, "games", game_id, "game")

    @tool(ToolKind.READ)
    def list_games_on(self, date: str) -> list[Record]:
        """List the games played on one date, with teams, arena, tip-off and status.

        Args:
            date: The date as YYYY-MM-DD.
        """
        day = text(date, "date", max_chars=20).strip()
        keep = ("game_id", "home_team", "away_team", "arena", "tipoff", "status")
        return [{k: g[k] for k in keep} for g in self.state["games"].values() if g["date"] == day]

    @tool(ToolKind.READ)
    def get_team_record(self, team_id: str) -> Record:
        """Get a team's win-loss record over the games played so far this season.

        Args:
            team_id: The team id, such as "T12".
        """
        team = lookup(self.state, "teams", team_id, "team")
        wins = losses = 0
        for g in self.state["games"].values():
            if g["status"] != "final" or team["team_id"] not in (
                g["home_team_id"],
                g["away_team_id"],
            ):
                continue
            home_won = g["home_score"] > g["away_score"]
            if home_won == (g["home_team_id"] == team["team_id"]):
                wins += 1
            else:
                losses += 1
        return {"team": team["name"], "wins": wins, "losses": losses, "played": wins + losses}

    @tool(ToolKind.READ)
    def quote_tickets(self, fan_id: str, game_id: str, section: str, quantity: int) -> Record:
        """Quote seats for a fan before buying: price per seat, member discount, service fees,
        total and seats left, and whether (and why not) they can be bought. Changes nothing.

        Args:
            fan_id: The fan id, such as "F1234".
            game_id: The game id, such as "G1234".
            section: "upper", "lower" or "courtside".
            quantity: Number of seats.
        """
        fan = lookup(self.state, "fans", fan_id, "fan")
        game = lookup(self.state, "games", game_id, "game")
        section = rules.section_of(section)
        try:
            quote = rules.check_purchase(self.state, fan_id, game_id, section, quantity)
            why = ""
        except rules.PolicyError as exc:
            quote, why = rules.seat_total(fan, game, section, min(quantity, 100)), str(exc)
        left = game["seats_left"][section]
        return {**quote, "seats_left": left, "can_buy": not why, "reason": why}

    @tool(ToolKind.READ)
    def get_refund_quote(self, ticket_id: str) -> Record:
        """Quote returning a ticket now: the refund fee and the amount refunded. Changes nothing.

        Args:
            ticket_id: The ticket id, such as "TK12345".
        """
        return rules.refund_quote(self.state, ticket_id)

    @tool(ToolKind.READ)
    @lists("season_pass", of="fan")
    def list_fan_season_passes(self, fan_id: str) -> list[Record]:
        """List a fan's season passes: team, section, plan, status, expiry and balance due.

        Args:
            fan_id: The fan id, such as "F1234".
        """
        fan = lookup(self.state, "fans", fan_id, "fan")
        passes = self.state["season_passes"].values()
        return [p for p in passes if p["fan_id"] == fan["fan_id"]]

    @tool(ToolKind.READ)
    @finds("season_pass", by="pass_id")
    def get_season_pass(self, pass_id: str) -> Record:
        """Get a season pass: team, section, plan and games, price paid, seasons held, status,
        expiry date and any balance due.

        Args:
            pass_id: The season pass id, such as "SP123".
        """
        return lookup(self.state, "season_passes", pass_id, "season pass")

    @tool(ToolKind.WRITE)
    @raises(rules.GroupSale, rules.NotOnSale, rules.MembersOnly, rules.SoldOut)
    def buy_tickets(self, fan_id: str, game_id: str, section: str, quantity: int) -> Record:
        """Buy seats for a fan and charge the total (see quote_tickets) to the card on file.
        Returns the new ticket order.

        Args:
            fan_id: The fan id, such as "F1234".
            game_id: The game id, such as "G1234".
            section: "upper", "lower" or "courtside".
            quantity: Number of seats.
        """
        quote = rules.check_purchase(self.state, fan_id, game_id, section, quantity)
        game = self.state["games"][game_id.strip()]
        section = rules.section_of(section)
        tid = f"TK{self.state['next_ticket']}"
        self.state["next_ticket"] += 1
        game["seats_left"][section] -= quantity
        self.state["tickets"][tid] = {
            "ticket_id": tid,
            "fan_id": fan_id.strip(),
            "game_id": game["game_id"],
            "section": section,
            "quantity": quantity,
            "price_paid": quote["total"],
            "status": "active",
            "transferred_from": "",
        }
        return self._ticket(self.state["tickets"][tid])

    @tool(ToolKind.WRITE)
    @raises(rules.TicketNotActive, rules.TooLateToRefund)
    def refund_ticket(self, ticket_id: str) -> Record:
        """Return a ticket: its seats go back on sale and the refund (price paid less any
        refund fee, as get_refund_quote says) goes to the card on file.

        Args:
            ticket_id: The ticket id, such as "TK12345".
        """
        quote = rules.refund_quote(self.state, ticket_id)
        ticket = self.state["tickets"][quote["ticket_id"]]
        ticket["status"] = "refunded"
        self.state["games"][ticket["game_id"]]["seats_left"][ticket["section"]] += ticket[
            "quantity"
        ]
        return {**quote, "status": "refunded"}

    @tool(ToolKind.WRITE)
    @raises(rules.TicketNotActive, rules.NonTransferable, rules.AlreadyTransferred)
    def transfer_ticket(self, ticket_id: str, recipient_email: str) -> Record:
        """Transfer a ticket to another fan's account (they must have one); it then belongs to
        them.

        Args:
            ticket_id: The ticket id, such as "TK12345".
            recipient_email: The email address of the fan receiving it.
        """
        to = rules.check_transfer(self.state, ticket_id, recipient_email)
        ticket = self.state["tickets"][ticket_id.strip()]
        ticket.update(transferred_from=ticket["fan_id"], fan_id=to["fan_id"])
        return {**self._ticket(ticket), "recipient_name": to["name"]}

    @tool(ToolKind.WRITE)
    @raises(
        rules.TicketNotActive,
        rules.ChangesClosed,
        rules.NotAnUpgrade,
        rules.MembersOnly,
        rules.SoldOut,
    )
    def upgrade_seats(self, ticket_id: str, section: str) -> Record:
        """Move a ticket's seats to a dearer section of the same game, charging the difference
        (less the fan's member discount) to the card on file.

        Args:
            ticket_id: The ticket id, such as "TK12345".
            section: The new section: "upper", "lower" or "courtside".
        """
        quote = rules.check_upgrade(self.state, ticket_id, section)
        ticket = self.state["tickets"][ticket_id.strip()]
        seats = self.state["games"][ticket["game_id"]]["seats_left"]
        new = rules.section_of(section)
        seats[ticket["section"]] += ticket["quantity"]
        seats[new] -= ticket["quantity"]
        ticket.update(section=new, price_paid=round(ticket["price_paid"] + quote["difference"], 2))
        return {**self._ticket(ticket), **quote}

    @tool(ToolKind.WRITE)
    @raises(rules.PassNotActive, rules.BalanceDue, rules.RenewalNotOpen)
    def renew_season_pass(self, pass_id: str, plan: str) -> Record:
        """Renew a season pass for one more year on the "full" or "half" plan and charge the
        price (loyalty discount included) to the card on file.

        Args:
            pass_id: The season pass id, such as "SP123".
            plan: "full" (41 home games) or "half" (20 home games).
        """
        quote = rules.renewal_quote(self.state, pass_id, plan)
        season_pass = self.state["season_passes"][pass_id.strip()]
        expires = date.fromisoformat(season_pass["expires"]) + timedelta(365)
        season_pass.update(
            plan=quote["plan"],
            games=quote["games"],
            price_paid=quote["price"],
            seasons=season_pass["seasons"] + 1,
            expires=expires.isoformat(),
        )
        return {**season_pass, "charged": quote["price"]}
