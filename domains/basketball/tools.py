"""The league ticket desk's tools: find fans, teams, games, tickets and season passes; buy,
return, transfer and upgrade tickets, renew passes. Every rule is checked by `rules`."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, ClassVar

from domains.basketball import rules
from domains.basketball.world import ticket
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import find_by, finder, finds, lister, lists, lookup, raises
from toolscale.tools.bounds import text
from toolscale.tools.generic import StatefulGenericTools

Record = dict[str, Any]
GAME = ("home_team", "away_team", "arena", "date", "tipoff")


def _ticket(state: Record, ticket: Record) -> Record:
    game = state["games"][ticket["game_id"]]
    return {**ticket, **{k: game[k] for k in GAME}, "game_status": game["status"]}


class BasketballTools(StatefulGenericTools):
    """Tools over one task's league database (`self.state`). Outputs are JSON values."""

    param_docs: ClassVar[dict[str, str]] = {
        "fan_id": 'The fan id, such as "F1234".',
        "game_id": 'The game id, such as "G1234".',
        "ticket_id": 'The ticket id, such as "TK12345".',
        "pass_id": 'The season pass id, such as "SP123".',
        "team_id": 'The team id, such as "T12".',
        "section": '"upper", "lower" or "courtside".',
        "quantity": "Number of seats.",
        "date": "The date as YYYY-MM-DD.",
    }

    def _mine(self, table: str, fan_id: str) -> list[Record]:
        fan = lookup(self.state, "fans", fan_id, "fan")["fan_id"]
        return [r for r in self.state[table].values() if r["fan_id"] == fan]

    @tool(ToolKind.READ)
    @finds("fan", by="fan_id")
    def get_fan(self, fan_id: str) -> Record:
        """Get a fan account: name, email, phone, membership tier (standard, insider, elite) and
        how many ticket orders and season passes it holds."""
        fan = lookup(self.state, "fans", fan_id, "fan")
        held = {"orders": len(self._mine("tickets", fan_id))}
        return {**fan, **held, "season_passes": len(self._mine("season_passes", fan_id))}

    list_fan_tickets = lister(
        "ticket",
        "fan",
        "List a fan's ticket orders, past and upcoming: game, section, seats, price paid, status.",
        view=_ticket,
    )
    get_ticket = finder(
        "ticket",
        "ticket_id",
        "Get a ticket order: its game (teams, arena, date, tip-off), section, seats, price "
        "paid, status, and the fan it was transferred from, if any.",
        view=_ticket,
    )
    find_fan = finder(
        "fan", "email", "Find a fan account from the email address it was opened with.",
        arg="The fan's email address.",
    )  # fmt: skip

    @tool(ToolKind.READ)
    @finds("team", by="name")
    def find_team(self, name: str) -> Record:
        """Find a team by its full name or its city alone: its id, name, city and home arena.

        Args:
            name: The team's name, such as "Harbor Hawks", or its city, such as "Harbor".
        """
        wanted = text(name, "name", max_chars=100).strip().casefold()
        for team in self.state["teams"].values():
            if wanted in (team["name"].casefold(), team["city"].casefold()):
                return team
        return find_by(self.state, "teams", "name", name, "team")  # the error it says

    @tool(ToolKind.READ)
    @lists("game", of="team")
    def list_home_games(self, team_id: str) -> list[Record]:
        """List a team's home games of the season, played and to come: opponent, date,
        tip-off and status."""
        team = lookup(self.state, "teams", team_id, "team")["team_id"]
        keep = ("game_id", "away_team", "date", "tipoff", "status")
        games = self.state["games"].values()
        return [{k: g[k] for k in keep} for g in games if g["home_team_id"] == team]

    @tool(ToolKind.READ)
    def get_game(self, game_id: str) -> Record:
        """Get a game: teams, arena, date, tip-off, status, the score once played, and each
        section's seat price and seats left.
        """
        return lookup(self.state, "games", game_id, "game")

    @tool(ToolKind.READ)
    def list_games_on(self, date: str) -> list[Record]:
        """List the games of one date: teams, arena, tip-off and status."""
        day = text(date, "date", max_chars=20).strip()
        keep = ("game_id", *GAME, "status")
        return [{k: g[k] for k in keep} for g in self.state["games"].values() if g["date"] == day]

    @tool(ToolKind.READ)
    def get_team_record(self, team_id: str) -> Record:
        """Get a team's wins and losses in the games played so far this season."""
        team = lookup(self.state, "teams", team_id, "team")
        won = [
            (g["home_score"] > g["away_score"]) == (g["home_team_id"] == team["team_id"])
            for g in self.state["games"].values()
            if g["status"] == "final" and team["team_id"] in (g["home_team_id"], g["away_team_id"])
        ]
        wins = sum(won)
        return {"team": team["name"], "wins": wins, "losses": len(won) - wins, "played": len(won)}

    @tool(ToolKind.READ)
    def quote_tickets(self, fan_id: str, game_id: str, section: str, quantity: int) -> Record:
        """Quote seats before buying: price per seat, member discount, service fees, total, seats
        left, and whether (and why not) the fan can buy them. Changes nothing.
        """
        fan = lookup(self.state, "fans", fan_id, "fan")
        game = lookup(self.state, "games", game_id, "game")
        section, why = rules.section_of(section), ""
        try:
            quote = rules.check_purchase(self.state, fan_id, game_id, section, quantity)
        except rules.PolicyError as exc:
            quote, why = rules.seat_total(fan, game, section, min(quantity, 100)), str(exc)
        return {
            **quote,
            "seats_left": game["seats_left"][section],
            "can_buy": not why,
            "reason": why,
        }

    @tool(ToolKind.READ)
    def get_refund_quote(self, ticket_id: str) -> Record:
        """Quote returning a ticket now: the refund fee and the amount refunded. Changes nothing."""
        return rules.refund_quote(self.state, ticket_id)

    list_fan_season_passes = lister(
        "season_pass",
        "fan",
        "List a fan's season passes: team, section, plan, status, expiry and balance due.",
        table="season_passes",
    )
    get_season_pass = finder(
        "season_pass",
        "pass_id",
        "Get a season pass: team, section, plan and games, price paid, seasons held, status, "
        "expiry date and any balance due.",
        table="season_passes",
    )

    @tool(ToolKind.WRITE)
    @raises(rules.GroupSale, rules.NotOnSale, rules.MembersOnly, rules.SoldOut)
    def buy_tickets(self, fan_id: str, game_id: str, section: str, quantity: int) -> Record:
        """Buy seats for a fan, charging the total of quote_tickets to the card on file. Returns
        the new ticket order.
        """
        quote = rules.check_purchase(self.state, fan_id, game_id, section, quantity)
        game, section = self.state["games"][game_id.strip()], rules.section_of(section)
        tid = f"TK{self.state['next_ticket']}"
        self.state["next_ticket"] += 1
        game["seats_left"][section] -= quantity
        made = ticket(tid, fan_id.strip(), game["game_id"], section, quantity, quote["total"])
        self.state["tickets"][tid] = made
        return _ticket(self.state, self.state["tickets"][tid])

    @tool(ToolKind.WRITE)
    @raises(rules.TicketNotActive, rules.TooLateToRefund)
    def refund_ticket(self, ticket_id: str) -> Record:
        """Return a ticket: its seats go back on sale and the refund of get_refund_quote (price
        paid less any fee) goes to the card on file.
        """
        quote = rules.refund_quote(self.state, ticket_id)
        ticket = self.state["tickets"][quote["ticket_id"]]
        ticket["status"] = "refunded"
        seats = self.state["games"][ticket["game_id"]]["seats_left"]
        seats[ticket["section"]] += ticket["quantity"]
        return {**quote, "status": "refunded"}

    @tool(ToolKind.WRITE)
    @raises(rules.TicketNotActive, rules.NonTransferable, rules.AlreadyTransferred)
    def transfer_ticket(self, ticket_id: str, recipient_email: str) -> Record:
        """Transfer a ticket to another fan's account; it then belongs to them.

        Args:
            recipient_email: The email address of the receiving fan's account.
        """
        to = rules.check_transfer(self.state, ticket_id, recipient_email)
        ticket = self.state["tickets"][ticket_id.strip()]
        ticket.update(transferred_from=ticket["fan_id"], fan_id=to["fan_id"])
        return {**_ticket(self.state, ticket), "recipient_name": to["name"]}

    @tool(ToolKind.WRITE)
    @raises(
        rules.TicketNotActive,
        rules.NotOnSale,
        rules.ChangesClosed,
        rules.NotAnUpgrade,
        rules.MembersOnly,
        rules.SoldOut,
    )
    def upgrade_seats(self, ticket_id: str, section: str) -> Record:
        """Move a ticket's seats to a dearer section of the same game, charging the difference
        (less the member discount) to the card on file.

        Args:
            section: The new section: "upper", "lower" or "courtside".
        """
        quote = rules.check_upgrade(self.state, ticket_id, section)
        ticket, new = self.state["tickets"][ticket_id.strip()], rules.section_of(section)
        seats = self.state["games"][ticket["game_id"]]["seats_left"]
        seats[ticket["section"]] += ticket["quantity"]
        seats[new] -= ticket["quantity"]
        ticket.update(section=new, price_paid=round(ticket["price_paid"] + quote["difference"], 2))
        return {**_ticket(self.state, ticket), **quote}

    @tool(ToolKind.WRITE)
    @raises(rules.PassNotActive, rules.BalanceDue, rules.RenewalNotOpen)
    def renew_season_pass(self, pass_id: str, plan: str) -> Record:
        """Renew a season pass for a year on the "full" or "half" plan, charging the price
        (loyalty discount included) to the card on file.

        Args:
            plan: "full" (41 home games) or "half" (20 home games).
        """
        quote = rules.renewal_quote(self.state, pass_id, plan)
        held = self.state["season_passes"][pass_id.strip()]
        expires = (date.fromisoformat(held["expires"]) + timedelta(365)).isoformat()
        held.update(plan=quote["plan"], games=quote["games"], price_paid=quote["price"])
        held.update(seasons=held["seasons"] + 1, expires=expires)
        return {**held, "charged": quote["price"]}
