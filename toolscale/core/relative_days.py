"""Days said by their distance from today: "tomorrow", "this Wednesday", "next Friday".

A policy gives its clock ("Today is 2025-07-14", `policy_today`); a caller who asks for "a table
this Wednesday" names 2025-07-16 by it, and an agent who writes "Free cancellation ended today
at 12:30" names 2025-07-14. `relative_days` reads such phrases as the dates they can mean: the
words ("today", "tonight", "tomorrow", "the day after tomorrow", "yesterday") one date each; a
weekday, bare or after "this", "on" or "coming", the next such day from today on; "next
Friday" both the coming Friday and the one a week later (people mean either); "last Friday" the
one before today; "this weekend" the coming Saturday and Sunday; "the end of the month" its
last seven days, "the start of next month" that month's first seven, "this week" today to
Sunday, "next week" its Monday to Sunday. A fixed reading, no fuzzy parser, so the same text
always gives the same dates.
"""

from __future__ import annotations

import datetime as dt
import re

from toolscale.core.written import WEEKDAYS, iso_date

# The clock a policy gives: "Today is 2025-09-18", "Today's date is 2025-06-30".
_TODAY = re.compile(r"\btoday(?:'s date)? is (\d{4}-\d{2}-\d{2})\b", re.IGNORECASE)
WORDS = {"yesterday": -1, "today": 0, "tonight": 0, "tomorrow": 1, "day after tomorrow": 2}
_WORD = re.compile(
    r"\b(?:the )?(" + "|".join(sorted(WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE
)
_NAMES = "|".join(sorted((d for d in WEEKDAYS if len(d) > 3), key=len, reverse=True))
_WEEKDAY = re.compile(
    rf"\b(?:(this|next|last|coming|on)\s+)?({_NAMES})\b(?!\s+\d)", re.IGNORECASE
)  # not "Wednesday 16 July", which `written.dates` reads whole
_WEEKEND = re.compile(r"\b(this|next|the|coming) weekend\b", re.IGNORECASE)
# a stretch of days: "the end of the month", "next week", "the start of next month"
_STRETCH = re.compile(
    r"\b(?:(end|start|beginning) of (?:the |this )?(next )?month|(this|next) week)\b",
    re.IGNORECASE,
)


def policy_today(policy: str) -> dt.date | None:
    """The date a policy says today is ("Today is 2025-09-18; ..."), None when it says none."""
    found = _TODAY.search(policy)
    return iso_date(found[1]) if found else None


def _coming(today: dt.date, weekday: int) -> dt.date:
    """The first day of that weekday from today on."""
    return today + dt.timedelta(days=(weekday - today.weekday()) % 7)


def _stretch(today: dt.date, found: re.Match[str]) -> set[dt.date]:
    """The days of "the end of the month" (its last 7), "the start of next month" (its first
    7), "this week" (today to Sunday) or "next week" (Monday to Sunday)."""
    day = dt.timedelta(days=1)
    if found[3]:
        if found[3].casefold() == "this":
            return {today + n * day for n in range(7 - today.weekday())}
        monday = today + (7 - today.weekday()) * day
        return {monday + n * day for n in range(7)}
    first = today.replace(day=1)
    if found[2]:
        first = (first + 32 * day).replace(day=1)
    following = (first + 32 * day).replace(day=1)
    if found[1].casefold() == "end":
        return {following - n * day for n in range(1, 8)}
    return {first + n * day for n in range(7)}


def relative_days(text: str, today: dt.date, weekdays: bool = True) -> set[dt.date]:
    """The dates `text` names by their distance from `today` (module docstring); `weekdays`
    False reads the words only ("tomorrow", not "Wednesday")."""
    found = {today + dt.timedelta(days=WORDS[m[1].casefold()]) for m in _WORD.finditer(text)}
    if not weekdays:
        return found
    week = dt.timedelta(days=7)
    for m in _WEEKDAY.finditer(text):
        lead, day = (m[1] or "").casefold(), _coming(today, WEEKDAYS[m[2].casefold()])
        if lead == "last":
            found.add(day - week)
        elif lead == "next":
            first = day if day > today else day + week
            found |= {first, first + week}
        else:
            found.add(day)
    for m in _STRETCH.finditer(text):
        found |= _stretch(today, m)
    for m in _WEEKEND.finditer(text):
        saturday = _coming(today, 5)
        found |= {saturday, saturday + dt.timedelta(days=1)}
        if m[1].casefold() == "next":
            found |= {saturday + week, saturday + week + dt.timedelta(days=1)}
    return found
