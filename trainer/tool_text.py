"""The tool descriptions a model was trained on, kept beside it, and a warning when they changed.

SFT conversations and GRPO prompts show each tool as this code's toolkit describes it
(`trainer.environment.tool_schemas`), not as the dataset's `tools` column recorded it. A model
trained under one description and evaluated (or trained on) under another routes on text it
never saw: the nano-orchestrator, trained with one sentence of `answer`'s description and
evaluated after it changed, fell from 1.013 to 0.617 mean reward on the same 400 held-out tasks
(benchmarks/RESULTS.md). So `sft` and `grpo` write the schemas they trained on to
MODEL/tool_schemas.json, and `evaluate` and `grpo` warn, naming the tools, when a model's file
differs from what they will show it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from trainer.environment import tool_schemas

FILE = "tool_schemas.json"


def shown_schemas(environments: Iterable[str]) -> list[dict[str, Any]]:
    """The tool schemas a policy is shown in the environments named (a rows' `environment`
    column: each key once, in order)."""
    return [dict(s) for key in sorted(set(environments)) for s in tool_schemas(key)]


def _by_name(schemas: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    return {s.get("function", s)["name"]: dict(s) for s in schemas}


def save_tool_text(folder: str | Path, schemas: Iterable[Mapping[str, Any]]) -> None:
    """Write the tool schemas a model was trained on (by tool name) to FOLDER/tool_schemas.json."""
    text = json.dumps(_by_name(schemas), indent=1, sort_keys=True)
    partial = Path(folder) / f".{FILE}.partial"
    partial.write_text(text)
    partial.replace(Path(folder) / FILE)


def changed_tools(folder: str | Path, schemas: Iterable[Mapping[str, Any]]) -> str:
    """A one-line warning (without its "warning: " prefix) naming the tools whose schema in
    `schemas` differs from the one the model in `folder` was trained on ("" when none does, or
    the model has no record: a Hub model or one trained before the record was kept)."""
    path = Path(folder) / FILE
    if not path.is_file():
        return ""
    try:
        trained = json.loads(path.read_text())
    except ValueError:
        trained = None
    if not isinstance(trained, dict):
        return f"{path} is not a record of tool schemas: cannot tell whether the tools changed"
    changed = sorted(
        name for name, schema in _by_name(schemas).items() if trained.get(name, schema) != schema
    )
    if not changed:
        return ""
    return (
        f"{folder} was trained on other descriptions of {', '.join(changed)} than this "
        "code shows: its choices may not transfer; retrain it, or use the code it was trained with"
    )
