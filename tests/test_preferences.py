"""Preference profiles: sampling, attachment to tasks, and the constraint checks."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import pytest

from toolscale.core.contract import ToolKind
from toolscale.core.errors import ConfigError
from toolscale.core.preference import Preference, PreferenceVector
from toolscale.core.registry import get_domain
from toolscale.economics.preferences import (
    DEFAULT_SPREAD,
    JSON_INSTRUCTION,
    NO_PREFERENCE,
    PROFILES,
    SAYINGS,
    answer_confidence,
    answer_text,
    parse_spread,
    sample_preference,
    violations,
    within_budget,
)
from toolscale.sample.tasks import build_task, with_preference

KNOWLEDGE_TOOLS = ["search", "read_document", "calculator", "ask_expert"]
KNOWLEDGE_GOLD = [
    {"name": "search", "arguments": {"query": "a"}},
    {"name": "search", "arguments": {"query": "b"}},
    {"name": "calculator", "arguments": {"expression": "1+1"}},
]


# The gold route's (reference_latency_ms, reference_cost), as the task carries them.
BUDGET = (1200.0, 0.0101)


def draw(
    spread: dict[str, float], seed: int = 0, offered: list[str] = KNOWLEDGE_TOOLS
) -> Preference:
    return sample_preference(
        spread, random.Random(seed), "knowledge", offered, KNOWLEDGE_GOLD, [], BUDGET
    )


def test_parse_spread():
    assert parse_spread("hurry=2, none") == {"hurry": 2.0, "none": 1.0}
    assert parse_spread("all") == DEFAULT_SPREAD
    assert set(DEFAULT_SPREAD) == set(PROFILES)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fast=1", "unknown profile 'fast'"),
        ("hurry=x", "not a number"),
        ("hurry=-1", "must be >= 0"),
        ("hurry=0,none=0", "needs a positive weight"),
    ],
)
def test_bad_spread_is_a_config_error(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_spread(text)


def test_hurry_and_cheap_budgets_are_the_gold_routes():
    # The budget is the reference (latency 1200 ms, cost $0.0101); the stressed weight is 1 and
    # the other one keeps the base weight 0.2.
    hurry = draw({"hurry": 1})
    assert (hurry.max_latency_ms, hurry.max_cost) == (1200.0, None)
    assert (hurry.vector.outcome, hurry.vector.latency, hurry.vector.cost) == (1.0, 1.0, 0.2)
    cheap = draw({"cheap": 1})
    assert (cheap.max_cost, cheap.max_latency_ms) == (0.0101, None)
    assert (cheap.vector.outcome, cheap.vector.cost, cheap.vector.latency) == (1.0, 1.0, 0.2)


@pytest.mark.parametrize("profile", ["none", "avoid_tool", "json_confidence"])
def test_every_other_profile_keeps_the_base_cost_and_latency_weights(profile):
    vector = draw({profile: 1}).vector
    assert (vector.outcome, vector.cost, vector.latency) == (1.0, 0.2, 0.2)


def test_task_budgets_are_its_reference_cost_and_latency():
    base = build_task(get_domain("math"), 0, 4, 5)
    assert base.task.reference_cost > 0 and base.task.reference_latency_ms > 0
    hurry = with_preference(base, {"hurry": 1}).task.preference
    cheap = with_preference(base, {"cheap": 1}).task.preference
    assert hurry.max_latency_ms == base.task.reference_latency_ms
    assert cheap.max_cost == base.task.reference_cost


def test_spread_is_followed():
    drawn = Counter(draw({"hurry": 3, "json_confidence": 1}, seed).profile for seed in range(400))
    assert set(drawn) == {"hurry", "json_confidence"}
    assert 0.65 < drawn["hurry"] / 400 < 0.85  # expected 0.75


def test_avoided_tool_is_off_the_gold_route_never_a_write_and_prefers_detour_tools():
    for index in range(10):
        item = with_preference(build_task(get_domain("bank"), 0, index, 5), {"avoid_tool": 1})
        specs = get_domain("bank").toolkit.specs()
        (tool,) = item.task.preference.forbidden_tools
        assert tool not in {a["name"] for a in item.task.gold_actions}
        assert specs[tool].kind is not ToolKind.WRITE
        assert item.task.preference.vector.tools == {tool: -1.0}
        said = item.task.preference.instruction  # said as what the tool does, never its name
        assert tool not in said and tool.replace("_", " ") not in said, said
    # A task with routes may forbid a tool of its gold route (one another route does without):
    # always one of them when it can, so the best route is often ruled out.
    for index in range(5):
        item = with_preference(build_task(get_domain("math"), 0, index, 5), {"avoid_tool": 1})
        (tool,) = item.task.preference.forbidden_tools
        gold = {a["name"] for a in item.task.gold_actions}
        routes = [gold, *({a.name for a in r.actions} for r in item.routes if not r.detour)]
        spared = {t for r in routes for t in r if any(t not in q for q in routes)}
        if spared & gold:
            assert tool in spared & gold, (index, tool, gold)
        elif spared:
            assert tool in spared
        else:  # every route asks an expert (a fact problem): a tool off the gold route, as before
            assert tool not in gold


def test_with_preference_keeps_the_domain_task_and_appends_the_instruction():
    base = build_task(get_domain("math"), 0, 4, 5)
    item = with_preference(base, {"json_confidence": 1})
    said = item.task.preference.instruction
    assert said in SAYINGS["json_confidence"]
    assert item.task.instruction == f"{base.task.instruction} {said}"
    assert item.task.preference.answer_format == "json_confidence"
    assert item.task.gold_actions == base.task.gold_actions
    assert item.task.expected_state_hash == base.task.expected_state_hash
    assert item.task.id != base.task.id
    assert with_preference(base, {"json_confidence": 1}) == item  # deterministic
    # "none" changes nothing, the id included.
    assert with_preference(base, {"none": 1}).task == base.task
    assert base.task.preference == NO_PREFERENCE


def test_task_row_round_trip_carries_the_profile():
    task = with_preference(build_task(get_domain("math"), 0, 4, 5), {"hurry": 1}).task
    row = task.to_row()
    assert row["preference_profile"] == "hurry"
    assert type(task).from_row(row) == task


def test_only_an_offered_tool_is_forbidden():
    # Gold uses search and calculator: of the offered tools only read_document is avoidable.
    for seed in range(10):
        offered = ["search", "read_document", "calculator"]
        assert draw({"avoid_tool": 1}, seed, offered).forbidden_tools == ["read_document"]
    # Nothing avoidable offered: no constraint at all (the profile falls back to none).
    assert draw({"avoid_tool": 1}, 0, ["search", "calculator"]) == NO_PREFERENCE


def test_a_forbidden_tool_used_is_a_violation():
    profile = draw({"avoid_tool": 1})
    tool = profile.forbidden_tools[0]
    assert violations(profile, {"search": 2}, "x") == []
    assert violations(profile, {tool: 2, "search": 1}, "x") == [
        f"called forbidden tool {tool!r} (2 times)"
    ]


@pytest.mark.parametrize(
    ("final", "problems"),
    [
        ('{"answer": "35", "confidence": 0.9}', 0),
        ('{"answer": "35", "confidence": 1}', 0),
        ("The answer is 35.", 2),
        ('{"answer": "35"}', 1),
        ('{"answer": "35", "confidence": 1.5}', 1),
        ('{"answer": "35", "confidence": true}', 1),
        ('{"answer": 35, "confidence": 0.5}', 1),
        ('["35", 0.9]', 2),
    ],
)
def test_json_confidence_format(final, problems):
    profile = draw({"json_confidence": 1})
    assert len(violations(profile, {}, final)) == problems


def test_answer_text_and_confidence():
    assert answer_text('{"answer": "It is 35.", "confidence": 0.9}') == "It is 35."
    assert answer_text('{"answer": 35, "confidence": 0.9}') == "35"
    assert answer_text("It is 35.") == "It is 35."
    assert answer_confidence('{"answer": "x", "confidence": 0.25}') == 0.25
    assert answer_confidence("0.25") is None


def test_within_budget():
    hurry = Preference(
        profile="hurry", instruction="", vector=PreferenceVector(), max_latency_ms=1010.0
    )
    assert within_budget(hurry, 3, 3, 1010.0, 99.0)
    # hurry is judged on modelled latency, not calls: a call beyond gold but within the time is
    # quick, an expert with fewer calls but slower is not.
    assert within_budget(hurry, 4, 3, 1010.0, 0.0)
    assert not within_budget(hurry, 1, 3, 2000.0, 0.0)
    cheap = Preference(profile="cheap", instruction="", vector=PreferenceVector(), max_cost=0.03)
    assert within_budget(cheap, 5, 2, 99999.0, 0.03)  # cheap is judged on dollars
    assert not within_budget(cheap, 1, 2, 10.0, 0.047)
    # Without a budget: no more calls than gold.
    assert within_budget(NO_PREFERENCE, 1, 3, 2000.0, 0.0)
    assert not within_budget(NO_PREFERENCE, 4, 3, 10.0, 0.0)


def test_over_twice_the_budget_breaks_the_profile():
    hurry = Preference(
        profile="hurry", instruction="", vector=PreferenceVector(), max_latency_ms=1200.0
    )
    assert violations(hurry, {}, "x", 2400.0, 9.0) == []  # slow, but within 2x: compliant
    assert violations(hurry, {}, "x", 2500.0, 0.0) == [
        "took 2500 ms, over 2x the 1200 ms budget of a user in a hurry"
    ]
    assert violations(hurry, {}, "x") == []  # no totals given: the budget is not checked
    cheap = Preference(profile="cheap", instruction="", vector=PreferenceVector(), max_cost=0.01)
    assert violations(cheap, {}, "x", 1e9, 0.02) == []
    assert violations(cheap, {}, "x", 0.0, 0.047) == [
        "cost $0.047, over 2x the $0.01 budget of a user who asked for cheap"
    ]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--profiles", "fast=1", "unknown profile 'fast'"),
        ("--reward-weights", "w_o=x", "w_o must be a number"),
        ("--reward-options", "efficiency=speed", "efficiency must be one of"),
    ],
)
def test_cli_rejects_bad_profile_and_reward_options(tmp_path, option, value, message):
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "toolscale", "generate", "--out", str(out), option, value],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


def test_every_profile_is_said_in_several_ways_and_json_ones_name_both_fields():
    assert all(len(set(sayings)) >= 4 for sayings in SAYINGS.values())
    assert JSON_INSTRUCTION in SAYINGS["json_confidence"]
    for said in SAYINGS["json_confidence"]:
        assert '"answer"' in said and '"confidence"' in said and "1" in said


def test_a_tool_to_avoid_is_said_as_what_it_does():
    from toolscale.economics.preferences import avoid_saying

    rng = random.Random(0)
    said = {avoid_saying(rng, "get_fee_quote") for _ in range(40)}
    assert len(said) == 4 and all("the fee quote" in s for s in said)
    assert all("get" not in s.split() for s in said)
    assert avoid_saying(rng, "search_trains").count("the trains") == 1
    # Never the name with spaces: a verb that is not a look-up becomes its noun, the caller's own
    # records are "my", a "by ..." tail is dropped.
    assert "the quote for the stay" in avoid_saying(rng, "quote_stay")
    assert "the tracking of the shipment" in avoid_saying(rng, "track_shipment")
    assert "my season passes" in avoid_saying(rng, "list_fan_season_passes")
    assert "my customer record" in avoid_saying(rng, "find_customer_by_email")
    assert "my account details" in avoid_saying(rng, "get_account_details")
    said = avoid_saying(random.Random(0), "list_games_on")  # a trailing "on" is dropped
    assert said == "I'd rather you didn't look at the games."
    assert avoid_saying(rng, "code_executor") in (
        "Don't run any code.",
        "Please don't write or run any programs.",
    )
