"""Per-call prices and per-trace metrics: calls, turns, tokens, cost, modelled latency, size.

Everything is in US dollars and priced from the task's own price table
(`toolscale.economics.prices`): each tool call (its fee, compute seconds, a model's tokens), and
the orchestrator's own tokens.
`num_tokens` counts what the orchestrator reads and writes: every tool output and later user
message it reads, and every message and tool call (name and arguments) it writes, estimated as
ceil(characters / 4). The system prompt, the tool schemas and the task's first message are the
same for every attempt at a task and are left out. `cost` / `latency_ms` are the tools' (experts
included); `total_cost` / `total_latency_ms` add the orchestrator's. The teacher's own usage is
recorded apart (`teacher_*`): it is what making the data cost, not what the route costs. Sums are
rounded to 12 decimals so that recomputing them gives identical numbers.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

from toolscale.core.contract import canonical_json
from toolscale.core.records import Message, Task, ToolCall
from toolscale.economics.prices import price_call, price_orchestrator, text_tokens
from toolscale.sandbox.execute import CallOutcome


def tool_call_record(
    task: Task, call_id: str, name: str, arguments: str, outcome: CallOutcome
) -> ToolCall:
    cost, latency = price_call(
        task.prices,
        name,
        outcome.output,
        outcome.model,
        outcome.prompt_tokens,
        outcome.completion_tokens,
    )
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


def orchestrator_tokens(messages: Sequence[Message]) -> tuple[int, int, int]:
    """(tokens read, tokens written, turns) of the orchestrator in a conversation. It reads
    every tool result and every user message after the first; it writes every assistant
    message's text and each tool call's name and argument text."""
    read = written = turns = 0
    users = 0
    for message in messages:
        if message.role == "tool":
            read += text_tokens(message.content)
        elif message.role == "user":
            users += 1
            read += text_tokens(message.content) if users > 1 else 0
        elif message.role == "assistant":
            turns += 1
            written += text_tokens(message.content)
            written += sum(text_tokens(c.name + c.arguments) for c in message.tool_calls)
    return read, written, turns


def _totals(
    task: Task, costs: Sequence[float], latencies: Sequence[float], messages: Sequence[Message]
) -> dict[str, Any]:
    read, written, turns = orchestrator_tokens(messages)
    own_cost, own_latency = price_orchestrator(task.prices, read, written, turns)
    cost, latency = round(sum(costs), 12), round(sum(latencies), 6)
    return {
        "cost": cost,
        "latency_ms": latency,
        "orchestrator_input_tokens": read,
        "orchestrator_output_tokens": written,
        "orchestrator_cost": own_cost,
        "num_tokens": read + written,
        "total_cost": round(cost + own_cost, 12),
        "total_latency_ms": round(latency + own_latency, 6),
    }


def route_totals(
    task: Task, messages: Sequence[Message], outcomes: Sequence[CallOutcome]
) -> tuple[float, float]:
    """(total_cost, total_latency_ms) of a route given as its conversation and the outcome of
    each call, priced exactly as `trace_metrics` prices the trace it becomes."""
    names = [fc.name for m in messages if m.role == "assistant" for fc in m.tool_calls]
    priced = [
        price_call(task.prices, n, o.output, o.model, o.prompt_tokens, o.completion_tokens)
        for n, o in zip(names, outcomes, strict=True)
    ]
    totals = _totals(task, [c for c, _ in priced], [t for _, t in priced], messages)
    return totals["total_cost"], totals["total_latency_ms"]


class Usage(Protocol):
    """What the metrics read from an attempt (a teacher's Transcript or a stored Trace)."""

    tool_calls: list[ToolCall]
    messages: list[Message]


def _call_key(call: ToolCall) -> tuple[str, str]:
    try:
        return call.name, canonical_json(json.loads(call.arguments))
    except (ValueError, RecursionError):  # not JSON, or JSON Python refuses (a 5,000-digit int)
        return call.name, call.arguments


def repeated_calls(calls: list[ToolCall]) -> int:
    """Calls identical (same tool, same arguments up to key order) to an earlier call."""
    return len(calls) - len({_call_key(c) for c in calls})


def trace_metrics(task: Task, attempt: Usage) -> dict[str, Any]:
    """The metric columns of a trace, computed from its calls and messages only.

    Example (standard schedule): a math trace of calculator x3 ($0.00001 / 10 ms each) gives
    num_tool_calls 3, cost 0.00003, latency_ms 30.0, extra_calls 0 against 3 gold calls; its
    num_tokens are the tokens of the three calls it wrote, the three results it read and its
    final message.
    """
    calls, messages = attempt.tool_calls, attempt.messages
    gold = len(task.gold_actions)
    return {
        "num_tool_calls": len(calls),
        "calls_per_tool": dict(sorted(Counter(c.name for c in calls).items())),
        "num_turns": sum(1 for m in messages if m.role == "assistant"),
        "gold_calls": gold,
        "extra_calls": max(0, len(calls) - gold),
        "failed_calls": sum(1 for c in calls if c.status != "ok"),
        "tool_output_chars": sum(len(c.output) for c in calls),
        "repeated_calls": repeated_calls(calls),
        "tool_output_tokens": sum(text_tokens(c.output) for c in calls),
        "model_tool_tokens": sum(c.prompt_tokens + c.completion_tokens for c in calls),
        **_totals(task, [c.cost for c in calls], [c.latency_ms for c in calls], messages),
    }
