"""Values in a caller's words: small numbers as words, ISO dates with their weekday, clock times
as people say them, amounts as money. Used for goal wordings (`toolscale.kit.compose`)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from toolscale.core.written import NUMBERS

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^(\d{2}):(\d{2})$")


def alts(*texts: str) -> tuple[str, ...]:
    """The phrases of `texts`, each separated by "|": a goal's wordings or a caller's motives
    written as a paragraph ("return {ticket} | get a refund for {ticket}"), or as several
    ("return {ticket}", "get a refund for {ticket} | take back {ticket}")."""
    return tuple(phrase.strip() for text in texts for phrase in text.split("|"))


def day(iso: str) -> str:
    """'2025-06-20' -> 'Friday 20 June'."""
    when = date.fromisoformat(iso)
    return f"{when:%A} {when.day} {when:%B}"


def clock(hhmm: str) -> str:
    """'19:30' -> '7:30 pm', '12:00' -> 'noon', '18:00' -> '6 pm'."""
    match = _TIME.match(hhmm)
    if match is None:
        return hhmm
    hours, minutes = int(match[1]), int(match[2])
    if (hours, minutes) == (12, 0):
        return "noon"
    suffix = "am" if hours < 12 else "pm"
    hours = hours % 12 or 12
    return f"{hours} {suffix}" if minutes == 0 else f"{hours}:{minutes:02d} {suffix}"


def money(amount: float) -> str:
    """12.5 -> '12.50' (what a final message writes for an amount)."""
    return f"{amount:.2f}"


def spoken(value: Any) -> str:
    """A value as a caller says it: numbers up to twenty as words, ISO dates and times as above,
    anything else as text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and 0 <= value < len(NUMBERS):
        return NUMBERS[value]
    if isinstance(value, str) and _DATE.match(value):
        return day(value)
    if isinstance(value, str) and _TIME.match(value):
        return clock(value)
    return str(value)


def as_written(value: Any) -> str:
    """A value as the agent's final message writes it: amounts with two decimals, a list as its
    items with commas ("none" when empty)."""
    if isinstance(value, list):
        return ", ".join(map(as_written, value)) or "none"
    return money(value) if isinstance(value, float) else str(value)


def fact(value: Any) -> str | None:
    """A required fact for `value`, or None for a zero amount (inside too many texts to prove
    anything) or an empty value."""
    if isinstance(value, bool) or value in (None, ""):
        return None
    if isinstance(value, int | float) and value == 0:
        return None
    return str(value)


_SINGULAR = {
    "rooms": "room",
    "nights": "night",
    "degrees": "degree",
    "seats": "seat",
    "tickets": "ticket",
    "packs": "pack",
    "servings": "serving",
    "portions": "portion",
    "plates": "plate",
    "guests": "guest",
    "bags": "bag",
    "days": "day",
    "people": "person",
}
_ONE = re.compile(r"\b(one|One|1) (" + "|".join(_SINGULAR) + r")\b")
_AN = re.compile(r"\b([Aa]) (?=(?:8|11|18)(?::\d\d)?\b)")


def agree(text: str) -> str:
    """`text` with its number and article agreeing with what a value filled in: "one rooms" ->
    "one room", "a 11:30 am slot" -> "an 11:30 am slot", "a 8 am" -> "an 8 am"."""
    text = _ONE.sub(lambda m: f"{m.group(1)} {_SINGULAR[m.group(2)]}", text)
    return _AN.sub(lambda m: f"{m.group(1)}n ", text)
