"""Required facts with a source: each fact a proposer names is a value found in a named field of
one gold call's result, checked with the judge's own fact matching.

A candidate's `communicate_info` lists `{"value", "action", "field"}`: the value the agent must
tell the caller, the index of the gold action whose result holds it, and the field of that
result (a name, or a dotted path: "refund_amount", "bookings.0.travel_date"; a name the result
lacks is resolved to the field of that result that states the value). The value matches
the field when the domain's `missing_facts` (what the verifier uses on a final answer: a number
in any format, a date in any ordinary form, text as whole words) finds one in the other; the
task then requires the field's own value (the form the judge looks for in any written form),
so a fact it keeps is one an agent that made the gold call can state. A bare name is also
looked for in every record of the result (a list of bookings holds "travel_date" in each).
Free-text assertions are not facts: a candidate may carry `nl_assertions` only when an
assertion judge is configured.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from toolscale.core.contract import Domain
from toolscale.sandbox.execute import CallOutcome


class Fact(BaseModel):
    """One required fact: `value`, found in field `field` of gold action `action`'s result."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: str
    action: int
    field: str

    @field_validator("value", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return value if isinstance(value, str) else json.dumps(value)

    @field_validator("value", "field")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value


def parsed(output: str) -> Any:
    try:
        return json.loads(output)
    except json.JSONDecodeError:
        return output


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def at_path(result: Any, path: str) -> Iterator[Any]:
    """The values of `path` in `result`: a dotted path from the top ("fares.first",
    "bookings.0.status"), or else a bare field name in every object inside the result."""
    value, found = result, True
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            found = False
            break
    if found:
        yield value
        return
    if "." not in path:
        yield from _named(result, path)


def _named(value: Any, name: str) -> Iterator[Any]:
    if isinstance(value, dict):
        if name in value:
            yield value[name]
        for item in value.values():
            yield from _named(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _named(item, name)


def _fields(value: Any, prefix: str = "") -> list[str]:
    if isinstance(value, dict):
        return [f"{prefix}{k}" for k in value]
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return _fields(value[0], f"{prefix}0.")
    return []


def matches(domain: Domain, value: str, field_value: Any) -> bool:
    """Whether `value` and the scalar `field_value` state one fact, as the judge matches a fact
    in a message, either way round ("$1,708.50" and 1708.5; "gold" and "gold")."""
    if isinstance(field_value, dict | list):
        return False
    text = _text(field_value)
    return not domain.missing_facts([value], text, [text]) or not domain.missing_facts(
        [text], value, [value]
    )


def locate(domain: Domain, value: str, outputs: list[str]) -> tuple[int, str] | None:
    """The first (action, dotted field path) of `outputs` whose value states `value`."""
    for n, output in enumerate(outputs):
        path = _located(domain, value, parsed(output))
        if path is not None:
            return n, path
    return None


def _located(domain: Domain, value: str, result: Any) -> str | None:
    return next(
        (path for path, leaf in _leaves(result, "") if path and matches(domain, value, leaf)), None
    )


def _leaves(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _leaves(item, f"{path}.{n}" if path else str(n))
    else:
        yield path, value


def check_facts(
    domain: Domain, facts: list[Fact], outcomes: list[CallOutcome]
) -> tuple[list[Fact], list[str]]:
    """The facts with their source resolved, and why any is not a value of its source.

    A fact's named field, where the result has it, must state the value; a field name the
    result lacks (the proposer sees records, not every tool's result) is resolved to the field
    of that same result that states the value, and the fact is kept with that field. A value
    that no field of the named result states is a problem, with where it is, if anywhere."""
    kept, problems = [], []
    for n, fact in enumerate(facts):
        where = f"fact {n} ({fact.value!r})"
        if not 0 <= fact.action < len(outcomes):
            problems.append(
                f"{where}: names gold action {fact.action}, but the task has actions "
                f"0..{len(outcomes) - 1}"
            )
            continue
        result = parsed(outcomes[fact.action].output)
        values = list(at_path(result, fact.field))
        same = next((v for v in values if matches(domain, fact.value, v)), None)
        if same is not None:  # the record's own form is what the judge looks for
            kept.append(fact.model_copy(update={"value": _text(same)}))
            continue
        elsewhere = locate(domain, fact.value, [o.output for o in outcomes])
        hint = (
            f"; it is in gold action {elsewhere[0]}'s field {elsewhere[1]!r}"
            if elsewhere
            else "; no gold call's result states it"
        )
        if values:
            shown = _text(values[0])[:120]
            problems.append(
                f"{where}: field {fact.field!r} of gold action {fact.action}'s result is "
                f"{shown}, which does not state it{hint}"
            )
            continue
        path = _located(domain, fact.value, result)
        if path is not None:
            value = _text(next(at_path(result, path)))
            kept.append(fact.model_copy(update={"field": path, "value": value}))
            continue
        fields = ", ".join(_fields(result)) or "none (the result is not an object)"
        problems.append(
            f"{where}: gold action {fact.action}'s result has no field {fact.field!r} and no "
            f"field of it states the value (its fields: {fields}){hint}"
        )
    return kept, problems
