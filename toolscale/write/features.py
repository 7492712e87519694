"""The one fixed schema of each dataset config: `tasks`, `traces` and `rejected`.

The Features of `tasks`, `traces`/`rejected` and `worlds` are derived from the records
(`toolscale.core.records`: Task, Trace, World), which are the one definition of a row; only the
synthesizer's `rejected_tasks`, which has no record, is written out here.

Tool arguments, schemas, states, price tables and preference profiles are JSON strings, so this
schema never changes with the domains or tools a run uses. `traces`, `rejected` and `user_faults`
(attempts the simulated user broke, `toolscale.judge.user_fault`: neither positives nor negatives)
share one schema;
`worlds` holds each run's shared databases once (toolscale.sample.worlds).

`GLOSSARY` defines every column of every config once: it is written into each Parquet column's
field metadata (`description`) and shown as the data card's column glossary, so the two never
differ.
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin

import pyarrow as pa
from datasets import Features, List, Value
from pydantic import BaseModel

from toolscale.core.records import TASK_JSON, TRACE_JSON, Task, Trace, World

CONFIGS = ("tasks", "traces", "rejected", "user_faults", "worlds")
STRING = Value("string")
_SCALARS = {str: STRING, int: Value("int64"), float: Value("float64"), bool: Value("bool")}


def feature_of(annotation: Any) -> Any:
    """The Feature of a record field's type: str, int, float, bool, a Literal of strings,
    `X | None` (Arrow columns are nullable), `list[X]` and nested records."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        inner = [a for a in get_args(annotation) if a is not type(None)]
        if len(inner) == 1:
            return feature_of(inner[0])
    if origin is Literal and all(isinstance(a, str) for a in get_args(annotation)):
        return STRING
    if origin is list:
        return List(feature_of(get_args(annotation)[0]))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {n: feature_of(f.annotation) for n, f in annotation.model_fields.items()}
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    raise TypeError(f"no dataset feature for {annotation!r}; store it as JSON text")


def features_of(
    record: type[BaseModel],
    as_json: tuple[str, ...],
    after: dict[str, dict[str, Any]] | None = None,
) -> Features:
    """The Features of `record`'s rows: its fields in order, those in `as_json` as JSON strings,
    and the row-only columns of `after` placed after the field they follow."""
    columns: dict[str, Any] = {}
    for name, field in record.model_fields.items():
        columns[name] = STRING if name in as_json else feature_of(field.annotation)
        columns.update((after or {}).get(name, {}))
    return Features(columns)


# A task row: the Task record's fields, those held as JSON text as strings, plus the plain
# `preference_profile` column (the profile's name, to filter on) after `preference`.
TASK_FEATURES = features_of(Task, TASK_JSON, {"preference": {"preference_profile": STRING}})

# One row per (domain, run seed) whose domain draws a world: the database its tasks derive from.
WORLD_FEATURES = features_of(World, ("state",))

# `toolscale synthesize`: one row per candidate task a filter rejected, with the stage and why.
REJECTED_TASK_FEATURES = Features(
    {
        "id": Value("string"),
        "domain": Value("string"),
        "seed": Value("int64"),
        "index": Value("int64"),
        "stage": Value("string"),
        "reasons": List(Value("string")),
        "intent": Value("string"),
        "candidate": Value("string"),
        "provenance": Value("string"),
    }
)

# A trace row (`traces` and `rejected`): the Trace record's fields, messages and tool calls as
# lists of structs.
TRACE_FEATURES = features_of(Trace, TRACE_JSON)

# Every column of every config, defined once (a column shared by configs means the same in each).
# JSON: a JSON string. $: US dollars under the task's own price table. ms: modelled latency.
GLOSSARY: dict[str, str] = {
    "id": "content id: same content, same id",
    "domain": "domain (tools, policy, world)",
    "domain_version": "domain version",
    "family": "stateful (judged on the database) or orchestration (on the answer)",
    "seed": "run seed; with `index` it rebuilds the task",
    "index": "task number in its domain",
    "template": "request kind; `.no.`: refuse, `.handoff.`: pass to a human",
    "difficulty": "easy, medium or hard",
    "system_prompt": "system message: policy, tools, prices",
    "instruction": "first user message, with the preference",
    "tools": "JSON: function schemas offered",
    "prices": "JSON: $ and ms per tool, expert, agent token",
    "price_schedule": "price schedule drawn",
    "reference_cost": "$ of the gold route",
    "reference_latency_ms": "ms of the gold route",
    "gold_actions": "JSON: the gold route's calls",
    "initial_state": "JSON: start database (a patch on `world`)",
    "expected_answer": "correct answer; null if stateful",
    "expected_state_hash": "database hash after the gold actions",
    "required_facts": "facts the agent must say",
    "preference": "JSON: user preference (budgets, format, tools to avoid)",
    "preference_profile": "preference name",
    "user_scenario": "JSON: simulated user (reason, knowledge, manner)",
    "world": "`worlds` id `initial_state` patches, or empty",
    "provenance": "JSON: origin of a task no sampler rebuilds",
    "oracle_route": "route with the best played reward (ex post)",
    "oracle_reward": "its `reward_total`",
    "route_table": "each route played: verdict, calls, $, ms, rewards",
    "expected_route": "route with the best expected reward (SFT label)",
    "task_id": "`tasks` id attempted",
    "teacher": "reference or a model",
    "variant": "gold, another route, a detour or a format slip",
    "attempt": "attempt number at its task",
    "messages": "the conversation",
    "tool_calls": "calls run: arguments, output, status, $, ms",
    "final_answer": "last agent message",
    "final_state_hash": "database hash at the end",
    "verified": "passed every check",
    "failure_stage": "first check failed, or null",
    "failure_reasons": "why it failed",
    "num_tool_calls": "tool calls made",
    "calls_per_tool": "JSON: calls per tool",
    "num_turns": "assistant messages",
    "cost": "$ of the tool calls (experts included)",
    "latency_ms": "ms of the tool calls",
    "gold_calls": "calls of the gold route",
    "extra_calls": "calls beyond `gold_calls`",
    "failed_calls": "calls not ok",
    "tool_output_chars": "tool output characters",
    "teacher_prompt_tokens": "teacher model tokens read",
    "teacher_completion_tokens": "teacher model tokens written",
    "teacher_latency_ms": "teacher model wall time",
    "repeated_calls": "calls identical to an earlier one",
    "tool_output_tokens": "tool output tokens (chars / 4)",
    "model_tool_tokens": "expert tokens",
    "orchestrator_input_tokens": "agent tokens read after the prompt",
    "orchestrator_output_tokens": "agent tokens written",
    "orchestrator_cost": "$ of the agent's own tokens",
    "num_tokens": "agent tokens read + written",
    "total_latency_ms": "`latency_ms` + the agent's time",
    "teacher_cost": "$ of the teacher model (not the route)",
    "total_cost": "`cost` + `orchestrator_cost`",
    "preference_compliant": "no preference constraint broken",
    "preference_violations": "constraints broken",
    "solved_quickly": "verified within the budgets",
    "stated_confidence": "confidence the answer states",
    "reward_outcome": "1 if correct and compliant, else 0",
    "reward_efficiency": "minus weighted calls, tokens, $, ms",
    "reward_preference": "preference met",
    "reward_total": "sum weighted by `reward_weights`",
    "reward_weights": "JSON: weight per component",
    "reward_extra": "JSON: extra components",
    "reward_group": "ToolOrchestra's reward among the task's attempts",
    "state": "JSON: the run's database of a domain",
    "stage": "the filter that rejected the candidate",
    "reasons": "why it was rejected",
    "intent": "what the proposer meant the task to ask",
    "candidate": "JSON: the proposed task",
}

FEATURES = {
    "tasks": TASK_FEATURES,
    "traces": TRACE_FEATURES,
    "rejected": TRACE_FEATURES,
    "user_faults": TRACE_FEATURES,
    "worlds": WORLD_FEATURES,
    "rejected_tasks": REJECTED_TASK_FEATURES,
}


def arrow_schema(config: str) -> pa.Schema:
    """The Arrow schema of a config, carrying the HF Features in its metadata so that
    `datasets` loads the exact Features back, and each column's `GLOSSARY` text as its field
    metadata `description`."""
    schema = FEATURES[config].arrow_schema
    for i, field in enumerate(schema):
        schema = schema.set(i, field.with_metadata({"description": GLOSSARY[field.name]}))
    return schema


def description(schema: pa.Schema, column: str) -> str:
    """The `description` a Parquet file's schema gives `column` ("" when it has none)."""
    metadata = schema.field(column).metadata or {}
    return metadata.get(b"description", b"").decode("utf-8")
