"""JSON Schemas of the dataset rows, shipped in toolscale/schemas/ and derived from the records.

A row is the record's `to_row()` form: fields that the record holds as Python values but the
dataset stores as JSON text (tool schemas, states, price tables, preference profiles, calls per
tool) are strings here, and plain columns that exist only in the row (e.g. a task's
`preference_profile`) are taken from the Features. The shipped files are what users and other
languages validate against; `tests/test_api.py` fails when they drift from the records, and
`python -m toolscale.write.record_schema` writes them again.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from datasets import Features, List, Value
from pydantic import BaseModel

from toolscale.core.records import Task, Trace, World
from toolscale.write.features import FEATURES

SCHEMA_DIR = Path(__file__).parent.parent / "schemas"  # toolscale/schemas
FILES = {
    "tasks": "task.schema.json",
    "traces": "trace.schema.json",
    "rejected": "trace.schema.json",
    "user_faults": "trace.schema.json",
    "worlds": "world.schema.json",
}
_JSON_TYPES = {"string": "string", "bool": "boolean", "int64": "integer", "float64": "number"}


def _allows_string(schema: dict[str, Any]) -> bool:
    options = schema.get("anyOf", [schema])
    return any(o.get("type") == "string" for o in options)


def _feature_schema(feature: Any) -> dict[str, Any]:
    if isinstance(feature, Value):
        return {"type": [_JSON_TYPES[feature.dtype], "null"]}
    if isinstance(feature, List):
        return {"type": "array", "items": _feature_schema(feature.feature)}
    raise TypeError(f"no JSON Schema for feature {feature!r}")


def _reachable(properties: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The definitions still referenced once JSON-text fields replaced their models."""
    kept: dict[str, Any] = {}
    frontier = json.dumps(properties)
    while True:
        new = {k: v for k, v in defs.items() if k not in kept and f'"#/$defs/{k}"' in frontier}
        if not new:
            return kept
        kept.update(new)
        frontier = json.dumps(new)


def derive(config: str) -> dict[str, Any]:
    """The schema of one row of `config`, computed from the record model and its Features."""
    models: dict[str, type[BaseModel]] = {"tasks": Task, "worlds": World}
    model = models.get(config, Trace)
    schema = model.model_json_schema()
    properties = schema["properties"]
    features: Features = FEATURES[config]
    for name, feature in features.items():
        if name not in properties:
            properties[name] = _feature_schema(feature)
        elif (
            isinstance(feature, Value)
            and feature.dtype == "string"
            and not _allows_string(properties[name])
        ):
            properties[name] = {
                "title": properties[name].get("title", name),
                "type": "string",
                "contentMediaType": "application/json",
                "description": "JSON text of the record's value",
            }
    schema["required"] = list(features)
    schema["additionalProperties"] = False
    schema["$defs"] = _reachable(properties, schema.get("$defs", {}))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


@cache
def shipped(config: str) -> dict[str, Any]:
    """The schema file shipped with the package for `config` (traces and rejected share one)."""
    return json.loads((SCHEMA_DIR / FILES[config]).read_text(encoding="utf-8"))


def write() -> list[Path]:
    """Write the derived schemas into the package; returns the files written."""
    SCHEMA_DIR.mkdir(exist_ok=True)
    paths = []
    for config in ("tasks", "traces", "worlds"):
        path = SCHEMA_DIR / FILES[config]
        path.write_text(json.dumps(derive(config), indent=2, sort_keys=True) + "\n")
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write():
        print(written)
