"""Required facts with a source: each fact a proposer names is a value found in a named field of
one gold call's result, checked with the judge's own fact matching.

A candidate's `communicate_info` lists `{"value", "action", "field"}`: the value the agent must
tell the caller, the index of the gold action whose result holds it, and the field of that
result (a name, or a dotted path: "refund_amount", "bookings.0.travel_date"; a name the result
lacks is resolved to the field of that result that states the value; "" for a result that is
not an object, such as calculate's number; a field holding a list of values, "years": [9, 10],
states each of its elements, kept as "years.0"). A value the proposer cannot know in advance
(an id a write creates) is left out: `{"action": 3, "field": "invoice_id"}` takes the field's
value from the gold execution. A refusal's reason has the action "refused": its source is the
error text of the call the policy refuses (`refused_facts`), as the kit's refusals state theirs
(`toolscale.kit.reasons`). The value matches
the field when the domain's `missing_facts` (what the verifier uses on a final answer: a number
in any format, a date in any ordinary form, text as whole words) finds one in the other; the
task then requires the field's own value (the form the judge looks for in any written form),
so a fact it keeps is one an agent that made the gold call can state. A bare name is also
looked for in every record of the result (a list of bookings holds "travel_date" in each).
Free-text assertions are not facts: a candidate may carry `nl_assertions` only when an
assertion judge is configured. A yes/no value or a zero amount is left out (no caller is told
"true"; "no fee" is no figure the fact matching reads), and a refusal whose error states no
value has no fact, as the kit's. A refusal's value the caller says themselves (the date on
their statement) is replaced by what else its error states, as for a value left out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from toolscale.core.contract import Domain, fact_stated
from toolscale.core.written import numbers
from toolscale.sandbox.execute import CallOutcome

REFUSED = "refused"


class Fact(BaseModel):
    """One required fact: `value`, found in field `field` of gold action `action`'s result (a
    `value` left empty is filled from that field; `action` "refused": the refused call's error
    text is the source, and `field` is not used)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: str = ""
    action: int | Literal["refused"]
    field: str = ""

    @field_validator("value", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        if value is None:
            return ""
        return value if isinstance(value, str) else json.dumps(value)

    @field_validator("field", mode="before")
    @classmethod
    def _field(cls, value: Any) -> Any:
        return "" if value is None else str(value).strip()


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
    if not path:
        yield result
        return
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
    scalar = not isinstance(result, dict | list)
    return next(
        (
            path
            for path, leaf in _leaves(result, "")
            if (path or scalar) and matches(domain, value, leaf)
        ),
        None,
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


def _whole(value: str, message: str) -> bool:
    """Whether `value` is a whole word (or number) of `message`: "3" is not in "30 days"."""
    return re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w-]|\.\d)", message) is not None


def _scalars(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _scalars(item)
    elif isinstance(value, list):
        for item in value:
            yield from _scalars(item)
    elif value is not None and not isinstance(value, bool):
        yield _text(value)


def refused_facts(
    message: str, outputs: list[str], said: str, shows: tuple[str, ...] = ()
) -> list[str]:
    """The reason a refusal states, as the kit's refusals do (`toolscale.kit.reasons`): the
    values the rule `shows` (what its error says proves it applies: a film's rating, not the
    caller's own birth date) that a gold look-up's result states; else the values of those
    results that the refused call's error `message` states as whole words ("full", "18");
    else the numbers of the message (the policy's limits: "at most 3"); none the caller says
    (`said`) or that names a record ("S11938")."""
    values = dict.fromkeys(v for o in outputs for v in _scalars(parsed(o)))
    ids = {v for v in values if re.fullmatch(r"[A-Z]+-?\d+[A-Z0-9]*", v)}
    shown = [
        v
        for v in shows
        if v not in ids and any(fact_stated(v, o) for o in outputs) and not fact_stated(v, said)
    ]
    shown = shown or [
        v
        for v in values
        if v not in ids and " " not in v and len(v) > 1 and _whole(v, message)
        if not fact_stated(v, said)
    ]
    if not shown:
        shown = [f"{n:g}" for n in numbers(message) if not fact_stated(f"{n:g}", said)]
    return list(dict.fromkeys(shown))


def _refused(
    domain: Domain,
    fact: Fact,
    where: str,
    refusal: CallOutcome | None,
    outputs: list[str],
    said: str,
) -> tuple[list[Fact], str]:
    """A refusal's fact (the error of the refused call its source): kept, or why not."""
    if refusal is None:
        return [], (
            f'{where}: names the source "refused" but the task names no `refused` call (the '
            "call the caller asks for that the policy refuses)"
        )
    message = refusal.output
    if fact.value and domain.missing_facts([fact.value], message, [message]):
        return [], (
            f"{where}: the refused call's error does not state it; the error is "
            f"{message[:200]!r} (name a word or number of it, or leave `value` out)"
        )
    if fact.value and not fact_stated(fact.value, said):
        return [fact], ""
    # no value named, or the caller's own detail (S9: the date on their statement), which proves
    # nothing told back: the reason is what the error states otherwise, as a kit refusal's is
    # (none found: the refusal is judged on the state and on the look-up before it)
    found = refused_facts(message, outputs, said, refusal.shows)
    return [fact.model_copy(update={"value": v}) for v in found], ""


def check_facts(
    domain: Domain,
    facts: list[Fact],
    outcomes: list[CallOutcome],
    refusal: CallOutcome | None = None,
    said: str = "",
) -> tuple[list[Fact], list[str]]:
    """The facts with their source resolved, and why any is not a value of its source.

    A fact's named field, where the result has it, must state the value (a field holding a
    list states each element); a field name the result lacks (the proposer sees records, not
    every tool's result) is resolved to the field of that same result that states the value,
    and the fact is kept with that field; a result that is not an object is the value itself,
    whatever the field. A fact without a value takes its field's. A value that no field of the
    named result states is a problem, with where it is, if anywhere. A refusal's facts
    (action "refused") come from `refusal`'s error text (`_refused`); `said` is what the
    caller says or can say."""
    kept, problems = [], []
    outputs = [o.output for o in outcomes]
    for n, fact in enumerate(facts):
        where = f"fact {n} ({fact.value or fact.field!r})"
        if fact.action == REFUSED:
            found, problem = _refused(domain, fact, where, refusal, outputs, said)
            kept += found
            problems += [problem] if problem else []
            continue
        assert isinstance(fact.action, int)
        if not 0 <= fact.action < len(outcomes):
            problems.append(
                f"{where}: names gold action {fact.action}, but the task has actions "
                f"0..{len(outcomes) - 1}"
            )
            continue
        result = parsed(outcomes[fact.action].output)
        if not isinstance(result, dict | list):
            fact = fact.model_copy(update={"field": ""})  # the result is the value itself
        values = list(at_path(result, fact.field))
        if not fact.value:
            single = next((v for v in values if not isinstance(v, dict | list)), None)
            if single is not None:
                kept.append(fact.model_copy(update={"value": _text(single)}))
                continue
            fields = ", ".join(_fields(result)) or "none (the result is not an object)"
            problems.append(
                f"{where}: gives no value, and field {fact.field!r} of gold action "
                f"{fact.action}'s result holds no single value to take (its fields: {fields})"
            )
            continue
        same = _same(domain, fact, values)
        if same is not None:  # the record's own form is what the judge looks for
            kept.append(same)
            continue
        elsewhere = locate(domain, fact.value, outputs)
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
    return [f for f in kept if not _unsayable(f.value)], problems


def _unsayable(value: str) -> bool:
    """Whether a fact's value is no value a caller is told: a yes/no field ("true") or a zero
    amount ("0.0": "no fee", "free"), which the judge's fact matching cannot find in words;
    the kit's reports leave zero amounts out alike."""
    if value.casefold() in ("true", "false"):
        return True
    try:
        return float(value.replace(",", "")) == 0
    except ValueError:
        return False


def _same(domain: Domain, fact: Fact, values: list[Any]) -> Fact | None:
    """`fact` with the record's own form of its value, where one of `values` (or an element of
    one that is a list) states it; None when none does."""
    for value in values:
        if matches(domain, fact.value, value):
            return fact.model_copy(update={"value": _text(value)})
        if isinstance(value, list):
            for n, item in enumerate(value):
                if matches(domain, fact.value, item):
                    field = f"{fact.field}.{n}" if fact.field else str(n)
                    return fact.model_copy(update={"value": _text(item), "field": field})
    return None
