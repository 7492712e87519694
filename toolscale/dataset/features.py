"""The one fixed schema of each dataset config: `tasks`, `traces` and `rejected`.

Tool arguments, schemas, states, price tables and preference profiles are JSON strings, so this
schema never changes with the domains or tools a run uses. `traces` and `rejected` share one schema;
`worlds` holds each run's shared databases once (toolscale.worlds).
"""

from __future__ import annotations

import pyarrow as pa
from datasets import Features, List, Value

CONFIGS = ("tasks", "traces", "rejected", "worlds")

TASK_FEATURES = Features(
    {
        "id": Value("string"),
        "domain": Value("string"),
        "domain_version": Value("string"),
        "family": Value("string"),
        "seed": Value("int64"),
        "index": Value("int64"),
        "template": Value("string"),
        "difficulty": Value("string"),
        "system_prompt": Value("string"),
        "instruction": Value("string"),
        "tools": Value("string"),
        "prices": Value("string"),
        "price_schedule": Value("string"),
        "reference_cost": Value("float64"),
        "reference_latency_ms": Value("float64"),
        "gold_actions": Value("string"),
        "initial_state": Value("string"),
        "expected_answer": Value("string"),
        "expected_state_hash": Value("string"),
        "required_facts": List(Value("string")),
        "preference": Value("string"),
        "preference_profile": Value("string"),
        "user_scenario": Value("string"),
        "world": Value("string"),
        "provenance": Value("string"),
    }
)

# One row per (domain, run seed) whose domain draws a world: the database its tasks derive from.
WORLD_FEATURES = Features(
    {
        "id": Value("string"),
        "domain": Value("string"),
        "domain_version": Value("string"),
        "seed": Value("int64"),
        "state": Value("string"),
    }
)

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

_FUNCTION_CALL = {"id": Value("string"), "name": Value("string"), "arguments": Value("string")}

TRACE_FEATURES = Features(
    {
        "id": Value("string"),
        "task_id": Value("string"),
        "domain": Value("string"),
        "teacher": Value("string"),
        "variant": Value("string"),
        "attempt": Value("int64"),
        "messages": List(
            {
                "role": Value("string"),
                "content": Value("string"),
                "tool_calls": List(_FUNCTION_CALL),
                "tool_call_id": Value("string"),
                "name": Value("string"),
            }
        ),
        "tool_calls": List(
            {
                **_FUNCTION_CALL,
                "output": Value("string"),
                "status": Value("string"),
                "cost": Value("float64"),
                "latency_ms": Value("float64"),
                "model": Value("string"),
                "prompt_tokens": Value("int64"),
                "completion_tokens": Value("int64"),
            }
        ),
        "final_answer": Value("string"),
        "final_state_hash": Value("string"),
        "verified": Value("bool"),
        "failure_stage": Value("string"),
        "failure_reasons": List(Value("string")),
        "num_tool_calls": Value("int64"),
        "calls_per_tool": Value("string"),
        "num_turns": Value("int64"),
        "cost": Value("float64"),
        "latency_ms": Value("float64"),
        "gold_calls": Value("int64"),
        "extra_calls": Value("int64"),
        "failed_calls": Value("int64"),
        "tool_output_chars": Value("int64"),
        "teacher_prompt_tokens": Value("int64"),
        "teacher_completion_tokens": Value("int64"),
        "teacher_latency_ms": Value("float64"),
        "repeated_calls": Value("int64"),
        "tool_output_tokens": Value("int64"),
        "model_tool_tokens": Value("int64"),
        "orchestrator_input_tokens": Value("int64"),
        "orchestrator_output_tokens": Value("int64"),
        "orchestrator_cost": Value("float64"),
        "num_tokens": Value("int64"),
        "total_latency_ms": Value("float64"),
        "teacher_cost": Value("float64"),
        "total_cost": Value("float64"),
        "preference_profile": Value("string"),
        "preference_compliant": Value("bool"),
        "preference_violations": List(Value("string")),
        "solved_quickly": Value("bool"),
        "stated_confidence": Value("float64"),
        "reward_outcome": Value("float64"),
        "reward_efficiency": Value("float64"),
        "reward_preference": Value("float64"),
        "reward_total": Value("float64"),
        "reward_weights": Value("string"),
        "reward_group": Value("float64"),
    }
)

FEATURES = {
    "tasks": TASK_FEATURES,
    "traces": TRACE_FEATURES,
    "rejected": TRACE_FEATURES,
    "worlds": WORLD_FEATURES,
    "rejected_tasks": REJECTED_TASK_FEATURES,
}


def arrow_schema(config: str) -> pa.Schema:
    """The Arrow schema of a config, carrying the HF Features in its metadata so that
    `datasets` loads the exact Features back."""
    return FEATURES[config].arrow_schema
