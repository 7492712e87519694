"""The receipt rule: what a gold write returns agrees with a read of the same record after it.

A write's result is the caller's receipt ("seats_left": 1, "balance": 5864.42); a careful agent
reads it back to the caller as the world's state. So after each WRITE call of a gold route, every
READ tool whose required parameters the write named (its arguments, or the id fields of its
result: the `trip_id` of a sign-up, the `dispute_id` a dispute created) is called on the state
after the write; when the read is of the same record (the stored record both share most fields
with: a ticket is not its game, a prescription not its patient), every top-level field the two
share must hold the same value (numbers compared as numbers: "5864.42" equals 5864.42). A
sign-up that returns the seats left before it took the last one breaks it.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from toolscale.core.contract import Action, ToolError, ToolKind, Toolkit
from toolscale.core.registry import get_domain


def _same(a: Any, b: Any) -> bool:
    try:
        return abs(float(a) - float(b)) < 1e-6
    except (TypeError, ValueError):
        return a == b


def _readers(toolkit: type[Toolkit]) -> dict[str, list[str]]:
    """READ tools and their required parameters: {tool: parameters}."""
    specs = toolkit.specs()
    found = {}
    for schema in toolkit.schemas():
        name = schema["function"]["name"]
        required = schema["function"]["parameters"].get("required", [])
        if specs[name].kind is ToolKind.READ and required:
            found[name] = list(required)
    return found


def _key(record: dict[str, Any], state: dict[str, Any]) -> tuple[str, Any] | None:
    """What a result is the record of: the id field and value ("trip_id", "T1") of the stored
    record it shares most fields with (a prescription, not the patient its `patient_id` names),
    found in the state's tables, so a state's key order (sorted in a sandbox worker) does not
    matter; None when no table holds it or two fit as well."""
    scored = []
    for key, value in record.items():
        if not key.endswith("_id") or not isinstance(value, str):
            continue
        for name, table in state.items():
            stored = table.get(value) if isinstance(table, dict) else None
            if isinstance(stored, dict) and (name == f"{key[:-3]}s" or stored.get(key) == value):
                scored.append((len(set(record) & set(stored)), key, value))
    best = max(scored, default=None)
    if best is None or [s[0] for s in scored].count(best[0]) > 1:
        return None
    return best[1], best[2]


def receipt_problems(
    toolkit: type[Toolkit], state: dict[str, Any], actions: list[Action]
) -> list[str]:
    """Every field of a gold write's result that a read of the same record after it contradicts,
    one line each (a route whose calls fail is not judged here: check-domain's gold check is)."""
    kit = toolkit(copy.deepcopy(state))
    specs, readers = toolkit.specs(), _readers(toolkit)
    found: list[str] = []
    for action in actions:
        try:
            result = getattr(kit, action.name)(**action.arguments)
        except ToolError:
            return found
        if specs[action.name].kind is not ToolKind.WRITE or not isinstance(result, dict):
            continue
        named = {**{k: v for k, v in result.items() if isinstance(v, str)}, **action.arguments}
        for reader, parameters in readers.items():
            if not all(isinstance(named.get(p), str) for p in parameters):
                continue
            asked = {p: named[p] for p in parameters}
            try:
                read = getattr(kit, reader)(**asked)
            except ToolError:
                continue
            mine = _key(result, kit.state)
            if not isinstance(read, dict) or mine is None or _key(read, kit.state) != mine:
                continue  # another record (the game of a ticket): its fields are its own
            for key, value in result.items():
                if (
                    key in read
                    and not isinstance(value, dict | list)
                    and not _same(value, read[key])
                ):
                    args = ", ".join(f"{p}={v!r}" for p, v in asked.items())
                    found.append(
                        f"{action.name} returned {key}={value!r}, but {reader}({args}) after it "
                        f"reads {read[key]!r}"
                    )
    return found


def receipts_in(
    domain: str, state_json: str, actions: list[dict[str, Any]], call_timeout_s: float
) -> list[str]:
    """`receipt_problems` of a gold route: what a sandbox worker runs for check-domain."""
    route = [Action(a["name"], a["arguments"]) for a in actions]
    return receipt_problems(get_domain(domain).toolkit, json.loads(state_json), route)
