"""Per-call prices and per-trace metrics: calls, turns, tokens, cost, simulated latency, size.

Cost is in one unit: each tool's per-call price from the task's price table plus, for MODEL calls,
tokens times the model's $ per 1M tokens. Latency is the simulated latency of each call from the
same table (a MODEL call reports its own); `total_latency_ms` adds the teacher's recorded latency.
Sums are rounded to 9 decimals so that recomputing them gives identical numbers.

Tokens: `num_tokens` counts what language models spent on the attempt — the teacher's prompt and
completion tokens plus the MODEL tools' (experts') tokens. Tool outputs are counted separately in
`tool_output_tokens`, estimated as ceil(characters / 4) (no tokenizer is assumed: the policy that
will read them is not known when the data is made); an LLM teacher's prompt tokens already
include the outputs it read. The teacher's own $ cost needs its price and is a label
(`toolscale.labels`).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Protocol

from toolscale.contract import canonical_json
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


class Usage(Protocol):
    """What the metrics read from an attempt (a teacher's Draft or a stored Trace)."""

    tool_calls: list[ToolCall]
    messages: list[Message]
    teacher_prompt_tokens: int
    teacher_completion_tokens: int
    teacher_latency_ms: float


def _call_key(call: ToolCall) -> tuple[str, str]:
    try:
        return call.name, canonical_json(json.loads(call.arguments))
    except json.JSONDecodeError:
        return call.name, call.arguments


def repeated_calls(calls: list[ToolCall]) -> int:
    """Calls identical (same tool, same arguments up to key order) to an earlier call."""
    return len(calls) - len({_call_key(c) for c in calls})


def trace_metrics(task: Task, attempt: Usage) -> dict[str, Any]:
    """The metric columns of a trace, computed from its calls, messages and teacher usage only.

    Example: a math trace of calculator x3 (0.1 / 10 ms each) by the reference teacher gives
    num_tool_calls 3, cost 0.3, latency_ms 30.0, num_tokens 0, extra_calls 0 against 3 gold calls.
    """
    calls, messages = attempt.tool_calls, attempt.messages
    gold = len(task.gold_actions)
    model_tokens = sum(c.prompt_tokens + c.completion_tokens for c in calls)
    latency = round(sum(c.latency_ms for c in calls), 6)
    return {
        "num_tool_calls": len(calls),
        "calls_per_tool": dict(sorted(Counter(c.name for c in calls).items())),
        "num_turns": sum(1 for m in messages if m.role == "assistant"),
        "cost": round(sum(c.cost for c in calls), 9),
        "latency_ms": latency,
        "gold_calls": gold,
        "extra_calls": max(0, len(calls) - gold),
        "failed_calls": sum(1 for c in calls if c.status != "ok"),
        "tool_output_chars": sum(len(c.output) for c in calls),
        "repeated_calls": repeated_calls(calls),
        "tool_output_tokens": sum(-(-len(c.output) // 4) for c in calls),
        "model_tool_tokens": model_tokens,
        "num_tokens": attempt.teacher_prompt_tokens
        + attempt.teacher_completion_tokens
        + model_tokens,
        "total_latency_ms": round(latency + attempt.teacher_latency_ms, 6),
    }
