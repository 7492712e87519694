"""Task economics: the schedule and tool subset a task draws, its price table in the system
prompt, and the gold route's reference cost and latency under that table."""

from __future__ import annotations

from collections import Counter

import pytest

from toolscale.core.registry import get_domain
from toolscale.economics.prices import BUILTIN, DEFAULT_SCHEDULES, ORCHESTRATOR, Economics
from toolscale.sample.tasks import build_task, with_economics

DOMAINS = ("bank", "knowledge", "math", "railway")


def test_math_gold_route_by_hand_under_the_seed_schedule():
    # math seed 0 index 6: calculator x3, 4 tokens read, 36 written, 4 turns (tests/test_labels).
    # seed: calculator $0.1 / 10 ms; orchestrator $100 / $400 per 1M, 150 ms/turn, 12 ms/token.
    #   cost    = 3 * 0.1 + (4 * 100 + 36 * 400) / 1e6 = 0.3 + 0.0148 = 0.3148
    #   latency = 3 * 10 + 4 * 150 + 36 * 12 = 1062 ms (the same latency model as standard)
    item = with_economics(build_task(get_domain("math"), 0, 6, 5), Economics((BUILTIN["seed"],)))
    task = item.task
    assert [a["name"] for a in task.gold_actions] == ["calculator"] * 3
    assert task.price_schedule == "seed"
    assert (task.prices["calculator"]["fee"], task.prices["code_executor"]["fee"]) == (0.1, 0.5)
    assert task.reference_cost == pytest.approx(0.3148, abs=1e-12)
    assert task.reference_latency_ms == 1062.0


def test_the_price_table_is_in_the_system_prompt():
    task = build_task(get_domain("math"), 0, 3, 5).task  # standard, no provider set-up
    prompt = task.system_prompt
    assert prompt.startswith(get_domain("math").policy.rstrip())
    assert "## Prices for this task" in prompt
    assert "| calculator | $0.00001 per call | 10 ms |" in prompt
    assert (
        "| code_executor | $0.0001 per call + $0.0002 per second of run time "
        "| 300 ms + 0.5 ms per token of output |"
    ) in prompt
    assert "| expert-1 | $1.25 / $10 per 1M input / output tokens" in prompt
    assert (
        "| you (the orchestrator) | $0.1 / $0.4 per 1M tokens read / written "
        "| 150 ms per turn + 12 ms per token written |"
    ) in prompt


@pytest.mark.parametrize("name", DOMAINS)
def test_dropout_never_drops_a_gold_tool_and_removes_the_rest_everywhere(name):
    domain = get_domain(name)
    every = set(domain.toolkit.specs())
    economics = Economics(tuple(BUILTIN[n] for n in DEFAULT_SCHEDULES), tool_dropout=0.6)
    dropped_any = False
    for index in range(10):
        base = build_task(domain, 0, index, 5)
        item = with_economics(base, economics)
        task = item.task
        offered = set(task.tool_names())
        assert {a["name"] for a in task.gold_actions} <= offered <= every
        dropped = every - offered
        dropped_any |= bool(dropped)
        models = set(domain.toolkit.models()) if "ask_expert" in offered else set()
        assert set(task.prices) == offered | models | {ORCHESTRATOR}
        assert all(a.name in offered for _, route in item.other_routes() for a in route)
        for tool in dropped:
            assert f"| {tool} |" not in task.system_prompt
        for tool in offered:
            assert f"| {tool} |" in task.system_prompt
        # The domain's task itself is unchanged, and the draw is reproducible.
        assert task.gold_actions == base.task.gold_actions
        assert task.expected_state_hash == base.task.expected_state_hash
        assert with_economics(base, economics) == item
    assert dropped_any


def test_without_dropout_every_tool_is_offered_and_schedules_are_drawn_per_task():
    economics = Economics(tuple(BUILTIN[n] for n in DEFAULT_SCHEDULES))
    drawn = Counter()
    for name in DOMAINS:
        domain = get_domain(name)
        for index in range(10):
            task = with_economics(build_task(domain, 0, index, 5), economics).task
            assert set(task.tool_names()) == set(domain.toolkit.specs())
            drawn[task.price_schedule] += 1
    assert set(drawn) == set(DEFAULT_SCHEDULES)  # 40 uniform draws over three schedules
