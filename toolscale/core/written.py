"""Dates, times and numbers as people write them: each mention in a text, read as its value.

`numbers` reads "$1,708.50", "1708.5" and "24 years" as numbers (not the parts of a date or a
time); `dates` reads "2025-09-13", "13 September", "Sep 13, 2025", "Saturday 13 September",
"13/09/2025", "13th of Sept." as (year or None, month, day); `times` reads "19:30", "7:30 pm",
"7.30 p.m.", "7pm", "noon". Every reading is a fixed regular expression over English month and
weekday names (no locale, no fuzzy parser: `dateutil`'s fuzzy mode finds a date in any number),
so the same text always gives the same values. `toolscale.core.answers` compares them with a
fact or an expected answer; nothing here decides what counts as stated.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

MONTHS = {
    **{m: i for i, m in enumerate(
        ("january", "february", "march", "april", "may", "june", "july", "august",
         "september", "october", "november", "december"), 1)},
    **{m: i for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)},
    "sept": 9,
}  # fmt: skip
WEEKDAYS = {
    **{d: i for i, d in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))},
    **{d: i for i, d in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))},
    "tues": 1, "thur": 3, "thurs": 3,
}  # fmt: skip

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_WEEKDAY = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_ON = rf"(?:(?P<weekday>{_WEEKDAY})\.?,?\s+(?:the\s+)?)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4})(?!\d))?"
_DATE_FORMS = (
    re.compile(r"(?<![\d/.-])(?P<year>\d{4})([-/])(?P<month>\d{1,2})\2(?P<day>\d{1,2})(?![\d/-])"),
    re.compile(
        rf"(?<![\w.]){_ON}(?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+"
        rf"(?P<month>{_MONTH})(?![a-z])\.?{_YEAR}"
    ),
    re.compile(
        rf"(?<![\w.]){_ON}(?P<month>{_MONTH})(?![a-z])\.?\s+(?:the\s+)?(?P<day>\d{{1,2}})"
        rf"(?:st|nd|rd|th)?(?![\w:]|\.\d){_YEAR}"
    ),
)
_SLASHED = re.compile(r"(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/-]|\.\d)")
_CLOCK = re.compile(
    r"(?<![\d:.])(?P<hour>\d{1,2})(?:(?P<sep>[:.])(?P<minute>\d{2}))?(?![\d:])"
    r"(?:\s*(?P<half>[ap])\.?\s?m\b\.?)?"
)
# A number: not part of a word, an id, a date or a time ("12:30", "2025-06-30", "TK60983").
_NUMBER = re.compile(r"(?<![\w.:/-])-?\d+(?:\.\d+)?(?![\w.:/-]*\d)")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# Two short numbers joined by a hyphen: a score or a range ("109-97", "3-5"), not a date's or an
# id's parts ("2025-06-30", "555-7300", "A-12-3").
_PAIR = re.compile(r"(?<![\w.:/-])(\d{1,3})-(\d{1,3})(?![\w:/-]|\.\d)")

# Small whole numbers as people write them in words, zero to twenty.
NUMBERS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)


@dataclass(frozen=True)
class Written:
    """A date as written: `year` is None when the text gives none ("13 September"); `weekday`
    (0 = Monday) when it names one ("Saturday 13 September")."""

    year: int | None
    month: int
    day: int
    weekday: int | None = None
    span: tuple[int, int] = (0, 0)

    def means(self, date: dt.date) -> bool:
        """Whether this mention is `date`: the same day and month, the same year when it gives
        one, and the weekday of that date when it names one."""
        if (self.month, self.day) != (date.month, date.day):
            return False
        if self.year is not None and self.year != date.year:
            return False
        return self.weekday is None or self.weekday == date.weekday()


def plain(text: str) -> str:
    """`text` for reading values: lower case, a Unicode minus as "-", no thousands commas."""
    return _THOUSANDS.sub("", text.casefold().replace("\u2212", "-"))


def numbers(text: str) -> list[float]:
    """Every number the text states, thousands separators and currency signs ignored:
    "$1,708.50 for 24 years" -> [1708.5, 24.0]; "on 2025-06-30 at 12:30" -> []; a score or a
    range of two short numbers is both ("won 109-97" -> [109.0, 97.0]), an id or a date none."""
    return [float(m) for m in _NUMBER.findall(_PAIR.sub(r"\1 to \2", plain(text)))]


def _valid(year: int | None, month: int, day: int) -> bool:
    try:
        dt.date(year or 2024, month, day)  # 2024: a leap year, so "29 February" is a date
    except ValueError:
        return False
    return True


def dates(text: str) -> list[Written]:
    """Every date the text mentions. A slashed or dotted date ("05/09/2025") is read both day
    first and month first where both are dates (people write both); a two-digit year is 20YY."""
    low = plain(text)
    found: list[Written] = []
    for form in _DATE_FORMS:
        for m in form.finditer(low):
            month = m["month"]
            month_no = int(month) if month.isdigit() else MONTHS[month]
            year = int(m["year"]) if m["year"] else None
            named = m.groupdict().get("weekday")
            weekday = WEEKDAYS[named] if named else None
            if _valid(year, month_no, int(m["day"])):
                found.append(Written(year, month_no, int(m["day"]), weekday, m.span()))
    for m in _SLASHED.finditer(low):
        a, b, year = int(m[1]), int(m[3]), int(m[4])
        year += 2000 if year < 100 else 0
        for day, month in dict.fromkeys(((a, b), (b, a))):
            if _valid(year, month, day):
                found.append(Written(year, month, day, None, m.span()))
    return found


def iso_date(fact: str) -> dt.date | None:
    """The date an ISO fact ("2025-09-13") names, else None."""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", fact.strip()):
        return None
    try:
        return dt.date.fromisoformat(fact.strip())
    except ValueError:
        return None


def clock(fact: str) -> tuple[int, int] | None:
    """The (hour, minute) a 24-hour time fact ("19:30") names, else None."""
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", fact.strip())
    if m is None or int(m[1]) > 23 or int(m[2]) > 59:
        return None
    return int(m[1]), int(m[2])


def times(text: str) -> list[tuple[int, int]]:
    """Every time of day the text states, as (hour, minute) on a 24-hour clock: "19:30",
    "7:30 pm", "7.30 p.m.", "7pm", "noon", "midnight". A bare number is no time, and a dotted
    one ("7.30") only with am or pm (else it is a decimal)."""
    low = plain(text)
    found = [(12, 0)] * len(re.findall(r"\bnoon\b", low))
    found += [(0, 0)] * len(re.findall(r"\bmidnight\b", low))
    for m in _CLOCK.finditer(low):
        hour, minute = int(m["hour"]), int(m["minute"] or 0)
        if m["half"]:
            if not 1 <= hour <= 12 or minute > 59:
                continue
            found.append((hour % 12 + (12 if m["half"] == "p" else 0), minute))
        elif m["sep"] == ":" and hour <= 23 and minute <= 59:
            found.append((hour, minute))
    return found
