"""The basketball ticket-desk policy as code: its constants (policy.md is rendered from them),
one error per rule, and the checks the tools and the composer share (pure: they never change
the state)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import PolicyError, find_by, lookup, rule
from toolscale.tools.bounds import number, quoted, text

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


GroupSale = rule("GroupSale", handoff=True)
NotOnSale = rule("NotOnSale")
MembersOnly = rule("MembersOnly")
SoldOut = rule("SoldOut")
TicketNotActive = rule("TicketNotActive")
TooLateToRefund = rule("TooLateToRefund")
NonTransferable = rule("NonTransferable")
AlreadyTransferred = rule("AlreadyTransferred")
ChangesClosed = rule("ChangesClosed")
NotAnUpgrade = rule("NotAnUpgrade")
PassNotActive = rule("PassNotActive")
BalanceDue = rule("BalanceDue")
RenewalNotOpen = rule("RenewalNotOpen")


def hours_to(state: Record, game: Record) -> float:
    tipoff = datetime.fromisoformat(f"{game['date']}T{game['tipoff']}")
    return (tipoff - datetime.fromisoformat(state["now"])).total_seconds() / 3600


def section_of(value: str) -> str:
    section = text(value, "section", max_chars=20).strip().casefold()
    if section not in SECTIONS:
        raise ToolError(f"section {quoted(value)}: choose one of {', '.join(SECTIONS)}")
    return section


def seat_total(fan: Record, game: Record, section: str, quantity: int) -> Record:
    """What `quantity` seats cost `fan`: the tier discount is on the seat price only."""
    price = game["prices"][section]
    discount = round(price * quantity * TIER_DISCOUNT[fan["tier"]], 2)
    fees = round(SERVICE_FEE * quantity, 2)
    total = round(price * quantity - discount + fees, 2)
    return {"price_per_seat": price, "discount": discount, "service_fee": fees, "total": total}


def _seats(fan: Record, game: Record, section: str, quantity: int) -> None:
    """The rules every seat obeys: courtside for members, enough seats left."""
    MembersOnly.raise_if(
        section == "courtside" and fan["tier"] not in COURTSIDE_TIERS,
        f"courtside seats are for insider and elite members; {fan['fan_id']} is {fan['tier']}",
        fan["tier"],
    )
    left = game["seats_left"][section]
    SoldOut.raise_if(
        left < quantity,
        f"only {left} {section} seats are left for game {game['game_id']}",
        game["game_id"],
        left,
    )


def check_purchase(state: Record, fan_id: str, game_id: str, section: str, quantity: int) -> Record:
    """The price of the order, or the policy error that forbids it."""
    fan, game = lookup(state, "fans", fan_id, "fan"), lookup(state, "games", game_id, "game")
    section = section_of(section)
    number(quantity, "quantity", low=1, high=100, integer=True)
    GroupSale.raise_if(
        quantity > MAX_ORDER,
        f"orders of more than {MAX_ORDER} seats are group sales; this is {quantity}",
        game["game_id"],
    )
    NotOnSale.raise_if(
        game["status"] != "scheduled" or hours_to(state, game) < SALES_CLOSE_HOURS,
        f"game {game['game_id']} is {game['status']}; tickets are sold only for scheduled "
        f"games, until {SALES_CLOSE_HOURS} hour before tip-off",
        game["status"],
    )
    _seats(fan, game, section, quantity)
    return seat_total(fan, game, section, quantity)


def _active(state: Record, ticket_id: str) -> tuple[Record, Record]:
    ticket = lookup(state, "tickets", ticket_id, "ticket")
    TicketNotActive.raise_if(
        ticket["status"] != "active",
        f"ticket {ticket['ticket_id']} is {ticket['status']}",
        ticket["status"],
    )
    return ticket, state["games"][ticket["game_id"]]


def _before(state: Record, game: Record, hours: int, error: type[PolicyError], what: str) -> None:
    error.raise_if(
        hours_to(state, game) < hours,
        f"{what} until {hours} hours before tip-off, and game {game['game_id']} "
        f"tips off on {game['date']} at {game['tipoff']}",
        game["tipoff"],
    )


def refund_quote(state: Record, ticket_id: str) -> Record:
    """The fee and refund of returning the ticket now (in full for a postponed game)."""
    ticket, game = _active(state, ticket_id)
    fee = 0.0
    if game["status"] != "postponed":
        _before(state, game, REFUND_CUTOFF_HOURS, TooLateToRefund, "tickets can be returned")
        if hours_to(state, game) < FULL_REFUND_DAYS * 24:
            fee = round(ticket["price_paid"] * REFUND_FEE_RATE, 2)
    refund = round(ticket["price_paid"] - fee, 2)
    return {
        "ticket_id": ticket["ticket_id"],
        "price_paid": ticket["price_paid"],
        "fee": fee,
        "refund": refund,
    }


def check_transfer(state: Record, ticket_id: str, recipient_email: str) -> Record:
    """The fan who receives the ticket, or the policy error that forbids the transfer."""
    ticket, _ = _active(state, ticket_id)
    to = find_by(state, "fans", "email", recipient_email, "fan")
    if to["fan_id"] == ticket["fan_id"]:
        raise ToolError(
            f"ticket {ticket['ticket_id']} already belongs to {quoted(recipient_email)}"
        )
    NonTransferable.raise_if(
        ticket["section"] == "courtside",
        f"courtside tickets cannot be transferred; {ticket_id} is courtside",
        ticket["section"],
    )
    AlreadyTransferred.raise_if(
        bool(ticket["transferred_from"]),
        f"a ticket can be transferred once, and {ticket['ticket_id']} was already "
        f"transferred from fan {ticket['transferred_from']}",
        ticket["transferred_from"],
    )
    return to


def check_upgrade(state: Record, ticket_id: str, section: str) -> Record:
    """The extra cost of moving the ticket's seats to a dearer section, less the discount."""
    ticket, game = _active(state, ticket_id)
    section = section_of(section)
    NotOnSale.raise_if(
        game["status"] == "postponed",
        f"game {game['game_id']} is postponed; its seats are not on sale, so they cannot be "
        "moved until it is rescheduled",
        game["status"],
    )
    _before(state, game, CHANGE_CLOSE_HOURS, ChangesClosed, "seats can be changed")
    old, new = game["prices"][ticket["section"]], game["prices"][section]
    NotAnUpgrade.raise_if(
        new <= old,
        f"seats only move to a dearer section: {section} costs {new:.2f} a "
        f"seat, the ticket's {ticket['section']} seats {old:.2f}",
        old,
        new,
    )
    fan = state["fans"][ticket["fan_id"]]
    _seats(fan, game, section, ticket["quantity"])
    gap = (new - old) * ticket["quantity"] * (1 - TIER_DISCOUNT[fan["tier"]])
    return {"difference": round(gap, 2)}


def renewal_quote(state: Record, pass_id: str, plan: str) -> Record:
    """The price of renewing the pass on `plan`, or the policy error that forbids it."""
    held = lookup(state, "season_passes", pass_id, "season pass")
    plan = text(plan, "plan", max_chars=10).strip().casefold()
    if plan not in PASS_GAMES:
        raise ToolError(f"plan {quoted(plan)}: choose one of {', '.join(PASS_GAMES)}")
    PassNotActive.raise_if(
        held["status"] != "active",
        f"season pass {held['pass_id']} is {held['status']}",
        held["status"],
    )
    BalanceDue.raise_if(
        held["balance_due"] > 0,
        f"season pass {held['pass_id']} has {held['balance_due']:.2f} "
        "outstanding, to be paid before it is renewed",
        held["balance_due"],
    )
    opens = date.fromisoformat(held["expires"]) - timedelta(RENEWAL_WINDOW_DAYS)
    RenewalNotOpen.raise_if(
        opens > date.fromisoformat(TODAY),
        f"renewal opens {RENEWAL_WINDOW_DAYS} days before a pass expires, "
        f"and {held['pass_id']} expires on {held['expires']}",
        held["expires"],
    )
    loyalty = min(LOYALTY_PER_SEASON * held["seasons"], LOYALTY_CAP)
    full = PASS_PER_GAME[held["section"]] * PASS_GAMES[plan]
    return {"plan": plan, "games": PASS_GAMES[plan], "price": round(full * (1 - loyalty), 2)}
