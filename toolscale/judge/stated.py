"""What an agent's message states as figures: its amounts, counts and dates, read as people
write them, and nothing else (`toolscale.judge.figures` checks that each is backed).

A figure is a number (an amount, a count, a percentage) or a date. Not figures: ids, codes,
times of day ("7:30 pm"), list numbering ("1. ", "(2) "), a number that begins a name ("89 Tracy
Fort"), and a JSON block's fields other than money: `{"confidence": 0.97}` after the prose
states no amount, while `{"refund": 40.0}` states the refund (its string values are read as
text). A JSON answer is read for its "answer" field alone. A day listed before a dated one
shares its month ("boarding nights on 22 and 24 September": the 22nd is a date, not an
amount).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolscale.core.written import MONTHS, WEEKDAYS, Written, dates, plain
from toolscale.economics.preferences import answer_text

# A number, with what marks it as money: a "$" before it, cents, or a currency word after it.
# Not a number: one inside a word, an id, a code or a date ("TK22071", "2025-06-30"), or one
# glued to letters ("3D", "4K", "2nd").
_NUMBER = re.compile(
    r"(?<![\w.:/#-])(?P<dollar>\$\s?)?(?P<value>-?\d+(?:\.(?P<cents>\d+))?)(?![\w.:/-]*\d|[a-z])"
    r"(?P<unit>\s*(?:usd|dollars?)\b)?"
)
# What is no figure: times of day ("7:30 pm", "19:30", "7pm") and list numbering ("1. ").
_TIME = re.compile(
    r"(?<![\d:.])\d{1,2}(?:[:.]\d{2})?\s*[ap]\.?\s?m\b\.?|(?<![\d:.])\d{1,2}:\d{2}(?::\d{2})?"
)
# List numbering: "1. " or "(1) " starting a line, and "(2) " or "2) " within one.
_LIST_MARK = re.compile(r"(?m)^\s*\(?\d{1,2}[.)]\s|\(\d{1,2}\)\s|(?<=[\s:])\d{1,2}\)\s")
# A number that begins a name: "89 Tracy Fort", "22 David Rapid" (not "3 May Road"'s date).
_NAMED = re.compile(r"(?<![\w.,$])\d+(?= [A-Z][a-z]+ [A-Z])")
_WORD = re.compile(r" ([A-Za-z]+)")
MAX_COUNT = 20  # the largest count an amount is multiplied by ("3 tickets at $45.00")
# A record's field that holds money whatever its number looks like ("balance": 63).
MONEY_KEY = re.compile(
    r"balance|amount|price|fee|cost|total|credit|due|refund|paid|charge|fare|limit|deposit"
)
# A day listed before a dated day: "22 and 24 september", "20, 21 and 22 september".
_LISTED_DAY = re.compile(
    r"(?<![\w.$/:-])(\d{1,2})(?:st|nd|rd|th)?"
    r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&|to)\s+|\s*[-\u2013]\s*)$"
)

_DAY_FIRST = re.compile(
    r"(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+)?"
    r"\d{1,2}(?:st|nd|rd|th)?\s+[a-z]"
)  # "18 July", "Friday 18 July"


@dataclass(frozen=True)
class Figure:
    """A number as written: its value, its wording, and whether it is written as money."""

    value: float
    text: str
    money: bool
    start: int = -1  # where it begins in the text read

    @property
    def cents(self) -> int:
        return round(self.value * 100)


def figures_in(text: str, places: int) -> list[Figure]:
    """The numbers of `text`; money is one marked as such or written with `places` decimals
    (any for a record's "95.7", two for an agent's "95.70")."""
    return [
        Figure(
            float(m["value"]),
            m[0].strip(),
            bool(m["dollar"] or m["unit"] or (m["cents"] and len(m["cents"]) >= places)),
            m.start(),
        )
        for m in _NUMBER.finditer(text)
    ]


def _leaves(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, item in value.items():
            yield from _leaves(item, str(k))
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, key)
    else:
        yield key, value


def _said_of(block: Any) -> str:
    """A JSON block as the prose it states: its text values, and its money fields as amounts
    ("refund: $40.00"); its other numbers (a confidence, a score) state nothing."""
    parts = []
    for key, value in _leaves(block):
        if isinstance(value, str):
            parts.append(value)
        elif (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and MONEY_KEY.search(key.casefold())
        ):
            parts.append(f"{key.replace('_', ' ')}: ${value:.2f}")
    return ". ".join(parts)


def without_json(text: str) -> str:
    """`text` with each JSON object in it (or list holding one) replaced by what it states
    (`_said_of`)."""
    decoder = json.JSONDecoder()
    out: list[str] = []
    i = 0
    while True:
        start = min((p for p in (text.find("{", i), text.find("[", i)) if p >= 0), default=-1)
        if start < 0:
            return "".join(out) + text[i:]
        try:
            block, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            out.append(text[i : start + 1])
            i = start + 1
            continue
        if isinstance(block, dict) or (
            isinstance(block, list) and any(isinstance(b, dict) for b in block)
        ):
            out.append(text[i:start] + _said_of(block))
        else:
            out.append(text[i:end])
        i = end


def _dated(text: str, end: int) -> bool:
    """Whether the word after a number is a month or a weekday ("3 May", not "137 Martinez")."""
    word = _WORD.match(text, end)
    return word is not None and word[1].casefold() in {*MONTHS, *WEEKDAYS}


def _listed(low: str, mentions: list[Written]) -> list[Written]:
    """The days listed before a day-first date, with its month and year ("22 and 24
    september" adds the 22nd)."""
    found = []
    for mention in mentions:
        start = mention.span[0]
        if not _DAY_FIRST.match(low, start):
            continue
        while (m := _LISTED_DAY.search(low[:start])) is not None:
            day = int(m[1])
            if not 1 <= day <= 31:
                break
            found.append(Written(mention.year, mention.month, day, None, (m.start(1), m.end(1))))
            start = m.start()
    return found


def stated(text: str) -> tuple[list[tuple[Written, str]], list[Figure], str]:
    """The dates (each with its wording) and the numbers an agent's message states (module
    docstring). Last, the text read (casefolded), where the spans and starts of both lie."""
    text = without_json(answer_text(text))
    text = _NAMED.sub(lambda m: m[0] if _dated(text, m.end()) else "#", text)
    low = plain(text)
    mentions = dates(text)  # spans in `plain(text)`
    mentions += _listed(low, mentions)
    for start, end in {m.span for m in mentions}:  # a date's day and year are no numbers
        low = low[:start] + " " * (end - start) + low[end:]
    low = _TIME.sub(lambda m: " " * len(m[0]), low)
    low = _LIST_MARK.sub(lambda m: " " * len(m[0]), low)
    said = plain(text)
    mentioned = [(m, said[m.span[0] : m.span[1]].rstrip(".")) for m in mentions]
    return mentioned, figures_in(low, 2), said
