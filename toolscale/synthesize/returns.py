"""What each tool returns, shown to the proposer: one real call of every tool on the view's state.

A proposer that sees records but not results cannot name the field a fact is in ("the attendance
rate", "the refund"), nor the id a write creates. So every tool is called once in the sandbox on
a fresh copy of the view's own state (reads together, each write on its own copy, so nothing a
write does shows in another's result), with arguments taken from the records the view shows (an
argument named as a record's field takes that field's value, the caller's records first) or else
from the example its description gives ("e.g. \"(12.5 * 3) - 4\""; never for an id, whose
example names no record); an id no record names so takes the field its name ends with
("to_account_id": an "account_id" the call does not use yet), and a number nothing gives is 1.
Each
line shows the call and its result (cut to `MAX_RESULT` characters), or its error, which says
what the tool demands ("reason must be illness, appointment or holiday"); a tool no shown value
fits is listed as such. Nothing here sends a request to a model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from toolscale.core.contract import Domain, ToolKind, canonical_state
from toolscale.sandbox.pool import SandboxPool
from toolscale.synthesize.view import Record

MAX_RESULT = 400
_EXAMPLE = re.compile(r"(?:such as|e\.g\.|for example|like)\s+\"([^\"]+)\"", re.IGNORECASE)
_SKIP = ("transfer_to_human_agents",)  # its result is a fixed sentence, never a fact


def _stem(table: str) -> str:
    """ "classes" -> "class", "trips" -> "trip": how a tool's name names a table's records."""
    if table.endswith("ses"):
        return table[:-2]
    return table[:-1] if table.endswith("s") else table


def _field_value(
    records: dict[str, Record], name: str, tool: str, taken: Iterable[Any] = ()
) -> Any:
    """The first value of field `name` in `records`, those of a table the tool's name names
    first (find_class's `name` is a class's name, not the caller's); for an id no record
    names so ("to_account_id"), of the field its name ends with ("account_id"), one that
    another argument has not `taken` (a transfer's two accounts differ)."""
    tables = sorted(records, key=lambda t: _stem(t) not in tool)
    rows = [r for table in tables for r in records[table].values() if isinstance(r, dict)]
    for record in rows:
        value = record.get(name)
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            return value
    if not name.endswith("_id"):
        return None
    ends = sorted({k for r in rows for k in r if k.endswith("id") and name.endswith("_" + k)})
    used = set(taken)
    for record in rows:
        for key in ends:
            value = record.get(key)
            if isinstance(value, str) and value not in used:
                return value
    return None


def example_arguments(
    tool: str, parameters: dict[str, Any], records: dict[str, Record]
) -> dict[str, Any] | None:
    """Arguments for one call of `tool` from the shown `records` (module docstring); None
    when a required argument has no value to take."""
    arguments: dict[str, Any] = {}
    required = set(parameters.get("required", []))
    for name, schema in parameters.get("properties", {}).items():
        value = _field_value(records, name, tool, arguments.values())
        if value is None and schema.get("enum"):
            value = schema["enum"][0]
        if value is None and not name.endswith("id"):  # an example id names no record
            example = _EXAMPLE.search(schema.get("description", ""))
            value = example[1] if example else None
        if value is None and schema.get("type") in ("integer", "number"):
            value = max(1, schema.get("minimum", 1))  # one bag, one seat, a dollar
        if value is None:
            if name in required:
                return None
            continue
        if schema.get("type") == "string":
            value = str(value)
        elif schema.get("type") in ("number", "integer") and isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                return None
        arguments[name] = value
    return arguments


def _call(name: str, arguments: dict[str, Any]) -> str:
    shown = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in arguments.items())
    return f"{name}({shown})"


async def tool_returns(
    pool: SandboxPool, domain: Domain, state: Record, records: dict[str, Record]
) -> str:
    """The text of one real call per tool (module docstring), "" when no tool could be
    called."""
    specs = domain.toolkit.specs()
    calls: list[tuple[str, dict[str, Any]]] = []
    lines: dict[str, str] = {}
    for schema in domain.toolkit.schemas():
        name = schema["function"]["name"]
        if name in _SKIP:
            continue
        arguments = example_arguments(name, schema["function"]["parameters"], records)
        if arguments is None:
            lines[name] = f"- {name}: (no shown value fits its arguments: no example call)"
        else:
            calls.append((name, arguments))
    if not calls:
        return ""
    state_json = canonical_state(state)
    reads = [c for c in calls if specs[c[0]].kind is not ToolKind.WRITE]
    writes = [c for c in calls if specs[c[0]].kind is ToolKind.WRITE]
    outcomes = []
    for batch in ([reads] if reads else []) + [[call] for call in writes]:
        done, _ = await pool.replay(domain.name, state_json, batch)
        outcomes += list(zip(batch, done, strict=True))
    for (name, arguments), outcome in outcomes:
        text = " ".join(outcome.output.split())
        cut = text[:MAX_RESULT] + (" ..." if len(text) > MAX_RESULT else "")
        arrow = "returns" if outcome.status == "ok" else "fails"
        lines[name] = f"- {_call(name, arguments)} {arrow}: {cut}"
    order = [s["function"]["name"] for s in domain.toolkit.schemas()]
    body = "\n".join(lines[n] for n in order if n in lines)
    return (
        "# What the tools return: one real call of each on these records (an example, not "
        "part of any task; each write on its own copy, so none of them has happened)\n" + body
    )
