"""Figures tied to what they are said of: a labelled amount is that field's, a date said of a
record is that record's.

`toolscale.judge.figures` checks that a stated figure is shown somewhere or made the obvious
way; a careful grader also reads what the figure is said of. "The late fee is 7.00" when the
cancellation's record says `late_fee` 0.0, or "game G7388 tips off on 2025-11-15" when
G7388's record says 2025-11-12, is wrong even where 7.00 and 2025-11-15 are elsewhere in the
records. Two readings, both narrow, so that a figure said of nothing in particular is left to
`figures`:

- an amount right after a money field's name and "is", "was", "of", ":" or "=" ("the copay is
  20.00", "a fee of 5.00", "price difference: 0.00") is a value of that field in some record
  (the longest field name that fits), that value times a count (2 seats at a "price" of 45.00
  are 90.00), or two of its values added, or any value of the record whose id the paragraph
  names last before it ("Order TK5 ... Charged: 2908.25" is TK5's, whatever TK5 calls it);
- a date in a clause (text between ".", ";", ":", "!", "?" and ", and") that names a record's
  id, and that the caller did not say, is a date of a record that holds that id (in any of
  its shown versions; for a receipt that shows no date, of the records its other ids name),
  or one of those moved by a period the inputs state.

Records are the JSON tool results; text that is not JSON is the caller's. Nothing here knows a
domain.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from toolscale.core.written import Written, dates, iso_date
from toolscale.judge.stated import MAX_COUNT, MONEY_KEY

_LINK = re.compile(r"\s*(?:is|was|of|:|=)\s*$")
_CLAUSE = re.compile(r"[.;:!?](?=\s|$)|,\s+(?:and|but|while)\s")
_ITEM_CLAUSE = re.compile(r"[.;!?](?=\s|$)|,\s+(?:and|but|while)\s")  # "- AP1: ..." is one
_ITEM = re.compile(r"\s*(?:[-*\u2022]|\d{1,2}[.)])\s")  # a list item's mark
_LABEL_WORDS = 4  # the words before a link that may name a field whole ("ticket price paid")


@dataclass(frozen=True)
class Fields:
    """What the records say of their fields and ids: each numeric field's values (in cents, by
    the field's name in words: "late fee") and each id's dates."""

    amounts: dict[str, frozenset[int]]
    dates: dict[str, frozenset[dt.date]]  # a casefolded id -> its records' dates
    said: tuple[Written, ...] = ()  # the dates of the texts that are no records (the caller's)
    held: dict[str, frozenset[int]] = field(default_factory=dict)  # an id -> its records' cents

    def named_holds(self, text: str, start: int, cents: int) -> bool:
        """Whether the record last named before `start` in its paragraph holds `cents` in any
        field: in "Order TK5 ... Charged: $2,908.25" the amount is TK5's, whatever that
        record calls it (another record's `charged` says nothing of it)."""
        paragraph = text.rfind("\n\n", 0, start) + 1
        named = [
            (m.start(), i)
            for i in self.held
            for m in re.finditer(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text[paragraph:start])
        ]
        return bool(named) and cents in self.held[max(named)[1]]

    def amount_fits(self, label: str, cents: int) -> bool:
        """Whether `cents` is a value of the fields named `label` (or ending in it: "fee" is
        "cancellation fee" too), one times a count, or two of them added."""
        values = sorted(set().union(*(v for k, v in self.amounts.items() if _ends(k, label))))
        if cents in values or -cents in values:  # a negative value said by its size
            return True
        if any(v * c == cents for v in values if v > 0 for c in range(2, MAX_COUNT + 1)):
            return True
        return any(a + b == cents for a, b in combinations(values, 2))

    def label_before(self, text: str, start: int) -> str | None:
        """The longest money field's name, or end of one, that ends with its link word right
        before `start` ("the late fee is " names "late fee"; "the fee is " names every "...
        fee"; "seats: " names no field of an amount, whatever the records count in seats).
        A whole field's name among the label's last words comes before a mere end of another
        there: "ticket price paid: " names "ticket price", not the "paid" of "fees paid"."""
        before = text[max(0, start - 80) : start]
        link = _LINK.search(before)
        if link is None:
            return None
        head = before[: link.start()]
        names = {label for label in self.amounts if MONEY_KEY.search(label)}
        ends = {" ".join(words[k:]) for words in map(str.split, names) for k in range(len(words))}
        found = [end for end in ends if re.search(rf"(?<!\w){re.escape(end)}$", head)]
        if not found:
            return None
        best = max(found, key=len)
        if best in names:
            return best
        tail = " ".join(head.split()[-_LABEL_WORDS:])
        whole = [n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", tail)]
        return max(whole, key=len) if whole else best


def _ends(label: str, end: str) -> bool:
    return label == end or label.endswith(" " + end)


def dicts(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict in a JSON value, nested ones included."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack += item
        elif isinstance(item, dict):
            yield item
            stack += [v for v in item.values() if isinstance(v, dict | list)]


def _day(value: str) -> dt.date | None:
    return iso_date(value[:10]) if len(value) >= 10 else None


@dataclass(frozen=True)
class RecordFacts:
    """What one text gives `fields`: for a JSON text, each record's numeric fields (label and
    cents), dates and ids; for any other text (the caller's), the dates it says."""

    records: tuple[tuple[tuple[tuple[str, int], ...], frozenset[dt.date], tuple[str, ...]], ...]
    said: tuple[Written, ...] = ()


def record_facts(text: str) -> RecordFacts:
    """The facts of one text (`RecordFacts`); `fields` puts those of a trace's texts together."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return RecordFacts((), tuple(dates(text)))
    found = []
    for record in dicts(value):
        amounts: list[tuple[str, int]] = []
        days: set[dt.date] = set()
        ids: list[str] = []
        for key, item in record.items():
            if isinstance(item, bool):
                continue
            if isinstance(item, int | float):
                amounts.append((key.replace("_", " ").casefold(), round(item * 100)))
            elif isinstance(item, str) and item:
                day = _day(item)
                if day is not None:
                    days.add(day)
                elif key.casefold().endswith("id"):
                    ids.append(item.casefold())
        found.append((tuple(amounts), frozenset(days), tuple(ids)))
    return RecordFacts(tuple(found))


def fields(records: Iterable[str], read: Callable[[str], RecordFacts] = record_facts) -> Fields:
    """The fields and ids of the JSON records among `records` (module docstring); `read` gives
    each text's facts (a caller that keeps them passes its memory)."""
    amounts: dict[str, set[int]] = {}
    dated: dict[str, set[dt.date]] = {}
    receipts: list[tuple[str, ...]] = []  # the ids of records that show no date
    held: dict[str, set[int]] = {}
    said: list[Written] = []
    for text in records:
        facts = read(text)
        said += facts.said
        for pairs, days, ids in facts.records:
            for label, cents in pairs:
                amounts.setdefault(label, set()).add(cents)
            for i in ids:
                held.setdefault(i, set()).update(cents for _, cents in pairs)
            if days:
                for i in ids:
                    dated.setdefault(i, set()).update(days)
            elif len(ids) > 1:
                receipts.append(ids)
    for ids in receipts:  # a receipt's record has the dates of the records it names
        linked = set().union(*(dated.get(i, set()) for i in ids))
        for i in ids:
            dated.setdefault(i, set()).update(linked)
    return Fields(
        {k: frozenset(v) for k, v in amounts.items()},
        {k: frozenset(v) for k, v in dated.items() if v},
        tuple(said),
        {k: frozenset(v) for k, v in held.items()},
    )


def clauses(text: str) -> Iterator[tuple[int, int]]:
    """The spans of `text`'s clauses: its lines, each split at ".", ";", ":", "!" and "?" that
    end a word and at ", and", ", but", ", while"; a list item ("- AP1: boarding on 21 August")
    is not split at its colon, which follows its record's label."""
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        split = _ITEM_CLAUSE if _ITEM.match(line) else _CLAUSE
        at = start
        for m in split.finditer(line):
            yield at, start + m.start()
            at = start + m.end()
        yield at, end
        start = end + 1


def named_ids(known: Fields, text: str, span: tuple[int, int]) -> list[str]:
    clause = text[span[0] : span[1]]
    return [i for i in known.dates if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", clause)]


def _caller_said(known: Fields, mention: Written) -> bool:
    return any((w.month, w.day) == (mention.month, mention.day) for w in known.said)


Moved = Callable[[dt.date, bool], list[dt.date]]


def misdated(
    known: Fields, text: str, mentions: list[tuple[Written, str]], moved: Moved
) -> list[str]:
    """One reason per date of `mentions` (spans in `text`, casefolded) that its clause says of
    a record whose dates it is not; `moved(day, yearless)` gives a date's moved versions
    (`figures.Shown.moved`)."""
    problems = []
    for span in clauses(text):
        ids = named_ids(known, text, span)
        if not ids:
            continue
        days = set().union(*(known.dates[i] for i in ids))
        for mention, words in mentions:
            if not span[0] <= mention.span[0] < span[1] or _caller_said(known, mention):
                continue
            near = days | {d for day in days for d in moved(day, mention.year is None)}
            if not any(mention.means(day) for day in near):
                problems.append(f"stated date is not that of {ids[0].upper()}: {words!r}")
    return problems
