"""Hostile tool arguments: for one tool's JSON schema, the schema-valid values that break careless
tools (empty, boundary, huge, negative, non-finite, long and odd-unicode strings, wrong but
plausible ids, deep nesting), one parameter at a time.

The catalogue is what a model can send: every value here survives the sandbox's schema check
(`argument_errors`) for the tool it is offered to, so it reaches the tool's own code. NaN and the
infinities are included for numbers because Python's JSON parser, which reads every model's
arguments, accepts `NaN`, `Infinity` and `1e999`. `toolscale.check.fuzz` runs these calls in
check-domain; the hostile loopback endpoint of the benchmarks and tests sends them to `generate`.
Nothing here executes a tool.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolscale.core.contract import Toolkit
from toolscale.sandbox.execute import argument_errors

HUGE_CHARS = 100_000
BOMBS = ("(((9**64)**64)**64)**64", "9**64*9**64*9**64*9**64", "9" * 450, "1e308*1e308")
# combining accent, bidi override, zero-width space, BOM, astral letter, emoji, NUL
_ODD = "Z\u0301\u202e\u200b\ufeff\U0001d518\U0001f600\u0000"

STRINGS: tuple[tuple[str, str], ...] = (
    ("empty", ""),
    ("blank", "   "),
    ("huge", "x" * HUGE_CHARS),
    ("odd_unicode", _ODD),
    ("lone_surrogate", "\ud800"),
    ("negative_text", "-1"),
    ("nan_text", "NaN"),
    ("overflow_text", "1e308"),
    ("long_digits", "9" * 5000),
    ("sql", "' OR 1=1 --"),
    ("path", "../../../../etc/passwd"),
    *((f"bomb_{i}", b) for i, b in enumerate(BOMBS)),
)
INTEGERS: tuple[tuple[str, int], ...] = (
    ("zero", 0),
    ("minus_one", -1),
    ("int64_max_plus_1", 2**63),
    ("int64_min", -(2**63)),
    ("googol", 10**100),
    ("huge_int", 10**400),
)
FLOATS: tuple[tuple[str, float], ...] = (
    ("negative_zero", -0.0),
    ("tiny", 5e-324),
    ("third_cent", 0.003),
    ("max_float", 1.7976931348623157e308),
    ("min_float", -1.7976931348623157e308),
    ("nan", float("nan")),
    ("inf", float("inf")),
    ("minus_inf", float("-inf")),
)


def _nested(depth: int, leaf: Any, kind: str) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value] if kind == "array" else {"a": value}
    return value


def _types(schema: dict[str, Any]) -> set[str]:
    """The JSON types `schema` admits (every type when it says none)."""
    found: set[str] = set()
    kind = schema.get("type")
    if isinstance(kind, str):
        found.add(kind)
    elif isinstance(kind, list):
        found.update(kind)
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key, []):
            found |= _types(option)
    if schema.get("nullable"):
        found.add("null")
    if not found and "enum" not in schema:
        found = {"string", "integer", "number", "boolean", "array", "object", "null"}
    return found


def plausible_ids(base: str) -> Iterator[tuple[str, str]]:
    """Wrong-but-plausible variants of a valid value: other case, padded, cut, one digit off."""
    if not base:
        return
    variants = {"id_lower": base.lower(), "id_padded": f"  {base}\t", "id_cut": base[:-1]}
    variants["id_doubled"] = base * 2
    digits = [i for i, c in enumerate(base) if c.isdigit()]
    if digits:
        i = digits[-1]
        variants["id_digit_off"] = f"{base[:i]}{(int(base[i]) + 1) % 10}{base[i + 1 :]}"
    yield from ((label, v) for label, v in variants.items() if v != base)  # none is the base


def values(schema: dict[str, Any], base: Any = None) -> Iterator[tuple[str, Any]]:
    """(label, value) of every hostile value for one parameter's schema (`base`: a valid value,
    from a gold route, that wrong-but-plausible variants are made of)."""
    types = _types(schema)
    if "string" in types:
        yield from STRINGS
        if isinstance(base, str):
            yield from plausible_ids(base)
    if types & {"integer", "number"}:
        yield from INTEGERS
        if isinstance(base, int | float) and not isinstance(base, bool):
            yield "base_negated", -base
            yield "base_times_1e6", base * 10**6
    if "number" in types:
        yield from FLOATS
    if "boolean" in types:
        yield from (("true", True), ("false", False))
    if "null" in types:
        yield "null", None
    if "array" in types:
        item = schema.get("items", {})
        yield "empty_array", []
        yield "nested_array", _nested(60, 0, "array")
        yield "long_array", [next(values(item), ("", 0))[1]] * 10_000
        for label, value in list(values(item))[:8]:
            yield f"array_of_{label}", [value]
    if "object" in types:
        yield "empty_object", {}
        yield "nested_object", _nested(60, 0, "object")


@dataclass(frozen=True)
class HostileCall:
    """One call of a tool with one parameter (`parameter`, "" for a tool with none) set to the
    hostile value `label`, every other argument as in `base`."""

    tool: str
    arguments: dict[str, Any]
    parameter: str
    label: str


def calls(
    toolkit: type[Toolkit], tool: str, base: dict[str, Any], limit: int, rng: random.Random
) -> list[HostileCall]:
    """At most `limit` schema-valid hostile calls of `tool`, drawn with `rng` when there are more
    (kept in catalogue order); a tool without parameters gets its one plain call."""
    schema = next(s for s in toolkit.schemas() if s["function"]["name"] == tool)
    properties = schema["function"]["parameters"].get("properties", {})
    if not properties:
        return [HostileCall(tool, {}, "", "no_arguments")]
    found = []
    for name, prop in properties.items():
        for label, value in values(prop, base.get(name)):
            arguments = {**base, name: value}
            if not argument_errors(toolkit, tool, arguments):
                found.append(HostileCall(tool, arguments, name, label))
    if len(found) > limit:
        keep = set(rng.sample(range(len(found)), limit))
        found = [call for i, call in enumerate(found) if i in keep]
    return found


def schema_base(toolkit: type[Toolkit], tool: str) -> dict[str, Any]:
    """Plain arguments for a tool no route calls: the first enum value, "x", 1, true, [] or {}."""
    schema = next(s for s in toolkit.schemas() if s["function"]["name"] == tool)
    parameters = schema["function"]["parameters"]
    plain = {"string": "x", "integer": 1, "number": 1.0, "boolean": True, "array": [], "object": {}}
    base = {}
    for name in parameters.get("required", []):
        prop = parameters["properties"][name]
        if prop.get("enum"):
            base[name] = prop["enum"][0]
        else:
            kinds = _types(prop) - {"null"}
            base[name] = plain[min(kinds)] if kinds else None
    return base
