"""Build a run's basketball league: 12 teams, ~108 home games, 200 fans, ~550 ticket orders and
~90 season passes.

Games run from 24 days before `rules.TODAY` (final, with scores) to five weeks after (scheduled,
a few postponed); some sections are nearly sold out, a quarter of the fans hold two orders for one
game in different sections. The result depends only on the rng handed in.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from faker import Faker

from domains.basketball import rules

CITIES = (
    "Harbor",
    "Summit",
    "Prairie",
    "Canyon",
    "Lakeshore",
    "Ironwood",
    "Bayside",
    "Redrock",
    "Northfield",
    "Eastport",
    "Pinecrest",
    "Riverton",
)
MASCOTS = (
    "Hawks",
    "Comets",
    "Foxes",
    "Rangers",
    "Storm",
    "Titans",
    "Wolves",
    "Pilots",
    "Owls",
    "Bison",
    "Mariners",
    "Blaze",
)
HALLS = ("Arena", "Center", "Fieldhouse", "Coliseum", "Garden")
TIPOFFS = ("12:30", "15:00", "19:00", "19:30", "20:00")
PRICES = {"upper": (28, 66), "lower": (85, 170), "courtside": (320, 680)}
CAPACITY = {"upper": 600, "lower": 240, "courtside": 16}


def _game(rng: random.Random, gid: str, home: dict, away: dict, offset: int) -> dict[str, Any]:
    day = (date.fromisoformat(rules.TODAY) + timedelta(offset)).isoformat()
    tipoff = "19:30" if offset == 0 else rng.choice(TIPOFFS)
    game: dict[str, Any] = {
        "game_id": gid,
        "home_team_id": home["team_id"],
        "away_team_id": away["team_id"],
        "home_team": home["name"],
        "away_team": away["name"],
        "arena": home["arena"],
        "date": day,
        "tipoff": tipoff,
        "prices": {s: float(rng.randrange(*PRICES[s])) for s in rules.SECTIONS},
        "seats_left": {},
    }
    for section, top in CAPACITY.items():
        tight = rng.random() < 0.2
        game["seats_left"][section] = rng.randint(0, 5) if tight else rng.randint(8, top)
    if rules.hours_to({"now": rules.NOW}, game) < 0:
        scores = rng.sample(range(84, 131), 2)
        game.update(status="final", home_score=scores[0], away_score=scores[1])
    else:
        game["status"] = "postponed" if rng.random() < 0.06 else "scheduled"
    return game


def _order(state: dict, rng: random.Random, fan: dict, game: dict, section: str) -> None:
    tid = f"TK{state['next_ticket']}"
    state["next_ticket"] += 1
    quantity = rng.choices(range(1, 7), weights=(4, 8, 3, 4, 1, 1))[0]
    if game["status"] == "final":
        status = "used" if rng.random() < 0.9 else "refunded"
    else:
        status = "refunded" if rng.random() < 0.12 else "active"
    others = [f for f in state["fans"] if f != fan["fan_id"]]
    moved = section != "courtside" and rng.random() < 0.12
    state["tickets"][tid] = {
        "ticket_id": tid,
        "fan_id": fan["fan_id"],
        "game_id": game["game_id"],
        "section": section,
        "quantity": quantity,
        "price_paid": rules.seat_total(fan, game, section, quantity)["total"],
        "status": status,
        "transferred_from": rng.choice(others) if moved else "",
    }


def _season_pass(rng: random.Random, number: int, fan: dict, team: dict) -> dict[str, Any]:
    section = rng.choice(("upper", "lower"))
    plan = rng.choice(tuple(rules.PASS_GAMES))
    status = rng.choices(("active", "expired", "cancelled"), weights=(8, 1, 1))[0]
    ends = rng.randint(5, 200) if status != "expired" else -rng.randint(1, 60)
    per_game = rules.PASS_PER_GAME[section] + rng.randint(-5, 5)
    return {
        "pass_id": f"SP{number}",
        "fan_id": fan["fan_id"],
        "team_id": team["team_id"],
        "team": team["name"],
        "section": section,
        "plan": plan,
        "games": rules.PASS_GAMES[plan],
        "price_paid": float(per_game * rules.PASS_GAMES[plan]),
        "seasons": rng.randint(1, 9),
        "status": status,
        "expires": (date.fromisoformat(rules.TODAY) + timedelta(ends)).isoformat(),
        "balance_due": float(rng.randrange(40, 400, 5)) if rng.random() < 0.12 else 0.0,
    }


def build_world(rng: random.Random) -> dict[str, Any]:
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    state: dict[str, Any] = {
        "now": rules.NOW,
        "teams": {},
        "games": {},
        "fans": {},
        "tickets": {},
        "season_passes": {},
        "next_ticket": rng.randint(20000, 70000),
    }
    for number, city, mascot in zip(
        rng.sample(range(10, 100), 12), CITIES, rng.sample(MASCOTS, 12), strict=True
    ):
        state["teams"][f"T{number}"] = {
            "team_id": f"T{number}",
            "name": f"{city} {mascot}",
            "city": city,
            "arena": f"{city} {rng.choice(HALLS)}",
        }
    teams = list(state["teams"].values())
    numbers = iter(rng.sample(range(1000, 10000), 9 * len(teams)))
    for index, home in enumerate(teams):
        offsets = rng.sample(range(-24, 36), 9)
        if index < 3 and 0 not in offsets:
            offsets[0] = 0  # a few games tonight
        rivals = [t for t in teams if t is not home]
        for offset in offsets:
            gid = f"G{next(numbers)}"
            state["games"][gid] = _game(rng, gid, home, rng.choice(rivals), offset)
    for number in rng.sample(range(1000, 10000), 200):
        first, last = fake.first_name(), fake.last_name()
        fid = f"F{number}"
        state["fans"][fid] = {
            "fan_id": fid,
            "name": f"{first} {last}",
            "email": f"{first[0]}{last}.{number}@hoopsmail.com".lower(),
            "phone": f"312-555-{number:04d}",
            "tier": rng.choices(rules.TIERS, weights=(6, 3, 2))[0],
        }
    games = list(state["games"].values())
    for fan in list(state["fans"].values()):
        favourite = rng.choice(teams)["team_id"]
        home = [g for g in games if g["home_team_id"] == favourite]
        for _ in range(rng.randint(1, 4)):
            game = rng.choice(home if rng.random() < 0.5 else games)
            _order(state, rng, fan, game, rng.choices(rules.SECTIONS, weights=(5, 4, 1))[0])
        if rng.random() < 0.25:  # a second order for the same game
            game = rng.choice(home)
            first, second = rng.sample(rules.SECTIONS, 2)
            _order(state, rng, fan, game, first)
            _order(state, rng, fan, game, second)
    holders = rng.sample(list(state["fans"].values()), 90)
    for number, fan in zip(rng.sample(range(100, 1000), 90), holders, strict=True):
        season_pass = _season_pass(rng, number, fan, rng.choice(teams))
        state["season_passes"][season_pass["pass_id"]] = season_pass
    return state
