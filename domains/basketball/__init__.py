"""The basketball domain (stateful, kit v2): a league ticket desk that sells, returns, transfers
and upgrades game tickets, renews season passes and answers questions about games and teams.

Declared: the world (`world.build_world`), the tool graph (`tools`), the policy (`rules`,
rendered into policy.md) and the goals below; the kit composes every task from them.
"""

from __future__ import annotations

import random
from typing import Any

from domains.basketball import rules
from domains.basketball.tools import BasketballTools
from domains.basketball.world import build_world
from toolscale.kit import Draw, Entity, Goal, StatefulDomain
from toolscale.kit.words import day

Record = dict[str, Any]
SEATS = {"upper": "upper-deck", "lower": "lower-bowl", "courtside": "courtside"}


def _game_words(game: Record, world: Record, precise: bool) -> str:
    when = f" on {day(game['date'])}" if precise else ""
    return f"the {game['home_team']} home game against the {game['away_team']}{when}"


def _ticket_words(ticket: Record, world: Record, precise: bool) -> str:
    game = world["games"][ticket["game_id"]]
    seats = f"{SEATS[ticket['section']]} " if precise else ""
    noun = ("tickets", "seats", "ticket order")[int(ticket["ticket_id"][2:]) % 3]
    match = f"{game['home_team']} v {game['away_team']}"
    return f"my {seats}{noun} for the {match} game on {day(game['date'])}"


ENTITIES = (
    Entity("fan", "fans", "fan_id", labels={"phone": "phone number", "fan_id": "fan number"}),
    Entity(
        "team",
        "teams",
        "team_id",
        said=("name",),
        labels={"name": "team name"},
        describe=lambda r, w, p: r["name"],
    ),
    Entity(
        "game",
        "games",
        "game_id",
        owner="team",
        owner_key="home_team_id",
        describe=_game_words,
        alike=lambda r: r["away_team_id"],
        tell="date",
        labels={"date": "game date"},
    ),
    Entity(
        "ticket",
        "tickets",
        "ticket_id",
        owner="fan",
        owner_key="fan_id",
        describe=_ticket_words,
        alike=lambda r: r["game_id"],
        tell="section",
        labels={"section": "seating section", "ticket_id": "ticket number"},
    ),
    Entity(
        "season_pass",
        "season_passes",
        "pass_id",
        owner="fan",
        owner_key="fan_id",
        describe=lambda r, w, p: f"my {r['team']} season pass",
        alike=lambda r: r["team_id"],
        labels={"pass_id": "season pass number"},
        noun="season pass",
    ),
)


def _ahead(draw: Draw) -> bool:
    ticket = draw["ticket"]
    return draw.world["games"][ticket["game_id"]]["date"] >= rules.TODAY


def _live(draw: Draw) -> bool:
    return _ahead(draw) and draw["ticket"]["status"] == "active"


def _order(draw: Draw) -> dict[str, Any]:
    rng = draw.rng
    return {
        "fan_id": draw["fan"]["fan_id"],
        "game_id": draw["game"]["game_id"],
        "section": rng.choices(rules.SECTIONS, weights=(4, 4, 2))[0],
        "quantity": rng.choices((1, 2, 3, 4, 5, 6, 8, 10, 12), weights=(2, 8, 3, 5, 2, 2, 1, 1, 1))[
            0
        ],
    }


def _tid(draw: Draw) -> dict[str, Any]:
    return {"ticket_id": draw["ticket"]["ticket_id"]}


def _recipient(draw: Draw) -> dict[str, Any]:
    owner = draw["ticket"]["fan_id"]
    fans = [f for f in draw.world["fans"].values() if f["fan_id"] != owner]
    return {**_tid(draw), "recipient_email": draw.rng.choice(fans)["email"]}


def _better(draw: Draw) -> dict[str, Any]:
    others = [s for s in rules.SECTIONS if s != draw["ticket"]["section"]]
    return {**_tid(draw), "section": draw.rng.choice(others)}


def _pid(draw: Draw) -> dict[str, Any]:
    return {"pass_id": draw["season_pass"]["pass_id"]}


def _summary(draw: Draw) -> dict[str, Any]:
    return {"summary": f"Accessible seating wanted for ticket {draw['ticket']['ticket_id']}"}


def _night(draw: Draw) -> dict[str, Any]:
    return {"date": draw.rng.choice(list(draw.world["games"].values()))["date"]}


GOALS = (
    Goal(
        "buy",
        "buy_tickets",
        ("fan", "game"),
        _order,
        words=(
            "buy tickets for {quantity} in the {section} section for {game}",
            "get {section} seats for a group of {quantity} at {game}",
            "pick up tickets for {quantity}, {section} level, for {game}",
        ),
        done="I booked {section} seats for {quantity} at {game}: ticket {ticket_id}, "
        "{price_paid} charged.",
        report=("ticket_id", "price_paid"),
        before=(("quote_tickets", lambda d: dict(d.args)),),
        check=rules.check_purchase,
        price="total",
        price_noun="total",
        motives=(
            "My son has never seen a live game.",
            "It's a work outing.",
            "We're visiting from out of town.",
            "My dad is a lifelong fan.",
            "I promised my niece for her birthday.",
        ),
        weight=4,
    ),
    Goal(
        "refund",
        "refund_ticket",
        ("ticket",),
        _tid,
        words=("return {ticket}", "get a refund for {ticket}", "hand back {ticket} for a refund"),
        done="I returned {ticket}: the refund fee is {fee} and {refund} goes back to your card.",
        report=("fee", "refund"),
        before=(("get_refund_quote", _tid),),
        check=rules.refund_quote,
        price="fee",
        price_noun="refund fee",
        motives=(
            "I have to travel for work that week.",
            "My friends bailed on me.",
            "I double-booked that evening.",
            "We're moving away.",
        ),
    ),
    Goal(
        "transfer",
        "transfer_ticket",
        ("ticket",),
        _recipient,
        words=(
            "transfer {ticket} to the account of {recipient_email}",
            "send {ticket} over to {recipient_email}",
            "move {ticket} to my friend's account, {recipient_email}",
        ),
        done="I transferred {ticket} to {recipient_name}'s account.",
        report=("recipient_name",),
        check=rules.check_transfer,
        when=_ahead,
        motives=(
            "I can't go, but my coworker can.",
            "It's a gift for my brother.",
            "My roommate wants to take her kids.",
        ),
    ),
    Goal(
        "upgrade",
        "upgrade_seats",
        ("ticket",),
        _better,
        words=(
            "move {ticket} up to the {section} section",
            "upgrade {ticket} to {section} seats",
            "switch {ticket} into the {section} section",
        ),
        done="I moved {ticket} to the {section} section and charged the difference, {difference}.",
        report=("difference",),
        before=(("get_game", lambda d: {"game_id": d["ticket"]["game_id"]}),),
        check=rules.check_upgrade,
        when=_ahead,
        motives=("I want to be closer to the action.", "We're celebrating an anniversary."),
    ),
    Goal(
        "renew",
        "renew_season_pass",
        ("season_pass",),
        lambda d: {**_pid(d), "plan": d.rng.choice(tuple(rules.PASS_GAMES))},
        words=(
            "renew {season_pass} on the {plan} plan",
            "sign {season_pass} up for another year, {plan} plan",
            "extend {season_pass} for next season with the {plan} plan",
        ),
        done="I renewed {season_pass} on the {plan} plan until {expires} and charged {charged}.",
        report=("charged", "expires"),
        check=rules.renewal_quote,
        motives=("We never miss a home game.", "My kids love going.", "It's our family tradition."),
    ),
    Goal(
        "score",
        "get_game",
        ("game",),
        lambda d: {"game_id": d["game"]["game_id"]},
        words=(
            "what the final score was in {game}",
            "how {game} ended",
            "by what score {game} finished",
        ),
        done="{game} ended {home_score} to {away_score}.",
        report=("home_score", "away_score"),
        when=lambda d: d["game"]["status"] == "final",
        motives=("I missed it because of work.", "I have a bet with my cousin."),
        weight=2,
    ),
    Goal(
        "standing",
        "get_team_record",
        ("team",),
        lambda d: {"team_id": d["team"]["team_id"]},
        words=(
            "what the {team} win-loss record is so far",
            "how many games the {team} have won and lost this season",
        ),
        done="The {team} are {wins} wins and {losses} losses after {played} games.",
        report=("wins", "losses"),
        motives=("I'm thinking about a season pass.", "My office has a pool going."),
        weight=2,
    ),
    Goal(
        "refund_fee",
        "get_refund_quote",
        ("ticket",),
        _tid,
        words=(
            "how much I would get back if I returned {ticket}",
            "what the refund fee on {ticket} would be",
        ),
        done="Returning {ticket} now would cost a fee of {fee}, refunding {refund}. I have not "
        "returned it.",
        report=("fee", "refund"),
        check=rules.refund_quote,
        motives=("I might not be able to go.", "My schedule is up in the air."),
    ),
    Goal(
        "tipoff",
        "get_ticket",
        ("ticket",),
        _tid,
        words=(
            "what the tip-off time and the arena are for {ticket}",
            "when and where I need to be for {ticket}",
        ),
        done="For {ticket}: tip-off is at {tipoff}, at {arena}.",
        report=("tipoff", "arena"),
        when=_live,
        motives=("I lost the confirmation email.", "I need to plan parking."),
    ),
    Goal(
        "per_game",
        "calculate",
        ("season_pass",),
        lambda d: {"expression": f"{d['season_pass']['price_paid']} / {d['season_pass']['games']}"},
        words=(
            "what {season_pass} works out to per game",
            "how much each game of {season_pass} costs me",
        ),
        done="{season_pass} works out to {result} dollars a game.",
        report=("result",),
        before=(("get_season_pass", _pid),),
        motives=("I'm comparing it with single tickets.", "My wife asked me."),
        weight=2,
    ),
    Goal(
        "schedule",
        "list_games_on",
        (),
        _night,
        words=("which teams play at home on {date}", "whose home games are on {date}"),
        done="On {date} the home teams are: {hosts}.",
        report=("hosts",),
        derive=lambda found: {"hosts": [g["home_team"] for g in found]},
        motives=("I'm free that night.", "A friend is visiting then."),
        weight=2,
    ),
    Goal(
        "accessible",
        "transfer_to_human_agents",
        ("ticket",),
        _summary,
        words=(
            "get wheelchair-accessible seating for {ticket}",
            "swap {ticket} for accessible seats",
            "arrange accessible seating with {ticket}",
        ),
        done="Accessible seating is arranged by our guest-services team, so I have transferred "
        "you to a human agent about ticket {ticket[ticket_id]}.",
        report=("ticket.ticket_id",),
        when=_live,
        motives=("My mother uses a wheelchair.", "I broke my leg last week."),
        weight=2,
    ),
)


class BasketballDomain(StatefulDomain):
    """A league ticket desk: 12 teams, ~108 games, 200 fans, ~550 tickets, 90 season passes."""

    name = "basketball"
    version = "1.0"
    toolkit = BasketballTools
    rules = rules
    entities = ENTITIES
    goals = GOALS

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return build_world(rng)
