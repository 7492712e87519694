"""The weather domain (stateful, kit v2): a weather service's account desk.

Callers change API plans and buy call packs (quotas, unpaid balances, the sales-only plan), set
up and cancel weather alerts (limits per plan, SMS on paid plans), file readings from their own
stations (calibration, suspension, how far back), and ask about forecasts, observations, usage
and stations. The world is `world.build_world`, the tool graph `tools`, the policy `rules`.
"""

from __future__ import annotations

import random
from typing import Any

from domains.weather import rules
from domains.weather.invariants import INVARIANTS
from domains.weather.tools import WeatherDeskTools
from domains.weather.world import build_world
from toolscale.kit import Draw, Entity, Goal, StatefulDomain
from toolscale.kit.identify import Identification
from toolscale.kit.words import alts

Record = dict[str, Any]


def _town(world: Record, record: Record) -> str:
    return world["locations"][record["location_id"]]["name"]


def _alert_words(sub: Record, world: Record, precise: bool) -> str:
    kind = f"{sub['kind']} " if precise else ""
    return f"my {kind}{('alerts', 'warnings')[len(sub['account_id']) % 2]} for {_town(world, sub)}"


def _station_words(station: Record, world: Record, precise: bool) -> str:
    spot = f"{station['site']} " if precise else ""
    return f"my {spot}station in {_town(world, station)}"


ENTITIES = (
    Entity("account", labels={"email": "email address"}),
    Entity("plan", said=("name",), describe=lambda r, w, p: f"the {r['name']} plan"),
    Entity("location", said=("name",)),
    Entity(
        "subscription",
        owner="account",
        describe=_alert_words,
        alike=lambda r: r["location_id"],
        tell="kind",
        labels={"kind": "alert type"},
        noun="alert",
    ),
    Entity(
        "station",
        owner="account",
        describe=_station_words,
        alike=lambda r: r["location_id"],
        tell="site",
        labels={"site": "station site"},
    ),
)


USES = (
    "farm app",
    "drone business",
    "school project",
    "sailing club website",
    "ski school",
    "delivery fleet",
    "smart-home hub",
    "festival planning",
    "vineyard",
    "research group",
    "roofing company",
    "running club",
)


def _use(draw: Draw) -> dict[str, Any]:
    return {"use": draw.rng.choice(USES)}


def _ids(draw: Draw, *names: str) -> dict[str, Any]:
    entity_key = {"account": "account_id", "plan": "plan_id", "location": "location_id"}
    return {entity_key[n]: draw[n][entity_key[n]] for n in names}


def _alert(draw: Draw) -> dict[str, Any]:
    kind = draw.rng.choice(rules.KINDS)
    channel = draw.rng.choice(rules.CHANNELS)
    return {**_ids(draw, "account", "location"), "kind": kind, "channel": channel}


def _new_alert(draw: Draw) -> bool:
    mine = rules.active_alerts(draw.world, draw["account"]["account_id"])
    return all(s["location_id"] != draw["location"]["location_id"] for s in mine)


def _reading(draw: Draw) -> dict[str, Any]:
    station, rng = draw["station"], draw.rng
    days = [rules.shift(rules.TODAY, -n) for n in (0, 1, 1, 2, 2, 3, 3, 5, 8)]
    day = rng.choice([d for d in days if d not in station["reports"]])
    mean = draw.world["locations"][station["location_id"]]["mean_c"]
    rain = rng.choice((0.0, 0.0, round(rng.uniform(0.5, 25), 1)))
    return {
        "station_id": station["station_id"],
        "date": day,
        "temperature_c": mean + rng.randint(-4, 4),
        "rain_mm": rain,
    }


def _day_ahead(draw: Draw) -> dict[str, Any]:
    return {**_ids(draw, "location"), "date": rules.shift(rules.TODAY, draw.rng.randint(1, 6))}


def _day_back(draw: Draw) -> dict[str, Any]:
    back = draw.rng.randint(1, rules.HISTORY_DAYS)
    return {**_ids(draw, "location"), "date": rules.shift(rules.TODAY, -back)}


def _pack_price(draw: Draw) -> float:
    return rules.plan_of(draw.world, draw["account"])["pack_price"]


# Why an account moves to a dearer plan (MORE) or a cheaper one (LESS).
MORE = alts(
    "Our usage took off last month. | My team needs more calls for a new dashboard.",
    "We're adding a new weather feature. | Our calls doubled this autumn.",
)
LESS = alts("We're cutting costs. | We barely use it these days. | The data work has ended.")


def _plan_motives(draw: Draw) -> tuple[str, ...]:
    """A move up is for more use, a move down to save (never "cutting costs" for a dearer one)."""
    now = rules.plan_of(draw.world, draw["account"])["monthly_fee"]
    return MORE if draw["plan"]["monthly_fee"] > now else LESS


GOALS = (
    Goal(
        "plan",
        "change_plan",
        ("account", "plan"),
        lambda d: _ids(d, "account", "plan"),
        words="move the account for my {use} to {plan} | switch my {use}'s API access to {plan} | "
        "put the {use} account on {plan} | change the plan of my {use} to {plan}",
        extra=_use,
        done="Your account is now on {plan}: {charge_now} is charged for the rest of this month "
        "and the monthly fee becomes {new_monthly_fee}.",
        report=("charge_now",),
        before=(("quote_plan_change", lambda d: _ids(d, "account", "plan")),),
        check=rules.check_plan_change,
        when=lambda d: d["plan"]["plan_id"] != d["account"]["plan_id"],
        price="charge_now",
        price_noun="charge",
        motives=(*MORE, *LESS),
        motives_for=_plan_motives,
        weight=4,
    ),
    Goal(
        "packs",
        "buy_call_packs",
        ("account",),
        lambda d: {**_ids(d, "account"), "packs": d.rng.choice((2, 3, 4))},
        words="buy {packs} call packs for my {use} account | add {packs} packs of calls for my "
        "{use} | top up the API calls of my {use} with {packs} call packs",
        extra=_use,
        done="I added {packs} call packs for {charged}; you now have {calls_left} calls left.",
        report=("charged", "calls_left"),
        before=(("get_usage", lambda d: _ids(d, "account")),),
        check=rules.check_packs,
        price="pack_price",
        price_noun="price per pack",
        motives="We're about to run out before the month ends. | A storm is coming and traffic "
        "spikes. | We need more data than we planned. | We have a busy week ahead.",
    ),
    Goal(
        "alert",
        "subscribe_alert",
        ("account", "location"),
        _alert,
        words="set up {kind} alerts for {location} by {channel} | get {kind} warnings for "
        "{location} sent by {channel} | start {kind} alerts in {location} through "
        "{channel}",
        done="You are subscribed to {kind} alerts for {location} by {channel}: subscription "
        "{subscription_id}.",
        check=rules.check_alert,
        when=_new_alert,
        motives="My parents live there. | I keep bees and they hate the cold. | We run a campsite "
        "there. | I commute through there every day. | Our boat is moored there. | My "
        "greenhouse is out that way.",
        weight=4,
    ),
    Goal(
        "unalert",
        "cancel_alert",
        ("subscription",),
        lambda d: {"subscription_id": d["subscription"]["subscription_id"]},
        words="cancel {subscription} | stop {subscription} | turn off {subscription}",
        done="{subscription} are cancelled.",
        check=rules.check_unsubscribe,
        motives="I moved away. | They wake me up at night. | I get them from the radio anyway. | "
        "My phone buzzes all day. | The season is over. | I only need one kind now. | We "
        "sold the cabin. | There are just too many of them.",
    ),
    Goal(
        "reading",
        "submit_station_report",
        ("station",),
        _reading,
        words="file a reading from {station} for {date}: a high of {temperature_c} degrees and "
        "{rain_mm} mm of rain | report {temperature_c} degrees and {rain_mm} mm of rain "
        "from {station} for {date}",
        done="The reading from {station} for {date} is recorded.",
        check=rules.check_report,
        motives="The app didn't upload it. | My internet was down that day. | I read the gauge by "
        "hand. | The logger's battery died. | The sync failed overnight. | I was away and "
        "my son read it for me.",
    ),
    Goal(
        "forecast",
        "get_forecast",
        ("location",),
        _day_ahead,
        words="what the high and low in {location} will be on {date} | how warm and how cold it "
        "gets in {location} on {date} | what temperatures are forecast for {location} on "
        "{date}",
        done="In {location} on {date} the forecast is a high of {high_c} and a low of {low_c} "
        "degrees, {sky}.",
        report=("high_c", "low_c"),
        motives="We have a wedding outdoors. | I'm planning a hike. | We're pouring concrete. | I "
        "need to know whether to cover my plants. | We're driving up for the weekend.",
    ),
    Goal(
        "observed",
        "get_observation",
        ("location",),
        _day_back,
        words="how much rain fell in {location} on {date} and what the sky was like | what the "
        "weather in {location} was on {date}, rain included",
        done="On {date} {location} had {rain_mm} mm of rain and was {sky}.",
        report=("rain_mm", "sky"),
        motives="I'm filing an insurance claim. | My crops flooded. | It's for a school report. | "
        "The match was called off and I want to know why.",
        weight=2,
    ),
    Goal(
        "usage",
        "get_usage",
        ("account",),
        lambda d: _ids(d, "account"),
        words="how many API calls my {use} has left this month | how much of the monthly call "
        "quota of my {use} is left | how many calls remain on the account for my {use} | "
        "what is left of this month's API calls for my {use}",
        extra=_use,
        done="You have {calls_left} calls left of {quota} this month.",
        report=("calls_left",),
        motives="Things are getting busy. | I got a usage warning email. | I'm budgeting. | We "
        "had a traffic spike yesterday. | My developer asked me to check. | The month is "
        "nearly over. | Our dashboard shows errors. | I want to avoid overage.",
    ),
    Goal(
        "station",
        "get_station",
        ("station",),
        lambda d: {"station_id": d["station"]["station_id"]},
        words="when {station} last reported and when its calibration runs out | when {station} "
        "last sent a reading and when it needs calibrating | on what day {station} last "
        "reported, and until when its calibration holds",
        done="{station} last reported on {last_report}; its calibration runs out on "
        "{calibration_due}.",
        report=("last_report", "calibration_due"),
        motives="I think it stopped working. | I'm going on holiday. | It's been windy. | The "
        "display looks frozen. | A neighbour asked about it. | I moved it last week. | "
        "The readings look odd. | I want to keep my data tidy.",
    ),
    Goal(
        "cost",
        "calculate",
        ("account",),
        lambda d: {"expression": f"{_pack_price(d)} * {d.extra['packs']}"},
        words="what {packs} extra call packs would cost my {use} | how much {packs} call packs "
        "come to for my {use}'s plan",
        done="{packs} call packs come to {result} dollars on your plan.",
        extra=lambda d: {"packs": d.rng.randint(2, 5), **_use(d)},
        before=(("get_usage", lambda d: _ids(d, "account")),),
        when=lambda d: _pack_price(d) > 0,
        motives="I'm comparing it with upgrading. | My manager wants a number. | We're near the "
        "limit. | I'm writing next year's budget.",
        weight=2,
    ),
    Goal(
        "wrong",
        "transfer_to_human_agents",
        ("location",),
        lambda d: {"summary": f"Forecast quality complaint for {d['location']['location_id']}"},
        words="complain that the forecast for {location} on {date} was badly wrong | report "
        "that you got the weather in {location} on {date} way off | tell someone the "
        "{location} forecast for {date} missed completely",
        extra=lambda d: {"date": rules.shift(rules.TODAY, -d.rng.randint(1, 10))},
        done="Forecast quality goes to our meteorologists, so I have transferred you to a human "
        "agent about {location} ({location[location_id]}).",
        motives="It said sun and we got hail. | We cancelled an event for nothing. | Our harvest "
        "got soaked. | The frost warning never came. | My roof leaked.",
        weight=2,
    ),
    Goal(
        "dispute",
        "transfer_to_human_agents",
        ("account",),
        lambda d: {"summary": f"Balance dispute on account {d['account']['account_id']}"},
        words="dispute the unpaid balance on the account of my {use} | question the amount you "
        "say my {use} owes | challenge the balance of my {use}",
        extra=_use,
        done="Billing questions go to our billing team, so I have transferred you to a human "
        "agent about the balance on your account.",
        when=lambda d: d["account"]["balance_due"] > 0,
        motives="I paid that last week. | I never agreed to that charge. | My card was charged "
        "already. | We cancelled before the renewal.",
        weight=2,
    ),
)


class WeatherDomain(StatefulDomain):
    """A weather service's account desk: 36 locations, 150 accounts, ~320 alerts, ~110 stations."""

    name = "weather"
    version = "1.8"
    invariants = INVARIANTS
    identification = Identification("account", ("email", "account_id"))
    toolkit = WeatherDeskTools
    rules = rules
    entities = ENTITIES
    goals = GOALS

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return build_world(rng)
