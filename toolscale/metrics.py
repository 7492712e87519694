"""Per-call prices and per-trace metrics: calls, turns, cost, simulated latency, output size.

Cost is in one unit: each tool's per-call price from the task's price table plus, for MODEL calls,
tokens times the model's $ per 1M tokens. Latency is the simulated latency of each call from the
same table (a MODEL call reports its own). Sums are rounded to 9 decimals so that recomputing them
gives identical numbers.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from toolscale.records import Message, Task, ToolCall
from toolscale.sandbox.execute import CallOutcome

_ZERO = {"cost": 0.0, "latency_ms": 0.0, "input_per_m": 0.0, "output_per_m": 0.0}


def call_price(
    prices: dict[str, dict[str, float]], name: str, outcome: CallOutcome
) -> tuple[float, float]:
    """(cost, latency_ms) of one executed call."""
    price = prices.get(name, _ZERO)
    cost, latency = price["cost"], price["latency_ms"]
    if outcome.model is not None:
        model = prices.get(outcome.model, _ZERO)
        cost += (
            outcome.prompt_tokens * model["input_per_m"]
            + outcome.completion_tokens * model["output_per_m"]
        ) / 1e6
        latency += outcome.model_latency_ms or model["latency_ms"]
    return round(cost, 9), round(latency, 6)


def tool_call_record(
    task: Task, call_id: str, name: str, arguments: str, outcome: CallOutcome
) -> ToolCall:
    cost, latency = call_price(task.prices, name, outcome)
    return ToolCall(
        id=call_id,
        name=name,
        arguments=arguments,
        output=outcome.output,
        status=outcome.status,  # type: ignore[arg-type]
        cost=cost,
        latency_ms=latency,
        model=outcome.model,
        prompt_tokens=outcome.prompt_tokens,
        completion_tokens=outcome.completion_tokens,
    )


def trace_metrics(task: Task, calls: list[ToolCall], messages: list[Message]) -> dict[str, Any]:
    """The metric columns of a trace, computed from its calls and messages only."""
    gold = len(task.gold_actions)
    return {
        "num_tool_calls": len(calls),
        "calls_per_tool": dict(sorted(Counter(c.name for c in calls).items())),
        "num_turns": sum(1 for m in messages if m.role == "assistant"),
        "cost": round(sum(c.cost for c in calls), 9),
        "latency_ms": round(sum(c.latency_ms for c in calls), 6),
        "gold_calls": gold,
        "extra_calls": max(0, len(calls) - gold),
        "failed_calls": sum(1 for c in calls if c.status != "ok"),
        "tool_output_chars": sum(len(c.output) for c in calls),
    }
