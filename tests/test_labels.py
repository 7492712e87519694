"""Labels of real attempts, played in process on real tasks, against values computed by hand:
one orchestration task (math) and one stateful task (railway)."""

from __future__ import annotations

from typing import Any

import pytest

from toolscale.contract import canonical_json, state_hash
from toolscale.labels import group_labels, trace_labels
from toolscale.metrics import trace_metrics
from toolscale.records import Trace
from toolscale.registry import get_domain
from toolscale.rewards import RewardConfig
from toolscale.sandbox.execute import execute, fresh_toolkit
from toolscale.tasks import SampledTask, build_task, with_preference
from toolscale.teachers.base import Draft, close_draft, open_draft, record_call
from toolscale.verify import outcome_problems

DEFAULT = RewardConfig()


def sampled(domain: str, index: int, profile: str) -> SampledTask:
    return with_preference(build_task(get_domain(domain), 0, index, 5), {profile: 1})


def play(item: SampledTask, actions: list[dict[str, Any]], final: str) -> tuple[Draft, bool]:
    """Run `actions` on a fresh state in this process; return the draft and whether it is
    correct (the outcome stage; the other stages hold by construction)."""
    task = item.task
    kit = fresh_toolkit(get_domain(task.domain), canonical_json(task.initial_state))
    draft = open_draft(task, "test", 0)
    for action in actions:
        outcome = execute(kit, action["name"], action["arguments"], 5)
        record_call(draft, task, action["name"], action["arguments"], outcome)
    close_draft(draft, final, state_hash(kit.state))
    return draft, not outcome_problems(task, draft)


def labels(item: SampledTask, draft: Draft, verified: bool, config: RewardConfig = DEFAULT):
    metrics = trace_metrics(item.task, draft)
    return metrics, trace_labels(item.task, draft, metrics, verified, config)


def routes(item: SampledTask) -> dict[str, list[dict[str, Any]]]:
    found = {"gold": item.task.gold_actions}
    for number, route in enumerate(item.alternatives, 1):
        found[f"alternative_{number}"] = [a.as_dict() for a in route]
    return found


def test_math_hurry_by_hand():
    # math seed 0 index 4: gold = calculator x3 (0.1 / 10 ms each); hurry budget = 30 ms.
    item = sampled("math", 4, "hurry")
    assert [a["name"] for a in item.task.gold_actions] == ["calculator"] * 3
    assert item.task.preference.max_latency_ms == 30.0
    draft, ok = play(item, item.task.gold_actions, item.final_message)
    metrics, got = labels(item, draft, ok)
    assert ok and metrics["cost"] == 0.3 and metrics["total_latency_ms"] == 30.0
    assert (metrics["num_tokens"], metrics["repeated_calls"]) == (0, 0)
    assert got["reward_efficiency"] == pytest.approx(-0.03)
    assert (got["solved_quickly"], got["reward_preference"]) == (True, 0.5)
    assert got["reward_total"] == pytest.approx(1.47)
    # alternative_1 = one code_executor call: 0.5 / 100 ms; fewer calls, but over the budget.
    code = routes(item)["alternative_1"]
    draft, ok = play(item, code, item.final_message)
    metrics, got = labels(item, draft, ok)
    assert ok and (metrics["cost"], metrics["total_latency_ms"]) == (0.5, 100.0)
    assert got["reward_efficiency"] == pytest.approx(-0.01)
    assert (got["solved_quickly"], got["reward_preference"]) == (False, 0.1)
    assert got["reward_total"] == pytest.approx(1.09)
    # Cost form on the gold route: -0.01 * 0.3 - 0.01 * 0.030 s = -0.0033.
    draft, ok = play(item, item.task.gold_actions, item.final_message)
    _, got = labels(item, draft, ok, RewardConfig(efficiency="cost"))
    assert got["reward_efficiency"] == pytest.approx(-0.0033)


def test_math_json_confidence_by_hand():
    item = sampled("math", 4, "json_confidence")
    answer = canonical_json({"answer": item.final_message, "confidence": 0.8})
    draft, ok = play(item, item.task.gold_actions, answer)
    _, got = labels(item, draft, ok)
    assert ok and got["preference_compliant"] and got["stated_confidence"] == 0.8
    assert got["reward_total"] == pytest.approx(1 - 0.03 + 0.5)
    # The same route answered in plain text is still correct but ignores the profile.
    draft, ok = play(item, item.task.gold_actions, item.final_message)
    _, got = labels(item, draft, ok)
    assert ok and not got["preference_compliant"]
    assert (got["reward_preference"], got["stated_confidence"]) == (0.0, None)
    assert got["reward_total"] == pytest.approx(0.97)


def test_math_cheap_group_reward_by_hand():
    # P = outcome 1, cost 1. gold 0.3, code_executor 0.5, calculator x4 0.4; all correct:
    # -cost [-0.3, -0.5, -0.4] -> [1, 0, 0.5]; outcome is constant and contributes 0.
    item = sampled("math", 4, "cheap")
    found = routes(item)
    traces = []
    for name in ("gold", "alternative_1", "alternative_3"):
        draft, ok = play(item, found[name], item.final_message)
        metrics, got = labels(item, draft, ok)
        traces.append(as_trace(item, draft, ok, metrics, got))
    assert [t.total_cost for t in traces] == [0.3, 0.5, 0.4]
    scores = [t.reward_group for t in group_labels(item.task, traces)]
    assert scores == pytest.approx([1.0, 0.0, 0.5])


def as_trace(item, draft, verified, metrics, got) -> Trace:
    return Trace(
        id=f"t{len(draft.tool_calls)}",
        task_id=item.task.id,
        domain=item.task.domain,
        teacher="test",
        variant=draft.variant,
        attempt=draft.attempt,
        messages=draft.messages,
        tool_calls=draft.tool_calls,
        final_answer=draft.final_answer,
        final_state_hash=draft.final_state_hash,
        verified=verified,
        failure_stage=None if verified else "outcome",
        failure_reasons=[],
        teacher_prompt_tokens=0,
        teacher_completion_tokens=0,
        teacher_latency_ms=0.0,
        **metrics,
        **got,
    )


def test_railway_avoid_tool_by_hand():
    # railway seed 0 index 3: gold = search_trains, get_fare (free tools); the profile forbids
    # list_customer_bookings, which the gold route does not call.
    item = sampled("railway", 3, "avoid_tool")
    gold = item.task.gold_actions
    assert [a["name"] for a in gold] == ["search_trains", "get_fare"]
    assert item.task.preference.forbidden_tools == ["list_customer_bookings"]
    draft, ok = play(item, gold, item.final_message)
    metrics, got = labels(item, draft, ok)
    assert ok and (metrics["cost"], metrics["total_latency_ms"]) == (0.0, 0.0)
    assert got["reward_efficiency"] == pytest.approx(-0.02)
    assert got["preference_compliant"] and got["reward_total"] == pytest.approx(1.48)
    # The gold route plus a lookup with the forbidden tool (an unknown customer: a tool error),
    # and the same lookup twice: still correct, 4 calls, 1 repeated, not compliant.
    lookup = {"name": "list_customer_bookings", "arguments": {"customer_id": "C00000"}}
    draft, ok = play(item, [*gold, lookup, lookup], item.final_message)
    metrics, got = labels(item, draft, ok)
    assert ok and metrics["failed_calls"] == 2 and metrics["repeated_calls"] == 1
    assert got["preference_violations"] == [
        "called forbidden tool 'list_customer_bookings' (2 times)"
    ]
    assert got["reward_efficiency"] == pytest.approx(-0.04)
    assert (got["solved_quickly"], got["reward_preference"]) == (False, 0.0)
    assert got["reward_total"] == pytest.approx(0.96)


def test_a_wrong_attempt_scores_no_outcome_and_a_slow_preference():
    item = sampled("railway", 3, "none")
    draft, ok = play(item, item.task.gold_actions[:1], "I could not find it.")
    _, got = labels(item, draft, ok)
    assert not ok
    assert (got["reward_outcome"], got["reward_preference"]) == (0.0, 0.1)
    assert got["reward_total"] == pytest.approx(-0.01 + 0.1)


def test_teacher_tokens_are_counted_and_priced():
    item = sampled("railway", 3, "none")
    draft, ok = play(item, item.task.gold_actions, item.final_message)
    draft.teacher_prompt_tokens, draft.teacher_completion_tokens = 1000, 200
    draft.teacher_latency_ms = 1500.0
    metrics = trace_metrics(item.task, draft)
    got = trace_labels(item.task, draft, metrics, ok, DEFAULT, (2.0, 10.0))
    assert (metrics["num_tokens"], metrics["total_latency_ms"]) == (1200, 1500.0)
    # $ (1000 * 2 + 200 * 10) / 1e6 = 0.004; efficiency -0.01 * 2 - 0.0001 * 1200 = -0.14.
    assert got["teacher_cost"] == got["total_cost"] == 0.004
    assert got["reward_efficiency"] == pytest.approx(-0.14)
