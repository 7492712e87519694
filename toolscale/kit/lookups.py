"""Record lookups over a JSON state, with the errors a tool returns to the model."""

from __future__ import annotations

from typing import Any

from toolscale.core.contract import ToolError
from toolscale.tools.bounds import identifier, shown

Record = dict[str, Any]


def lookup(state: Record, table: str, key: str, label: str) -> Record:
    """Record `key` of `state[table]` (surrounding spaces ignored), or a ToolError
    "no <label> with id '<key>'"."""
    record = state[table].get(identifier(key, f"the {label} id").strip())
    if record is None:
        raise ToolError(f"no {label} with id {shown(key)}")
    return record


def find_by(state: Record, table: str, field: str, value: str, label: str) -> Record:
    """The record of `state[table]` whose `field` equals `value`, ignoring case and surrounding
    spaces, or a ToolError "no <label> with <field> '<value>'"."""
    wanted = identifier(value, f"the {label}'s {field.replace('_', ' ')}").strip().casefold()
    for record in state[table].values():
        if str(record.get(field, "")).casefold() == wanted:
            return record
    raise ToolError(f"no {label} with {field.replace('_', ' ')} {shown(value)}")
