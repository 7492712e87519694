"""Build a run's basketball league: 12 teams, 108 home games, 200 fans, ~560 ticket orders and
90 season passes.

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

CITIES = "Harbor Summit Prairie Canyon Lakeshore Ironwood Bayside Redrock Northfield Eastport"
CITIES += " Pinecrest Riverton"
MASCOTS = "Hawks Comets Foxes Rangers Storm Titans Wolves Pilots Owls Bison Mariners Blaze"
HALLS = ("Arena", "Center", "Fieldhouse", "Coliseum", "Garden")
TIPOFFS = ("12:30", "15:00", "19:00", "19:30", "20:00")
PRICES = {"upper": (28, 66), "lower": (85, 170), "courtside": (320, 680)}
CAPACITY = {"upper": 600, "lower": 240, "courtside": 16}


def ticket(tid: str, fan_id: str, game_id: str, section: str, quantity: int, paid: float) -> dict:
    """A new, active ticket order."""
    made = {"ticket_id": tid, "fan_id": fan_id, "game_id": game_id, "section": section}
    return {**made, "quantity": quantity, "price_paid": paid, "status": "active",
            "transferred_from": ""}  # fmt: skip


def _game(rng: random.Random, gid: str, home: dict, away: dict, offset: int) -> dict[str, Any]:
    day = (date.fromisoformat(rules.TODAY) + timedelta(offset)).isoformat()
    game: dict[str, Any] = {
        "game_id": gid,
        "home_team_id": home["team_id"],
        "away_team_id": away["team_id"],
        "home_team": home["name"],
        "away_team": away["name"],
        "arena": home["arena"],
        "date": day,
        "tipoff": "19:30" if offset == 0 else rng.choice(TIPOFFS),
        "prices": {s: float(rng.randrange(*PRICES[s])) for s in rules.SECTIONS},
        "seats_left": {
            s: rng.randint(0, 5) if rng.random() < 0.2 else rng.randint(8, top)
            for s, top in CAPACITY.items()
        },
    }
    if rules.hours_to({"now": rules.NOW}, game) < 0:
        home_score, away_score = rng.sample(range(84, 131), 2)
        game.update(status="final", home_score=home_score, away_score=away_score)
    else:
        game["status"] = "postponed" if rng.random() < 0.06 else "scheduled"
    return game


def _order(state: dict, rng: random.Random, fan: dict, game: dict, section: str) -> None:
    if section == "courtside" and fan["tier"] not in rules.COURTSIDE_TIERS:
        section = "lower"  # courtside is for members (`invariants`): no standard fan holds it
    tid = f"TK{state['next_ticket']}"
    state["next_ticket"] += 1
    quantity = rng.choices(range(1, 7), weights=(4, 8, 3, 4, 1, 1))[0]
    paid = rules.seat_total(fan, game, section, quantity)["total"]
    made = ticket(tid, fan["fan_id"], game["game_id"], section, quantity, paid)
    if game["status"] == "final":
        made["status"] = "used" if rng.random() < 0.9 else "refunded"
    elif rng.random() < 0.12:
        made["status"] = "refunded"
    if section != "courtside" and rng.random() < 0.12:
        made["transferred_from"] = rng.choice([f for f in state["fans"] if f != fan["fan_id"]])
    state["tickets"][tid] = made


def _season_pass(rng: random.Random, number: int, fan: dict, team: dict) -> dict[str, Any]:
    section, plan = rng.choice(("upper", "lower")), rng.choice(tuple(rules.PASS_GAMES))
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
    state: dict[str, Any] = {"now": rules.NOW, "teams": {}, "games": {}, "fans": {}}
    state.update(tickets={}, season_passes={}, next_ticket=rng.randint(20000, 70000))
    names = zip(CITIES.split(), rng.sample(MASCOTS.split(), 12), strict=True)
    for number, (city, mascot) in zip(rng.sample(range(10, 100), 12), names, strict=True):
        arena = f"{city} {rng.choice(HALLS)}"
        team = {"team_id": f"T{number}", "name": f"{city} {mascot}", "city": city, "arena": arena}
        state["teams"][team["team_id"]] = team
    teams = list(state["teams"].values())
    numbers = iter(rng.sample(range(1000, 10000), 9 * len(teams)))
    busy: set[tuple[str, int]] = set()  # (team, day): a team plays at most one game a day
    for index, home in enumerate(teams):
        offsets = rng.sample([d for d in range(-24, 36) if (home["team_id"], d) not in busy], 9)
        if index < 3 and 0 not in offsets and (home["team_id"], 0) not in busy:
            offsets[0] = 0  # a few games tonight
        for offset in offsets:
            free = [t for t in teams if t is not home and (t["team_id"], offset) not in busy]
            away = rng.choice(free)
            busy.update({(home["team_id"], offset), (away["team_id"], offset)})
            gid = f"G{next(numbers)}"
            state["games"][gid] = _game(rng, gid, home, away, offset)
    for number in rng.sample(range(1000, 10000), 200):
        first, last = fake.first_name(), fake.last_name()
        email = f"{first[0]}{last}.{number}@hoopsmail.com".lower()
        tier = rng.choices(rules.TIERS, weights=(6, 3, 2))[0]
        fan = {"fan_id": f"F{number}", "name": f"{first} {last}", "email": email, "tier": tier}
        state["fans"][fan["fan_id"]] = {**fan, "phone": f"312-555-{number:04d}"}
    games = list(state["games"].values())
    for fan in list(state["fans"].values()):
        favourite = rng.choice(teams)["team_id"]  # once per fan: its games are the fan's home games
        home = [g for g in games if g["home_team_id"] == favourite]
        for _ in range(rng.randint(1, 4)):
            game = rng.choice(home if rng.random() < 0.5 else games)
            _order(state, rng, fan, game, rng.choices(rules.SECTIONS, weights=(5, 4, 1))[0])
        if rng.random() < 0.25:  # a second order for the same game
            game = rng.choice(home)
            for section in rng.sample(rules.SECTIONS, 2):
                _order(state, rng, fan, game, section)
    holders = rng.sample(list(state["fans"].values()), 90)
    for number, fan in zip(rng.sample(range(100, 1000), 90), holders, strict=True):
        season_pass = _season_pass(rng, number, fan, rng.choice(teams))
        state["season_passes"][season_pass["pass_id"]] = season_pass
    return state
