"""What one input text shows the figures check: its numbers, the counts it lists or says in
words, its dates with and without a year, the periods and percentages it states.

`toolscale.judge.figures` adds the readings of an attempt's inputs (tool results, the caller's
words, the policy) into what the agent was shown; a reading is a pure function of its text, so
`Readings` keeps those of texts every attempt of a run is shown (the policy, a task's results).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolscale.core.written import Written, dates, plain
from toolscale.judge.attributed import RecordFacts, dicts, record_facts
from toolscale.judge.figure_roles import per_unit
from toolscale.judge.stated import MONEY_KEY, Figure, figures_in

MIN_DAYS = 7  # the shortest period, in days, a date is moved by
_PERCENT = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d+)?)\s*(?:%|percent\b)")

_UNITS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip
COUNT_WORDS = {w: i for i, w in enumerate(_UNITS)} | {"once": 1, "twice": 2, "both": 2, "pair": 2}
# A period an input states: "30 days", "a year", "two weeks", "12 months".
_PERIOD = re.compile(
    r"\b(\d+|an?|one|two|three|four|five|six|seven|twelve)[ -](day|night|week|month|year)s?\b"
)
_PERIOD_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                 "seven": 7}  # fmt: skip
DAYS = {"day": 1, "night": 1, "week": 7}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}  # fmt: skip
_NUMBER_WORDS = {w: i for i, w in enumerate(_UNITS)} | _TENS
# An amount a caller says in words: "a thousand dollars", "thirty-five hundred dollars".
_WORDED_AMOUNT = re.compile(
    r"\b((?:(?:an?|and|" + "|".join(_NUMBER_WORDS) + r"|hundred|thousand)[\s-]+)+)"
    r"(?:us\s+)?(?:dollars|euros|pounds|bucks)\b"
)


def _counts(text: str) -> Iterator[int]:
    """The lengths of the lists a JSON result holds, and the counts said in words."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None
    stack: list[Any] = [value] if isinstance(value, dict | list) else []
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            yield len(item)
            stack += item
        elif isinstance(item, dict):
            stack += item.values()
    for word in re.findall(r"[a-z]+", text.casefold()):
        if word in COUNT_WORDS:
            yield COUNT_WORDS[word]


def worded_amount(words: str) -> int | None:
    """The value of number words ("thirty-five hundred": 3500, "a thousand": 1000, "two
    thousand five hundred": 2500), or None where they hold no number."""
    total = current = 0
    seen = False
    for word in re.split(r"[\s-]+", words.strip()):
        if word in _NUMBER_WORDS:
            current, seen = current + _NUMBER_WORDS[word], True
        elif word in ("a", "an"):
            current += 1
        elif word == "hundred":
            current, seen = (current or 1) * 100, True
        elif word == "thousand":
            total, current, seen = total + (current or 1) * 1000, 0, True
        elif word != "and":
            return None
    return total + current if seen else None


def _worded_amounts(text: str) -> list[Figure]:
    """The amounts `text` says in words before a currency, as money."""
    found = []
    for m in _WORDED_AMOUNT.finditer(text.casefold()):
        value = worded_amount(m.group(1))
        if value:
            found.append(Figure(float(value), m.group(0), True, m.start()))
    return found


def _periods(text: str) -> Iterator[tuple[int, str]]:
    for n, unit in _PERIOD.findall(text.casefold()):
        count = int(n) if n.isdigit() else _PERIOD_WORDS.get(n, 12)
        # a stay's nights move its check-in to its check-out, however few
        if count * DAYS.get(unit, MIN_DAYS) >= MIN_DAYS or unit == "night":
            yield count, unit


@dataclass(frozen=True)
class Reading:
    """What one text shows: its numbers (money fields included), the counts it lists or words,
    the dates it writes with and without a year, and the periods it states."""

    figures: tuple[Figure, ...]
    counts: frozenset[int]
    full: frozenset[dt.date]
    partial: tuple[Written, ...]
    periods: frozenset[tuple[int, str]]
    facts: RecordFacts  # what it gives the fields check (`toolscale.judge.attributed`)
    percents: frozenset[float] = frozenset()  # the rates it states ("a 20% fee", "10 percent")
    # the amounts it prices per unit ("$68 per game", "each point worth $0.01"), its sentences
    # read across wrapped lines; none for a JSON result
    units: frozenset[int] = frozenset()


def reading(text: str) -> Reading:
    """What `text` shows (`shown` adds the readings of an attempt's inputs up)."""
    figures = figures_in(plain(text), 1)
    if len(figures) == 1 and figures[0].text == text.strip():  # a calculator's "71"
        figures = [Figure(figures[0].value, figures[0].text, True)]
    mentions = dates(text)
    shown = figures + _money_fields(text) + _worded_amounts(text)
    return Reading(
        tuple(shown),
        frozenset(_counts(text)),
        frozenset(dt.date(m.year, m.month, m.day) for m in mentions if m.year is not None),
        tuple(m for m in mentions if m.year is None),
        frozenset(_periods(text)),
        record_facts(text),
        frozenset(float(p) for p in _PERCENT.findall(plain(text))),
        _units(text, shown),
    )


_UNWRAP = re.compile(r"\n(?![\n#|-])")  # a line break inside a paragraph or a list item


def _units(text: str, figures: list[Figure]) -> frozenset[int]:
    if text.lstrip().startswith(("{", "[")):
        return frozenset()
    said = _UNWRAP.sub(" ", plain(text))  # same length: the figures' offsets hold
    return frozenset(f.cents for f in figures if f.money and per_unit(said, f))


class Readings:
    """Each text's `reading`, kept for the next attempt that is shown it: a run's judge reads
    the same policy and system prompt for every attempt, and a task's tool results for each of
    its routes. The `size` texts read last are kept (a reading is a pure function of its text,
    so a dropped one is read again, alike)."""

    def __init__(self, size: int = 4096) -> None:
        self._kept: OrderedDict[str, Reading] = OrderedDict()
        self._size = size

    def read(self, text: str) -> Reading:
        found = self._kept.get(text)
        if found is None:
            found = self._kept[text] = reading(text)
            if len(self._kept) > self._size:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(text)
        return found

    def facts(self, text: str) -> RecordFacts:
        """What `text` gives the fields check, kept with its reading."""
        return self.read(text).facts


def _money_fields(text: str) -> list[Figure]:
    """The numbers of a JSON record's money fields, as money: "balance": 63 backs "$63", where
    a bare 63 in text is no amount (a "year 7" backs no "7.00")."""
    if not text.lstrip().startswith(("{", "[")):
        return []
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return []
    return [
        Figure(float(item), str(item), True)
        for record in dicts(value)
        for key, item in record.items()
        if isinstance(item, int | float) and not isinstance(item, bool)
        and MONEY_KEY.search(key.casefold())
    ]  # fmt: skip
