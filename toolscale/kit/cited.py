"""A refusal gives its own reason: one that cites another of the domain's policy rules is wrong.

A careful grader reads a refusal's reason against the records: "I can't do that: final sale"
for an order whose items are not final sale, or "card not active" on a transfer handed to a
human, tells the caller something false, however right the state is. A task tests one rule (its
template names it, "return.no.final_sale"; `toolscale.kit.broken_rules` makes it the only one
broken), so the other rules of the domain are the reasons that do not apply.

A rule is *cited* when the words of its name ("final sale", "not active", "already
transferred") appear, as whole words, in a sentence of the final answer that refuses ("can't",
"cannot", "unable", "not able", "not possible", "not allowed", "sorry", "unfortunately"). It is
not cited where the records the agent was shown hold those words (a value, a value with its
field as "Free plan" for `"plan": "Free"`, a record's name with its kind as "Free plan" for
`{"plan_id": "AP1", "name": "Free"}`, or a field that is true as "final sale" for
`"final_sale": true`): there the words describe the caller's records, as in "the Free plan
allows 2 active alerts" on a refused alert. Nothing here samples; the verifier asks it through
`KitDomain.refusal_problems`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from toolscale.core.sentences import SENTENCE

_REFUSES = re.compile(
    r"\b(?:can ?not|can't|can\u2019t|unable|not able|not possible|not allowed|sorry|"
    r"unfortunately|won't be able)\b"
)
_NAMES = ("name", "title")  # the fields that name a record of the kind its "<kind>_id" says


def words(text: str) -> str:
    """`text` for matching a rule's words: lower case, "_" and "-" as spaces, no punctuation
    but apostrophes, single spaces."""
    low = text.casefold().replace("_", " ").replace("-", " ")
    return " ".join(re.sub(r"[^\w'\u2019 ]", " ", low).split())


def rule_of(template: str) -> str:
    """The rule a template tests ("return.no.final_sale" -> "final_sale"), or "" for none."""
    for mark in (".no.", ".handoff."):
        if mark in template:
            return template.split(mark)[1]
    return ""


def _records(value: Any) -> Iterator[dict[str, Any]]:
    """Every object `value` holds, each with its plain fields only."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack += item
        elif isinstance(item, dict):
            stack += [f for f in item.values() if isinstance(f, dict | list)]
            yield {k: f for k, f in item.items() if not isinstance(f, dict | list)}


def described(records: Iterable[str]) -> str:
    """What the JSON `records` say in words, one phrase a line: each text value, each value
    followed by its field, each field that is true."""
    phrases = []
    for text in records:
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            continue
        for record in _records(value):
            kinds = [key[: -len("_id")] for key in record if key.endswith("_id")]
            for key, field in record.items():
                if field is True:
                    phrases.append(words(key))
                elif isinstance(field, str) and field:
                    phrases += [words(field), words(f"{field} {key}")]
                    if key in _NAMES:  # a plan's "name": "Free" is the "Free plan"
                        phrases += [words(f"{field} {kind}") for kind in kinds]
    return "\n".join(phrases)


def _holds(text: str, phrase: str) -> bool:
    return re.search(rf"(?<![\w']){re.escape(phrase)}(?![\w'])", text) is not None


def cited_rules(own: str, rules: Iterable[str], final: str, records: Iterable[str]) -> list[str]:
    """The rules of `rules` other than `own` that a refusing sentence of `final` cites and the
    `records` do not describe (module docstring)."""
    refusing = [words(s) for s in SENTENCE.split(final) if _REFUSES.search(s.casefold())]
    if not refusing:
        return []
    shown = described(records)
    return [
        rule
        for rule in dict.fromkeys(rules)
        if rule != own
        and any(_holds(sentence, words(rule)) for sentence in refusing)
        and not _holds(shown, words(rule))
    ]
