"""The basketball ticket-desk policy as code: its constants (policy.md is rendered from them),
one error per rule, and the checks the tools and the composer share (pure: they never change
the state)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import PolicyError, find_by, lookup
from toolscale.tools.bounds import number, shown, text

TODAY = "2025-11-12"  # a Wednesday; the clock of every task
NOW = f"{TODAY}T16:30"
SECTIONS = ("upper", "lower", "courtside")
TIERS = ("standard", "insider", "elite")
TIER_DISCOUNT = {"standard": 0.0, "insider": 0.1, "elite": 0.15}
SERVICE_FEE = 4.5  # dollars per seat, never discounted
MAX_ORDER = 8  # larger orders go to the group-sales team (a human agent)
SALES_CLOSE_HOURS = 1
COURTSIDE_TIERS = ("insider", "elite")
FULL_REFUND_DAYS = 7
REFUND_FEE_RATE = 0.2
REFUND_CUTOFF_HOURS = 24
CHANGE_CLOSE_HOURS = 6
RENEWAL_WINDOW_DAYS = 60
LOYALTY_PER_SEASON = 0.02
LOYALTY_CAP = 0.1
PASS_GAMES = {"full": 41, "half": 20}
PASS_PER_GAME = {"upper": 30, "lower": 68}

Record = dict[str, Any]


class GroupSale(PolicyError):
    handoff = True


class NotOnSale(PolicyError):
    pass


class MembersOnly(PolicyError):
    pass


class SoldOut(PolicyError):
    pass


class TicketNotActive(PolicyError):
    pass


class TooLateToRefund(PolicyError):
    pass


class NonTransferable(PolicyError):
    pass


class AlreadyTransferred(PolicyError):
    pass


class ChangesClosed(PolicyError):
    pass


class NotAnUpgrade(PolicyError):
    pass


class PassNotActive(PolicyError):
    pass


class BalanceDue(PolicyError):
    pass


class RenewalNotOpen(PolicyError):
    pass


def hours_to(state: Record, game: Record) -> float:
    tipoff = datetime.fromisoformat(f"{game['date']}T{game['tipoff']}")
    return (tipoff - datetime.fromisoformat(state["now"])).total_seconds() / 3600


def section_of(value: str) -> str:
    section = text(value, "section", max_chars=20).strip().casefold()
    if section not in SECTIONS:
        raise ToolError(f"section {shown(value)}: choose one of {', '.join(SECTIONS)}")
    return section


def seat_total(fan: Record, game: Record, section: str, quantity: int) -> Record:
    """What `quantity` seats in `section` cost `fan`: the tier discount applies to the seat
    price, the service fee is per seat."""
    price = game["prices"][section]
    discount = round(price * quantity * TIER_DISCOUNT[fan["tier"]], 2)
    fees = round(SERVICE_FEE * quantity, 2)
    total = round(price * quantity - discount + fees, 2)
    return {"price_per_seat": price, "discount": discount, "service_fee": fees, "total": total}


def _courtside(fan: Record, section: str) -> None:
    if section == "courtside" and fan["tier"] not in COURTSIDE_TIERS:
        raise MembersOnly(
            f"courtside seats are for {' and '.join(COURTSIDE_TIERS)} members, and "
            f"{fan['fan_id']} is {fan['tier']}",
            shows=(fan["tier"],),
        )


def check_purchase(state: Record, fan_id: str, game_id: str, section: str, quantity: int) -> Record:
    """The price of the order, or the policy error that forbids it."""
    fan = lookup(state, "fans", fan_id, "fan")
    game = lookup(state, "games", game_id, "game")
    section = section_of(section)
    number(quantity, "quantity", low=1, high=100, integer=True)
    if quantity > MAX_ORDER:
        raise GroupSale(
            f"orders of more than {MAX_ORDER} seats are group sales, and this one is {quantity}",
            shows=(game["game_id"],),
        )
    if game["status"] != "scheduled" or hours_to(state, game) < SALES_CLOSE_HOURS:
        raise NotOnSale(
            f"game {game['game_id']} is {game['status']}; tickets are sold only for scheduled "
            f"games, until {SALES_CLOSE_HOURS} hour before tip-off",
            shows=(game["status"],),
        )
    _courtside(fan, section)
    left = game["seats_left"][section]
    if left < quantity:
        raise SoldOut(
            f"only {left} {section} seats are left for game {game['game_id']}",
            shows=(game["game_id"], left),
        )
    return seat_total(fan, game, section, quantity)


def _active(state: Record, ticket_id: str) -> tuple[Record, Record]:
    ticket = lookup(state, "tickets", ticket_id, "ticket")
    if ticket["status"] != "active":
        raise TicketNotActive(
            f"ticket {ticket['ticket_id']} is {ticket['status']}", shows=(ticket["status"],)
        )
    return ticket, state["games"][ticket["game_id"]]


def refund_quote(state: Record, ticket_id: str) -> Record:
    """The fee and refund of returning the ticket now (full refund for a postponed game)."""
    ticket, game = _active(state, ticket_id)
    hours = hours_to(state, game)
    fee = 0.0
    if game["status"] != "postponed":
        if hours < REFUND_CUTOFF_HOURS:
            raise TooLateToRefund(
                f"tickets can be returned up to {REFUND_CUTOFF_HOURS} hours before tip-off, and "
                f"game {game['game_id']} tips off on {game['date']} at {game['tipoff']}",
                shows=(game["tipoff"],),
            )
        if hours < FULL_REFUND_DAYS * 24:
            fee = round(ticket["price_paid"] * REFUND_FEE_RATE, 2)
    return {
        "ticket_id": ticket["ticket_id"],
        "price_paid": ticket["price_paid"],
        "fee": fee,
        "refund": round(ticket["price_paid"] - fee, 2),
    }


def check_transfer(state: Record, ticket_id: str, recipient_email: str) -> Record:
    """The fan who receives the ticket, or the policy error that forbids the transfer."""
    ticket, _ = _active(state, ticket_id)
    to = find_by(state, "fans", "email", recipient_email, "fan")
    if to["fan_id"] == ticket["fan_id"]:
        raise ToolError(f"ticket {ticket['ticket_id']} already belongs to {recipient_email}")
    if ticket["section"] == "courtside":
        raise NonTransferable(
            f"courtside tickets cannot be transferred, and {ticket['ticket_id']} is courtside",
            shows=(ticket["section"],),
        )
    if ticket["transferred_from"]:
        raise AlreadyTransferred(
            f"a ticket can be transferred once, and {ticket['ticket_id']} was already "
            f"transferred from fan {ticket['transferred_from']}",
            shows=(ticket["transferred_from"],),
        )
    return to


def check_upgrade(state: Record, ticket_id: str, section: str) -> Record:
    """The extra cost of moving the ticket's seats to a dearer section."""
    ticket, game = _active(state, ticket_id)
    section = section_of(section)
    if hours_to(state, game) < CHANGE_CLOSE_HOURS:
        raise ChangesClosed(
            f"seats can be changed until {CHANGE_CLOSE_HOURS} hours before tip-off, and game "
            f"{game['game_id']} tips off at {game['tipoff']} on {game['date']}",
            shows=(game["tipoff"],),
        )
    old, new = game["prices"][ticket["section"]], game["prices"][section]
    if new <= old:
        raise NotAnUpgrade(
            f"seats can only move to a dearer section: {section} costs {new:.2f} a seat and "
            f"the ticket's {ticket['section']} seats {old:.2f}",
            shows=(old, new),
        )
    fan = state["fans"][ticket["fan_id"]]
    _courtside(fan, section)
    if game["seats_left"][section] < ticket["quantity"]:
        raise SoldOut(
            f"only {game['seats_left'][section]} {section} seats are left for game "
            f"{game['game_id']}",
            shows=(game["seats_left"][section],),
        )
    gap = (new - old) * ticket["quantity"]
    return {"difference": round(gap * (1 - TIER_DISCOUNT[fan["tier"]]), 2)}


def renewal_quote(state: Record, pass_id: str, plan: str) -> Record:
    """The price of renewing the pass on `plan`, or the policy error that forbids it."""
    season_pass = lookup(state, "season_passes", pass_id, "season pass")
    plan = text(plan, "plan", max_chars=10).strip().casefold()
    if plan not in PASS_GAMES:
        raise ToolError(f"plan {shown(plan)}: choose one of {', '.join(PASS_GAMES)}")
    if season_pass["status"] != "active":
        raise PassNotActive(
            f"season pass {season_pass['pass_id']} is {season_pass['status']}",
            shows=(season_pass["status"],),
        )
    if season_pass["balance_due"] > 0:
        raise BalanceDue(
            f"season pass {season_pass['pass_id']} has {season_pass['balance_due']:.2f} "
            "outstanding, which must be paid before it is renewed",
            shows=(season_pass["balance_due"],),
        )
    opens = date.fromisoformat(season_pass["expires"]) - timedelta(RENEWAL_WINDOW_DAYS)
    if opens > date.fromisoformat(TODAY):
        raise RenewalNotOpen(
            f"renewal opens {RENEWAL_WINDOW_DAYS} days before a pass expires, and "
            f"{season_pass['pass_id']} expires on {season_pass['expires']}",
            shows=(season_pass["expires"],),
        )
    loyalty = min(LOYALTY_PER_SEASON * season_pass["seasons"], LOYALTY_CAP)
    full = PASS_PER_GAME[season_pass["section"]] * PASS_GAMES[plan]
    return {"plan": plan, "games": PASS_GAMES[plan], "price": round(full * (1 - loyalty), 2)}
