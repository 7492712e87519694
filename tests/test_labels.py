"""Labels of real attempts, played in process on real tasks, against values computed by hand:
one orchestration task (math) and one stateful task (railway)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from toolscale.core.contract import canonical_json, state_hash
from toolscale.core.records import Trace
from toolscale.core.registry import get_domain
from toolscale.judge.labels import group_labels, trace_labels
from toolscale.judge.metrics import trace_metrics
from toolscale.judge.rewards import RewardConfig
from toolscale.judge.verify import outcome_problems
from toolscale.play.transcript import Transcript, close_draft, open_draft, record_call
from toolscale.sample.tasks import SampledTask, build_task, with_preference
from toolscale.sandbox.execute import execute, fresh_toolkit

DEFAULT = RewardConfig()


def sampled(domain: str, index: int, profile: str) -> SampledTask:
    return with_preference(build_task(get_domain(domain), 0, index, 5), {profile: 1})


def play(item: SampledTask, actions: list[dict[str, Any]], final: str) -> tuple[Transcript, bool]:
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


def labels(item: SampledTask, draft: Transcript, verified: bool, config: RewardConfig = DEFAULT):
    metrics = trace_metrics(item.task, draft)
    return metrics, trace_labels(item.task, draft, metrics, verified, config)


def routes(item: SampledTask) -> dict[str, list[dict[str, Any]]]:
    """The gold route and every other route of the task, by the name the reference teacher gives
    its attempt."""
    found = {"gold": item.task.gold_actions}
    for name, route in item.other_routes():
        found[name] = [a.as_dict() for a in route]
    return found


# Prices of the `standard` schedule these tasks are built with: calculator $0.00001 / 10 ms;
# code_executor $0.0001 + $0.0002 per second, 300 ms + 0.5 ms per output token; a READ tool
# $0.0002, 120 ms + 0.5 ms per output token; the orchestrator $0.10 / $0.40 per 1M tokens read /
# written, 150 ms per turn + 12 ms per token written. Tokens are ceil(characters / 4).
#
# math seed 0 index 6 (a fuel-cost word problem), gold = calculator x3 on "180 * 1.6" (9 chars),
# "288 / 100 * 10.5" (16) and "30.24 * 1.25" (12), results "288", "30.24", "37.8", final
# "The answer is $37.80." (21 chars). A call is written as its name (calculator, 10 chars) plus
# its JSON arguments {"expression":"..."} (17 chars + the expression):
#   written = ceil(36/4) + ceil(43/4) + ceil(39/4) + ceil(21/4) = 9 + 11 + 10 + 6 = 36
#   read    = 1 + 2 + 1 = 4; turns = 4
#   cost    = 3 * 0.00001 + (4 * 0.10 + 36 * 0.40) / 1e6 = 0.00003 + 0.0000148 = 0.0000448
#   latency = 3 * 10 + 4 * 150 + 36 * 12 = 30 + 600 + 432 = 1062 ms
MATH_GOLD_COST, MATH_GOLD_LATENCY = 0.0000448, 1062.0
# The code_executor route = one call printing "37.8": its code is 5 lines of 22 + 32 + 20 + 23 +
# 55 = 152 chars and 4 newlines written as \n, {"code":"..."} adds 11: 171 chars, plus the name
# (13): ceil(184/4) = 46 tokens written, + 6 for the final message; 1 token read; 2 turns.
#   call    = 0.0001 + 0.0002 * 0.3005 s = 0.0001601, 300 + 0.5 * 1 = 300.5 ms
#   total   = 0.0001601 + (1 * 0.10 + 52 * 0.40) / 1e6 = 0.000181;
#             300.5 + 2 * 150 + 52 * 12 = 1224.5 ms
MATH_CODE_COST, MATH_CODE_LATENCY = 0.000181, 1224.5


def test_math_hurry_by_hand():
    item = sampled("math", 6, "hurry")
    assert [a["name"] for a in item.task.gold_actions] == ["calculator"] * 3
    assert item.task.price_schedule == "standard"
    assert item.task.reference_cost == pytest.approx(MATH_GOLD_COST, abs=1e-12)
    assert item.task.preference.max_latency_ms == item.task.reference_latency_ms == 1062.0
    draft, ok = play(item, item.task.gold_actions, item.final_message)
    metrics, got = labels(item, draft, ok)
    assert ok and metrics["cost"] == pytest.approx(0.00003, abs=1e-12)
    assert metrics["latency_ms"] == 30.0
    assert (metrics["orchestrator_input_tokens"], metrics["orchestrator_output_tokens"]) == (4, 36)
    assert (metrics["num_tokens"], metrics["repeated_calls"]) == (40, 0)
    assert metrics["orchestrator_cost"] == pytest.approx(0.0000148, abs=1e-12)
    assert metrics["total_cost"] == pytest.approx(MATH_GOLD_COST, abs=1e-12)
    assert metrics["total_latency_ms"] == MATH_GOLD_LATENCY
    # The gold route is the reference: -0.08 * 1 - 0.08 * 1.
    assert got["reward_efficiency"] == pytest.approx(-0.16)
    assert (got["solved_quickly"], got["reward_preference"]) == (True, 0.5)
    assert got["reward_total"] == pytest.approx(1 - 0.16 + 0.5)
    # The code_executor route: fewer calls, but over the 1062 ms budget (within 2x: compliant).
    code = routes(item)["code_executor"]
    draft, ok = play(item, code, item.final_message)
    metrics, got = labels(item, draft, ok)
    assert ok and metrics["cost"] == pytest.approx(0.0001601, abs=1e-12)
    assert metrics["latency_ms"] == 300.5
    assert metrics["total_cost"] == pytest.approx(MATH_CODE_COST, abs=1e-12)
    assert metrics["total_latency_ms"] == MATH_CODE_LATENCY
    efficiency = -0.08 * (0.000181 / 0.0000448) - 0.08 * (1224.5 / 1062)  # about -0.4155
    assert got["reward_efficiency"] == pytest.approx(efficiency)
    assert got["preference_compliant"]
    assert (got["solved_quickly"], got["reward_preference"]) == (False, 0.1)
    assert got["reward_total"] == pytest.approx(1 + efficiency + 0.1)
    # Tokens form on the gold route: -0.01 * 3 calls - 0.0001 * 40 tokens = -0.034.
    draft, ok = play(item, item.task.gold_actions, item.final_message)
    _, got = labels(item, draft, ok, RewardConfig(efficiency="tokens"))
    assert got["reward_efficiency"] == pytest.approx(-0.034)


def test_math_json_confidence_by_hand():
    # {"answer":"The answer is $37.80.","confidence":1.0} is 11 + 21 + 19 = 51 chars: 13 tokens
    # written instead of the plain answer's 6, so 43 in all. The reference teacher answers the
    # gold route so under this profile, and that route is the task's reference:
    #   cost = 0.00003 + (4 * 0.10 + 43 * 0.40) / 1e6 = 0.0000476; latency 30 + 600 + 516 = 1146.
    item = sampled("math", 6, "json_confidence")
    assert item.task.reference_cost == pytest.approx(0.0000476, abs=1e-12)
    assert item.task.reference_latency_ms == 1146.0
    answer = canonical_json({"answer": item.final_message, "confidence": 0.8})  # also 51 chars
    draft, ok = play(item, item.task.gold_actions, answer)
    metrics, got = labels(item, draft, ok)
    assert ok and got["preference_compliant"] and got["stated_confidence"] == 0.8
    assert metrics["total_cost"] == pytest.approx(0.0000476, abs=1e-12)
    assert metrics["total_latency_ms"] == 1146.0
    assert got["reward_efficiency"] == pytest.approx(-0.16)
    assert got["reward_total"] == pytest.approx(1 - 0.16 + 0.5)
    # The same route answered in plain text (0.0000448, 1062 ms) is correct and a little cheaper,
    # but ignores the profile: scored as a wrong answer (outcome 0, preference 0), so below the
    # compliant attempt's 1.34.
    draft, ok = play(item, item.task.gold_actions, item.final_message)
    _, got = labels(item, draft, ok)
    assert ok and not got["preference_compliant"]
    assert (got["reward_preference"], got["stated_confidence"]) == (0.0, None)
    efficiency = -0.08 * (0.0000448 / 0.0000476) - 0.08 * (1062 / 1146)  # about -0.1494
    assert got["reward_efficiency"] == pytest.approx(efficiency)
    assert got["reward_outcome"] == 0.0
    assert got["reward_total"] == pytest.approx(0 + efficiency + 0.0)


def test_math_cheap_group_reward_by_hand():
    # P = outcome 1, cost 1, latency 0.2; all three routes correct, but the code_executor route
    # ($0.000181) costs over twice the gold route's $0.0000448, the cheap user's budget: it is
    # scored as incorrect, 0, and outcome [1, 0, 1] gives the other two 1 each.
    # calculator_repeat = the gold route with its last call repeated: 4 calls, read
    # 4 + 1 = 5, written 9 + 11 + 10 + 10 + 6 = 46, 5 turns:
    #   cost = 0.00004 + (5 * 0.10 + 46 * 0.40) / 1e6 = 0.0000589
    #   latency = 40 + 5 * 150 + 46 * 12 = 1342 ms
    # -cost [-0.0000448, -0.000181, -0.0000589] -> [1, 0, (0.000181 - 0.0000589) / 0.0001362]
    # -latency [-1062, -1224.5, -1342] -> [1, (1342 - 1224.5) / 280, 0]
    item = sampled("math", 6, "cheap")
    assert item.task.preference.vector.model_dump() == {
        "tools": {},
        "outcome": 1.0,
        "cost": 1.0,
        "latency": 0.2,
    }
    found = routes(item)
    traces = []
    for name in ("gold", "code_executor", "calculator_repeat"):
        draft, ok = play(item, found[name], item.final_message)
        metrics, got = labels(item, draft, ok)
        traces.append(as_trace(item, draft, ok, metrics, got))
    costs = [MATH_GOLD_COST, MATH_CODE_COST, 0.0000589]
    assert [t.total_cost for t in traces] == pytest.approx(costs, abs=1e-12)
    assert [t.total_latency_ms for t in traces] == [1062.0, 1224.5, 1342.0]
    scores = [t.reward_group for t in group_labels(item.task, traces)]
    assert [t.preference_compliant for t in traces] == [True, False, True]
    assert scores == pytest.approx([1 + 1 + 0.2 * 1, 0.0, 1 + 1221 / 1362 + 0])


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


# railway seed 0 index 96 (a fare question: no detail to ask for, so no user turn after the
# opening), gold = search_trains (13 chars; arguments 56 chars; result 843 chars: 211 tokens) and
# get_fare (8 chars; arguments 63; result 113 chars: 29 tokens); final message of 86 chars (22
# tokens, the reference agent's lead included). Both are READ calls ($0.0002, 120 ms + 0.5 ms per
# output token):
#   calls   = 0.0004; (120 + 105.5) + (120 + 14.5) = 360 ms
#   read    = 211 + 29 = 240; written = ceil(69/4) + ceil(71/4) + 22 = 18 + 18 + 22 = 58; 3 turns
#   total   = 0.0004 + (240 * 0.10 + 58 * 0.40) / 1e6 = 0.0004472;
#             360 + 3 * 150 + 58 * 12 = 1506 ms
RAIL_GOLD_COST, RAIL_GOLD_LATENCY = 0.0004472, 1506.0


def test_railway_avoid_tool_by_hand():
    # The profile forbids the hand-off, a tool this caller could think of and the gold route
    # does not call (economics/fit.plausible_avoid).
    item = sampled("railway", 96, "avoid_tool")
    gold = item.task.gold_actions
    assert [a["name"] for a in gold] == ["search_trains", "get_fare"]
    assert item.task.preference.forbidden_tools == ["transfer_to_human_agents"]
    assert item.task.reference_cost == pytest.approx(RAIL_GOLD_COST, abs=1e-12)
    assert item.task.reference_latency_ms == RAIL_GOLD_LATENCY
    draft, ok = play(item, gold, item.final_message)
    metrics, got = labels(item, draft, ok)
    assert ok and metrics["cost"] == pytest.approx(0.0004, abs=1e-12)
    assert metrics["latency_ms"] == 360.0
    assert metrics["num_tokens"] == 240 + 58
    assert metrics["total_cost"] == pytest.approx(RAIL_GOLD_COST, abs=1e-12)
    assert metrics["total_latency_ms"] == RAIL_GOLD_LATENCY
    assert got["reward_efficiency"] == pytest.approx(-0.16)
    assert got["preference_compliant"] and got["reward_total"] == pytest.approx(1.34)
    # The gold route plus a lookup with the forbidden tool (an unknown train: a tool error),
    # and the same lookup twice: still correct, 4 calls, 1 repeated, not compliant. Each lookup
    # writes get_train_details (17 chars) + {"train_number":"RW000"} (24): 11 tokens, and reads
    # "Error: no train with id 'RW000'" (31 chars): 8 tokens, $0.0002, 124 ms:
    #   total = 0.0008 + (256 * 0.10 + 80 * 0.40) / 1e6 = 0.0008576
    #           608 + 5 * 150 + 80 * 12 = 2318 ms
    # The same task with get_train_details the forbidden tool (the profile draws one the caller
    # could think of: the hand-off here; a look-up's figures are easier to state by hand).
    preference = item.task.preference.model_copy(update={"forbidden_tools": ["get_train_details"]})
    item = replace(item, task=item.task.model_copy(update={"preference": preference}))
    lookup = {"name": "get_train_details", "arguments": {"train_number": "RW000"}}
    draft, ok = play(item, [*gold, lookup, lookup], item.final_message)
    metrics, got = labels(item, draft, ok)
    assert ok and metrics["failed_calls"] == 2 and metrics["repeated_calls"] == 1
    assert metrics["total_cost"] == pytest.approx(0.0008576, abs=1e-12)
    assert metrics["total_latency_ms"] == 2318.0
    assert got["preference_violations"] == ["called forbidden tool 'get_train_details' (2 times)"]
    efficiency = -0.08 * (0.0008576 / 0.0004472) - 0.08 * (2318 / 1506)  # about -0.2766
    assert got["reward_efficiency"] == pytest.approx(efficiency)
    assert (got["solved_quickly"], got["reward_preference"]) == (False, 0.0)
    assert got["reward_outcome"] == 0.0  # correct, but a forbidden tool: scored as wrong
    assert got["reward_total"] == pytest.approx(0 + efficiency)


def test_a_wrong_attempt_scores_no_outcome_and_a_slow_preference():
    # search_trains only, then "I could not find it." (20 chars: 5 tokens); read 211, written
    # 18 + 5 = 23, 2 turns:
    #   total = 0.0002 + (211 * 0.10 + 23 * 0.40) / 1e6 = 0.0002303
    #           225.5 + 2 * 150 + 23 * 12 = 801.5 ms
    item = sampled("railway", 96, "none")
    draft, ok = play(item, item.task.gold_actions[:1], "I could not find it.")
    metrics, got = labels(item, draft, ok)
    assert not ok
    assert metrics["total_cost"] == pytest.approx(0.0002303, abs=1e-12)
    assert metrics["total_latency_ms"] == 801.5
    assert (got["reward_outcome"], got["reward_preference"]) == (0.0, 0.1)
    efficiency = -0.08 * (0.0002303 / 0.0004472) - 0.08 * (801.5 / 1506)  # about -0.0838
    assert got["reward_total"] == pytest.approx(efficiency + 0.1)


def test_teacher_usage_is_priced_apart_and_changes_no_metric_or_reward():
    item = sampled("railway", 96, "none")
    draft, ok = play(item, item.task.gold_actions, item.final_message)
    draft.teacher_prompt_tokens, draft.teacher_completion_tokens = 1000, 200
    draft.teacher_latency_ms = 1500.0
    metrics = trace_metrics(item.task, draft)
    got = trace_labels(item.task, draft, metrics, ok, DEFAULT, (2.0, 10.0))
    # num_tokens and the totals are the route's (the gold route's, above), not the teacher's.
    assert (metrics["num_tokens"], metrics["total_latency_ms"]) == (298, RAIL_GOLD_LATENCY)
    assert metrics["total_cost"] == pytest.approx(RAIL_GOLD_COST, abs=1e-12)
    # teacher_cost = $ (1000 * 2 + 200 * 10) / 1e6 = 0.004, a label of its own.
    assert got["teacher_cost"] == 0.004 and "total_cost" not in got
    assert got["reward_efficiency"] == pytest.approx(-0.16)
