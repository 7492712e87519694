"""Record lookups over a JSON state, with the errors a tool returns to the model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.tools.bounds import identifier, quoted

Record = dict[str, Any]


def lookup(state: Record, table: str, key: str, label: str = "") -> Record:
    """Record `key` of `state[table]` (surrounding spaces ignored), or a ToolError
    "no <label> with id '<key>'" (`label` defaults to the table's name less its final "s")."""
    label = label or table.removesuffix("s")
    record = state[table].get(identifier(key, f"the {label} id").strip())
    if record is None:
        raise ToolError(f"no {label} with id {quoted(key)}")
    return record


def find_by(state: Record, table: str, field: str, value: str, label: str = "") -> Record:
    """The record of `state[table]` whose `field` equals `value`, ignoring case and surrounding
    spaces, or a ToolError "no <label> with <field> '<value>'" (label: as for `lookup`)."""
    label = label or table.removesuffix("s")
    wanted = identifier(value, f"the {label}'s {field.replace('_', ' ')}").strip().casefold()
    for record in state[table].values():
        if str(record.get(field, "")).casefold() == wanted:
            return record
    raise ToolError(f"no {label} with {field.replace('_', ' ')} {quoted(value)}")


def why_not(check: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """ "" when `check(*args, **kwargs)` passes, else the ToolError's message: what a quote or
    availability tool reports instead of refusing."""
    try:
        check(*args, **kwargs)
    except ToolError as exc:
        return str(exc)
    return ""


def insert(state: Record, table: str, prefix: str, fields: Record, *, counter: str = "") -> Record:
    """Add a new record to `state[table]` under the id `prefix` + the state's counter (field
    `counter`, by default "next_" + the table's name less its "s"), which moves on by one; the
    record's key field (the singular name + "_id") comes first. Returns the record."""
    noun = table.removesuffix("s")
    counter = counter or f"next_{noun}"
    made = f"{prefix}{state[counter]}"
    state[counter] += 1
    state[table][made] = record = {f"{noun}_id": made, **fields}
    return record
