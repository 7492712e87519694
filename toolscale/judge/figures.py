"""Stated figures must be true: every amount, count and date an agent tells the caller is backed.

A careful grader checks each figure an agent states against what it was shown: a refund of
$52.99 when the record says $45.99, or a delivery "on 16 September" when the order says the
13th, is a wrong answer however right the rest is. Here a figure is a number (an amount, a
count, a percentage) or a date in an agent's message, read as people write them
(`toolscale.core.written`: "$1,708.50", "1708.5", "13 September", "Sep 13, 2025"); the ids, times
and list numbering in a text are not figures, nor is a number that begins a name ("89 Tracy
Fort"), and a JSON answer is read for its "answer" field (a stated confidence is no figure).

A number is *backed* when it is shown (in a tool result, the caller's words, the policy; a
count in words, "two tickets", is a number), counted (the records a result lists, the days
between two shown dates), or, for an amount (written with "$", cents or "dollars"), made the
obvious way: the sum or difference of two of the records' amounts (paid 45.00, fee 5.00,
refund 40.00), or a shown amount times a count of at most MAX_COUNT (3 tickets at 45.00 are
135.00). An amount is backed by amounts: a record's decimal ("95.7"), a whole number of at least
MONEY_INT, a calculator's result; "7.00" is not backed by "year 7".

A date is backed when shown (on its day and month, its year and weekday when it names them),
or when it is a shown date moved by a period of a week or more that the inputs state ("valid
for a year", "within 30 days"): a date a few days off a record is the usual wrong date, so no
other date arithmetic is read in. `unbacked_figures` lists the figures that are none of these;
the verifier rejects an attempt that states one (on the domains that ask it to,
`Domain.checks_figures`). Nothing here knows a domain.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from toolscale.core.written import MONTHS, WEEKDAYS, Written, dates, plain
from toolscale.economics.preferences import answer_text

MAX_COUNT = 20  # the largest count a shown amount is multiplied by ("3 tickets at $45.00")
MONEY_INT = 100  # a whole number this large in a record may be an amount ("daily_limit": 750)
MIN_DAYS = 7  # the shortest period, in days, a date is moved by
_UNITS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip
COUNT_WORDS = {w: i for i, w in enumerate(_UNITS)} | {"once": 1, "twice": 2, "both": 2, "pair": 2}
# A number, with what marks it as money: a "$" before it, cents, or a currency word after it.
# Not a number: one inside a word, an id, a code or a date ("TK22071", "2025-06-30").
_NUMBER = re.compile(
    r"(?<![\w.:/#-])(?P<dollar>\$\s?)?(?P<value>-?\d+(?:\.(?P<cents>\d+))?)(?![\w.:/-]*\d)"
    r"(?P<unit>\s*(?:usd|dollars?)\b)?"
)
# What is no figure: times of day ("7:30 pm", "19:30", "7pm") and list numbering ("1. ").
_TIME = re.compile(
    r"(?<![\d:.])\d{1,2}(?:[:.]\d{2})?\s*[ap]\.?\s?m\b\.?|(?<![\d:.])\d{1,2}:\d{2}(?::\d{2})?"
)
_LIST_MARK = re.compile(r"(?m)^\s*\(?\d{1,2}[.)]\s")
# A period an input states: "30 days", "a year", "two weeks", "12 months".
_PERIOD = re.compile(r"\b(\d+|an?|one|two|three|four|six|twelve)[ -](day|week|month|year)s?\b")
_PERIOD_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "six": 6}
_DAYS = {"day": 1, "week": 7}
# A number that begins a name: "89 Tracy Fort", "22 David Rapid" (not "3 May Road"'s date).
_NAMED = re.compile(r"(?<![\w.,$])\d+(?= [A-Z][a-z]+ [A-Z])")
_WORD = re.compile(r" ([A-Za-z]+)")


@dataclass(frozen=True)
class Figure:
    """A number as written: its value, its wording, and whether it is written as money."""

    value: float
    text: str
    money: bool

    @property
    def cents(self) -> int:
        return round(self.value * 100)


def _figures(text: str, places: int) -> list[Figure]:
    """The numbers of `text`; money is one marked as such or written with `places` decimals
    (any for a record's "95.7", two for an agent's "95.70")."""
    return [
        Figure(
            float(m["value"]),
            m[0].strip(),
            bool(m["dollar"] or m["unit"] or (m["cents"] and len(m["cents"]) >= places)),
        )
        for m in _NUMBER.finditer(text)
    ]


@dataclass(frozen=True)
class Shown:
    """What the agent was shown: the numbers, counts, dates and periods of its inputs."""

    numbers: tuple[Figure, ...]
    records: tuple[Figure, ...]  # the numbers of the records and the caller's words alone
    counts: frozenset[int]
    dates: tuple[dt.date, ...]
    partial: tuple[Written, ...]  # dates written without a year ("13 September")
    periods: frozenset[tuple[int, str]]  # (how many, "day" / "week" / "month" / "year")

    def backs(self, said: Figure) -> bool:
        """Whether the stated number `said` is shown, counted or made from shown amounts: money
        from amounts, any other number from any shown number or count (module docstring)."""
        if not said.money:
            if said.cents in {n.cents for n in self.numbers} or said.value in self.counts:
                return True
            return said.value.is_integer() and any(said.value == d.year for d in self.dates)
        amounts = {n.cents for n in self.numbers if n.money or n.value >= MONEY_INT}
        if said.cents in amounts:
            return True
        records = sorted({n.cents for n in self.records if n.money or n.value >= MONEY_INT})
        records = [a for a in records if a > 0]
        if any(said.cents in (a + b, b - a) for a, b in combinations(records, 2)):
            return True
        counts = {int(n.value) for n in self.numbers if not n.money and n.value.is_integer()}
        counts = {c for c in counts | self.counts if 1 < c <= MAX_COUNT}
        return any(a * c == said.cents for a in amounts if a > 0 for c in counts)

    def has_date(self, said: Written) -> bool:
        """Whether the stated date `said` is shown, or a shown date moved by a shown period."""
        if any(said.means(day) for day in self.dates):
            return True
        steps = [(n * sign, unit) for n, unit in self.periods for sign in (1, -1)]
        if any(said.means(d) for day in self.dates for n, u in steps for d in _moved(day, n, u)):
            return True
        return any(
            (p.month, p.day) == (said.month, said.day)
            and (said.year is None or p.year in (None, said.year))
            and said.weekday in (None, p.weekday)  # "Sunday 17 November" is not "17 November"
            for p in self.partial
        )


def _moved(day: dt.date, n: int, unit: str) -> list[dt.date]:
    """`day` moved by n units (a month or a year keeps the day of the month where it can)."""
    if unit in _DAYS:
        return [day + dt.timedelta(days=n * _DAYS[unit])]
    months = day.month - 1 + n * (12 if unit == "year" else 1)
    try:
        return [day.replace(year=day.year + months // 12, month=months % 12 + 1)]
    except ValueError:  # 31 March + a month
        return []


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


def _periods(text: str) -> Iterator[tuple[int, str]]:
    for n, unit in _PERIOD.findall(text.casefold()):
        count = int(n) if n.isdigit() else _PERIOD_WORDS.get(n, 12)
        if count * _DAYS.get(unit, MIN_DAYS) >= MIN_DAYS:
            yield count, unit


def shown(records: Iterable[str], instructions: Iterable[str] = ()) -> Shown:
    """What the agent was shown (module docstring): `records` are the tool results and the
    caller's messages, `instructions` the policy and any other text it was given. Amounts are
    added or subtracted only when both are the records' ("paid 45.00, fee 5.00, refund
    40.00"); two amounts of the policy make no third."""
    found: list[Figure] = []
    mine: list[Figure] = []
    counts: set[int] = set()
    full: set[dt.date] = set()
    partial: list[Written] = []
    periods: set[tuple[int, str]] = set()
    for text, of_records in (*((t, True) for t in records), *((t, False) for t in instructions)):
        periods.update(_periods(text))
        figures = _figures(plain(text), 1)
        if len(figures) == 1 and figures[0].text == text.strip():  # a calculator's "71"
            figures = [Figure(figures[0].value, figures[0].text, True)]
        found += figures
        mine += figures if of_records else []
        counts.update(_counts(text))
        for mention in dates(text):
            if mention.year is None:
                partial.append(mention)
            else:
                full.add(dt.date(mention.year, mention.month, mention.day))
    days = tuple(sorted(full))
    counts.update(abs((b - a).days) for a, b in combinations(days, 2))
    return Shown(
        tuple(found), tuple(mine), frozenset(counts), days, tuple(partial), frozenset(periods)
    )


def _dated(text: str, end: int) -> bool:
    """Whether the word after a number is a month or a weekday ("3 May", not "137 Martinez")."""
    word = _WORD.match(text, end)
    return word is not None and word[1].casefold() in {*MONTHS, *WEEKDAYS}


def stated(text: str) -> tuple[list[tuple[Written, str]], list[Figure]]:
    """The dates (each with its wording) and the numbers an agent's message states: a JSON
    answer's "answer" field; not a time, a list number, or a number that begins a name."""
    text = answer_text(text)
    text = _NAMED.sub(lambda m: m[0] if _dated(text, m.end()) else "#", text)
    low = plain(text)
    mentions = dates(text)  # spans in `plain(text)`
    for start, end in {m.span for m in mentions}:  # a date's day and year are no numbers
        low = low[:start] + " " * (end - start) + low[end:]
    low = _TIME.sub(lambda m: " " * len(m[0]), low)
    low = _LIST_MARK.sub(lambda m: " " * len(m[0]), low)
    said = plain(text)
    return [(m, said[m.span[0] : m.span[1]].rstrip(".")) for m in mentions], _figures(low, 2)


def unbacked_figures(
    said: Sequence[str], records: Iterable[str], instructions: Iterable[str] = ()
) -> list[str]:
    """One reason per figure of the agent's messages `said` that what it was shown (`records`:
    tool results and the caller's messages; `instructions`: the policy) does not back:
    "stated amount not backed by any record: '$52.99'"."""
    seen = shown(records, instructions)
    problems: list[str] = []
    for text in said:
        mentions, numbers = stated(text)
        problems += [
            f"stated date not backed by any record: {words!r}"
            for mention, words in mentions
            if not seen.has_date(mention)
        ]
        problems += [
            f"stated amount not backed by any record: {figure.text!r}"
            for figure in numbers
            if not seen.backs(figure)
        ]
    return list(dict.fromkeys(problems))
