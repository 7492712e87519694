"""The basketball domain (stateful, kit v2): a league ticket desk that sells, returns, transfers
and upgrades game tickets, renews season passes and answers questions about games and teams.

Declared: the world (`world.build_world`), the tool graph (`tools`), the policy (`rules`,
rendered into policy.md) and the goals below; the kit composes every task from them.
"""

from __future__ import annotations

from typing import Any

from domains.basketball import rules
from domains.basketball.invariants import INVARIANTS
from domains.basketball.tools import BasketballTools
from domains.basketball.world import build_world
from toolscale.kit import Draw, Entity, Goal, StatefulDomain
from toolscale.kit.identify import Identification
from toolscale.kit.words import NUMBERS, alts, day

Record = dict[str, Any]
SEATS = {"upper": "upper-deck", "lower": "lower-bowl", "courtside": "courtside"}


def _game_words(game: Record, world: Record, precise: bool) -> str:
    home, away = game["home_team"], game["away_team"]
    form = int(game["game_id"][1:]) % 3
    match = (
        f"{home} home game against the {away}",
        f"{away} at {home} game",
        f"{home}-{away} game",
    )
    return f"the {match[form]}" + (f" on {day(game['date'])}" if precise else "")


def _ticket_words(ticket: Record, world: Record, precise: bool) -> str:
    game, number = world["games"][ticket["game_id"]], int(ticket["ticket_id"][2:])
    noun = ("tickets", "seats", "ticket order", "tickets")[number % 4]
    if precise and ticket["quantity"] == 1:
        noun = f"{SEATS[ticket['section']]} {noun.split()[0].removesuffix('s')}"
    elif precise and noun == "ticket order":  # not "my five upper-deck ticket order"
        noun = f"order of {NUMBERS[ticket['quantity']]} {SEATS[ticket['section']]} tickets"
    elif precise:
        noun = f"{NUMBERS[ticket['quantity']]} {SEATS[ticket['section']]} {noun}"
    teams = (
        f"{game['home_team']} v {game['away_team']}",
        f"{game['away_team']} at the {game['home_team']}",
    )
    return f"my {noun} for the {teams[number % 2]} game on {day(game['date'])}"


def _pass_words(held: Record, world: Record, precise: bool) -> str:
    noun = ("season pass", "season ticket plan", "season seats", "season membership")
    return f"my {held['team']} {noun[int(held['pass_id'][2:]) % 4]} ({SEATS[held['section']]})"


ENTITIES = (
    Entity("fan", labels={"fan_id": "fan number"}),
    Entity("team", said=("name",), labels={"name": "team name"}),
    Entity("game", owner="team", owner_key="home_team_id", describe=_game_words,
           alike=lambda r: r["away_team_id"], tell="date", labels={"date": "game date"}),
    Entity("ticket", owner="fan", describe=_ticket_words, alike=lambda r: r["game_id"],
           tell="section", labels={"section": "seating section", "ticket_id": "ticket number"}),
    Entity("season_pass", "season_passes", "pass_id", owner="fan", describe=_pass_words,
           alike=lambda r: r["team_id"], noun="season pass",
           labels={"pass_id": "season pass number"}),
)  # fmt: skip


def _ahead(draw: Draw) -> bool:
    return draw.world["games"][draw["ticket"]["game_id"]]["date"] >= rules.TODAY


def _live(draw: Draw) -> bool:
    return _ahead(draw) and draw["ticket"]["status"] == "active"


def _order(draw: Draw) -> dict[str, Any]:
    quantity = draw.rng.choices((1, 2, 3, 4, 5, 6, 8, 10, 12), (2, 8, 3, 5, 2, 2, 1, 1, 1))[0]
    return {"section": draw.rng.choices(rules.SECTIONS, (4, 4, 2))[0], "quantity": quantity}


def _recipient(draw: Draw) -> dict[str, Any]:
    fans = [f for f in draw.world["fans"].values() if f["fan_id"] != draw["ticket"]["fan_id"]]
    return {"recipient_email": draw.rng.choice(fans)["email"]}


def _dearer(draw: Draw) -> dict[str, Any]:
    return {
        "section": draw.rng.choice([s for s in rules.SECTIONS if s != draw["ticket"]["section"]])
    }


def _upgrade_motives(draw: Draw) -> tuple[str, ...]:
    """Why a fan moves seats: up for the view or the day, or, asking for cheaper seats (which
    the policy refuses as no upgrade), to sit with friends or spend less; the stairs only from
    the upper deck."""
    game = draw.world["games"][draw["ticket"]["game_id"]]
    prices, old = game["prices"], draw["ticket"]["section"]
    if prices[draw.extra["section"]] <= prices[old]:
        return ("My friends have seats in that section.", "I'd rather spend less on the seats.")
    up = (
        "I want to be closer to the action.",
        "We're celebrating an anniversary.",
        "I got a bonus this month.",
        "It's my son's last game before college.",
    )
    return (*up, "My father can't manage the stairs up top.") if old == "upper" else up


def _transfer_motives(draw: Draw) -> tuple[str, ...]:
    """Why a fan gives tickets away; a single ticket is not "them" nor a family's outing."""
    one: tuple[str, ...] = ("I can't go, but my coworker can.", "It's a gift for my brother.")
    one += ("My neighbour is a bigger fan than me.", "My sister is in town and I'm not.")
    if draw["ticket"]["quantity"] == 1:
        return one
    return (*one, "My roommate wants to take her kids.", "I sold them to a friend.")


def _buy_motives(draw: Draw) -> tuple[str, ...]:
    """Why a fan buys: a group's reasons only for more than one seat."""
    if draw.extra["quantity"] == 1:
        return ("My dad is a lifelong fan.", "It's my first paycheck from the new job.")
    return BUY_MOTIVES


def _coming(draw: Draw) -> dict[str, Any]:
    """A day with games from today on: the callers plan ahead ("I'm free that night")."""
    days = sorted({g["date"] for g in draw.world["games"].values() if g["date"] >= rules.TODAY})
    return {"date": draw.rng.choice(days)}


BUY_MOTIVES = alts(
    "My son has never seen a live game. | It's a work outing. | We're visiting from out of "
    "town. | My dad is a lifelong fan. | I promised my niece for her birthday. | Our book club "
    "wants a night out. | My team at work hit its target. | It's my first paycheck from the new "
    "job."
)


def _per_game(draw: Draw) -> dict[str, Any]:
    return {"expression": f"{draw['season_pass']['price_paid']} / {draw['season_pass']['games']}"}


GOALS = (
    Goal(
        "buy",
        "buy_tickets",
        extra=_order,
        words="buy tickets for {quantity} in the {section} section for {game} | get {section} "
        "seats for a group of {quantity} at {game} | pick up tickets for {quantity}, "
        "{section} level, for {game} | book {section} seats for {quantity} of us at {game}",
        done="I booked {section} seats for {quantity} at {game}: ticket {ticket_id}, "
        "{price_paid} charged.",
        before=("quote_tickets",),
        check=rules.check_purchase,
        price="total",
        motives=BUY_MOTIVES,
        motives_for=_buy_motives,
        weight=4,
    ),
    Goal(
        "refund",
        "refund_ticket",
        words="return {ticket} | get a refund for {ticket} | hand back {ticket} for a refund | "
        "cancel {ticket} and get my money back",
        done="I returned {ticket}: the refund fee is {fee} and {refund} goes back to your card.",
        before=("get_refund_quote",),
        check=rules.refund_quote,
        price="fee",
        price_noun="refund fee",
        motives="I have to travel for work that week. | My friends bailed on me. | I double-booked "
        "that evening. | We're moving away. | My car broke down and money is tight. | The "
        "babysitter cancelled. | I have exams that week.",
    ),
    Goal(
        "transfer",
        "transfer_ticket",
        extra=_recipient,
        words="transfer {ticket} to the account of {recipient_email} | send {ticket} over to "
        "{recipient_email} | move {ticket} to the fan account {recipient_email} | give "
        "{ticket} to the fan account {recipient_email}",
        done="I transferred {ticket} to {recipient_name}'s account.",
        check=rules.check_transfer,
        when=_ahead,
        motives="I can't go, but my coworker can. | It's a gift for my brother. | My roommate "
        "wants to take her kids. | My neighbour is a bigger fan than me. | I sold them to a "
        "friend. | My sister is in town and I'm not.",
        motives_for=_transfer_motives,
    ),
    Goal(
        "upgrade",
        "upgrade_seats",
        extra=_dearer,
        words="move {ticket} up to the {section} section | upgrade {ticket} to {section} seats | "
        "switch {ticket} into the {section} section | put {ticket} in the {section} "
        "section instead",
        done="I moved {ticket} to the {section} section and charged the difference, {difference}.",
        before=("get_game",),
        check=rules.check_upgrade,
        when=_ahead,
        motives="I want to be closer to the action. | We're celebrating an anniversary. | My "
        "father can't manage the stairs up top. | I got a bonus this month. | It's my "
        "son's last game before college. | My friends have seats in that section. | I'd "
        "rather spend less on the seats.",
        motives_for=_upgrade_motives,
    ),
    Goal(
        "renew",
        "renew_season_pass",
        extra=lambda d: {"plan": d.rng.choice(tuple(rules.PASS_GAMES))},
        words="renew {season_pass} on the {plan} plan | sign {season_pass} up for another year, "
        "{plan} plan | extend {season_pass} for next season with the {plan} plan | keep "
        "{season_pass} going next year on the {plan} plan",
        done="I renewed {season_pass} on the {plan} plan until {expires} and charged {charged}.",
        check=rules.renewal_quote,
        motives="We never miss a home game. | My kids love going. | It's our family tradition. | "
        "I just retired and have the time. | My partner and I go every week. | The team "
        "finally looks good. | My grandfather had the same seats.",
    ),
    Goal(
        "score",
        "get_game",
        words="what the final score was in {game} | how {game} ended | by what score {game} "
        "finished | who won {game}, and by how much",
        done="{game} ended {home_score} to {away_score} (home team first).",
        when=lambda d: d["game"]["status"] == "final",
        motives="I missed it because of work. | I have a bet with my cousin. | My radio cut out in "
        "the fourth quarter. | I was on a flight that night. | My son keeps a scrapbook.",
        weight=2,
    ),
    Goal(
        "standing",
        "get_team_record",
        words="what the {team} win-loss record is so far | how many games the {team} have won and "
        "lost this season | how the {team} are doing this season in wins and losses",
        done="The {team} are {wins} wins and {losses} losses after {played} games.",
        report=("wins", "losses"),
        motives="I'm thinking about a season pass. | My office has a pool going. | I just moved "
        "here and want to pick a team. | My daughter's school project is on the league.",
        weight=2,
    ),
    Goal(
        "refund_fee",
        "get_refund_quote",
        words="how much I would get back if I returned {ticket} | what the refund fee on {ticket} "
        "would be | what returning {ticket} would cost me",
        done="Returning {ticket} now would cost a fee of {fee}, refunding {refund}. I have not "
        "returned it.",
        check=rules.refund_quote,
        motives="I might not be able to go. | My schedule is up in the air. | My boss may send me "
        "on a trip. | I'm waiting to hear about a wedding date.",
    ),
    Goal(
        "tipoff",
        "get_ticket",
        words="what the tip-off time and the arena are for {ticket} | when and where I need to be "
        "for {ticket} | which arena and what time {ticket} are for",
        done="For {ticket}: tip-off is at {tipoff}, at {arena}.",
        when=_live,
        motives="I lost the confirmation email. | I need to plan parking. | I'm booking a "
        "babysitter. | My phone wiped my tickets app.",
    ),
    Goal(
        "per_game",
        "calculate",
        ("season_pass",),
        _per_game,
        words="what {season_pass} works out to per game | how much each game of {season_pass} "
        "costs me | what I pay per game with {season_pass}",
        done="{season_pass} works out to {result} dollars a game.",
        before=("get_season_pass",),
        motives="I'm comparing it with single tickets. | My wife asked me. | I'm doing our "
        "family budget. | A friend wants to split it with me.",
        weight=2,
    ),
    Goal(
        "schedule",
        "list_games_on",
        extra=_coming,
        words="which teams play at home on {date} | whose home games are on {date} | which "
        "teams host a game on {date}",
        done="On {date} the home teams are: {hosts}.",
        derive=lambda found: {"hosts": [g["home_team"] for g in found]},
        motives="I'm free that night. | A friend is visiting then. | It's my day off. | I want to "
        "take a client somewhere.",
        weight=2,
    ),
    Goal(
        "accessible",
        "transfer_to_human_agents",
        ("ticket",),
        lambda d: {"summary": f"Accessible seating for ticket {d['ticket']['ticket_id']}"},
        words="get wheelchair-accessible seating for {ticket} | swap {ticket} for accessible "
        "seats | arrange accessible seating with {ticket}",
        done="Accessible seating is arranged by our guest-services team, so I have transferred "
        "you to a human agent about ticket {ticket[ticket_id]}.",
        when=_live,
        motives="My mother uses a wheelchair. | I broke my leg last week. | My friend has a "
        "mobility scooter.",
        weight=2,
    ),
)


class BasketballDomain(StatefulDomain):
    """A league ticket desk: 12 teams, 108 games, 200 fans, ~560 tickets, 90 season passes."""

    name = "basketball"
    version = "1.10"
    invariants = INVARIANTS
    identification = Identification("fan", ("email", "fan_id"))
    toolkit = BasketballTools
    rules = rules
    entities = ENTITIES
    goals = GOALS

    build_world = staticmethod(build_world)
