"""The one fixed schema of each dataset config: `tasks`, `traces` and `rejected`.

The Features of `tasks`, `traces`/`rejected` and `worlds` are derived from the records
(`toolscale.core.records`: Task, Trace, World), which are the one definition of a row; only the
synthesizer's `rejected_tasks`, which has no record, is written out here.

Tool arguments, schemas, states, price tables and preference profiles are JSON strings, so this
schema never changes with the domains or tools a run uses. `traces`, `rejected` and `user_faults`
(attempts the simulated user broke, `toolscale.judge.user_fault`: neither positives nor negatives)
share one schema;
`worlds` holds each run's shared databases once (toolscale.sample.worlds).
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
    `datasets` loads the exact Features back."""
    return FEATURES[config].arrow_schema
