"""Final messages rewritten as other capable agents write them: amounts with $ and thousands
separators, dates in words, the caller's own ids left out, terse, chatty; and the wrong ones
of the negative panel (an amount or a date changed). Pure text functions of the gold final
message and the task."""

from __future__ import annotations

import datetime as dt
import json
import re

from toolscale.core.records import Task

_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTHS = "January February March April May June July August September October November December"
_WORD_DATE = re.compile(rf"\b(\d{{1,2}}) ({'|'.join(_MONTHS.split())})\b")
# An amount: a decimal with two places ("105.63", "$1259.22", "1259.22 USD").
_MONEY = re.compile(r"(?<![\w.,-])\$?(\d+)\.(\d{2})(?![\d.]*\d)(?: USD)?")
_BIG = re.compile(r"(?<![\w.,$-])(\d{4,})(?![\w.-]*\d)")  # an integer of 4+ digits
# An id: capitals then a digit somewhere ("CUS-92660", "S51347", "CARD-83A4AE", "TK22071").
ID = re.compile(r"\b[A-Z]{1,6}-?[A-Z0-9]*\d[A-Z0-9]*\b")
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w]|\.\d)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _day(match: re.Match[str], form: int) -> str:
    day = dt.date(int(match[1]), int(match[2]), int(match[3]))
    month = day.strftime("%B")
    return [
        f"{day.day} {month} {day.year}",
        f"{month[:3]} {day.day}, {day.year}",
        f"{day.strftime('%A')} {day.day} {month}",
        f"{day.day} {month}",
    ][form % 4]


def money_and_dates(text: str, form: int) -> str:
    """Amounts as "$1,259.22", integers of 4+ digits (not years) with separators, ISO dates in
    words (`form` picks one of four wordings)."""
    text = _ISO.sub(lambda m: _day(m, form), text)
    text = _MONEY.sub(lambda m: f"${int(m[1]):,}.{m[2]}", text)

    def big(match: re.Match[str]) -> str:
        value = int(match[1])
        return match[0] if 1900 <= value <= 2100 else f"{value:,}"

    return _BIG.sub(big, text)


def own_ids(task: Task, final: str) -> list[str]:
    """The ids in `final` of records the caller already had: in the initial state or said by the
    caller (an id a write created is in neither)."""
    scenario = task.user_scenario
    said = " ".join([task.instruction, *(scenario.known.values() if scenario else [])])
    state = json.dumps(task.initial_state)
    return [i for i in dict.fromkeys(ID.findall(final)) if f'"{i}"' in state or i in said]


def ids_left_out(task: Task, final: str) -> str:
    """`final` without the ids of records the caller already had: "For your records: ..."
    dropped, "(TK22071)" dropped, "card CARD-83A4AE" said "your card"."""
    ids = own_ids(task, final)
    if not ids:
        return final
    alt = "|".join(re.escape(i) for i in ids)
    sentences = [s for s in _SENTENCE.split(final) if not s.startswith("For your records")]
    text = " ".join(sentences)
    text = re.sub(rf"\s*\((?:[a-z ]*(?:{alt})[,;]?\s*)+\)", "", text)  # "(student S1, trip T2)"
    text = re.sub(rf"\b(?:the |your )?([a-z]+) (?:{alt})\b", r"your \1", text)
    text = re.sub(rf"\s*\b(?:{alt})\b", "", text)
    return re.sub(r"\s+([,.;:])", r"\1", text).strip()


def terse(final: str) -> str:
    """`final` without a short opening courtesy ("I've checked for you.", "Thanks for
    waiting.")."""
    first, *rest = _SENTENCE.split(final, maxsplit=1)
    if rest and len(first.split()) <= 6 and not re.search(r"\d", first):
        return rest[0]
    return final


def chatty(final: str) -> str:
    return (
        "Thank you so much for your patience while I looked into this for you! "
        f"{final} I hope that helps, and it was a pleasure assisting you today. "
        "Have a wonderful rest of your day!"
    )


def _shifted(match: re.Match[str]) -> str:
    day = dt.date(int(match[1]), int(match[2]), int(match[3])) + dt.timedelta(days=3)
    return day.isoformat()


def wrong_amount_or_date(final: str, task: Task) -> str | None:
    """`final` with its first amount or date changed (a required one when there is one), or None
    when it states neither."""
    for fact in task.required_facts:
        if _ISO.fullmatch(fact) and fact in final:
            return final.replace(fact, _ISO.sub(_shifted, fact))
        try:
            value = float(fact.replace(",", ""))
        except ValueError:
            continue

        def wrong(match: re.Match[str], value: float = value) -> str:
            token = match[0]
            if float(token.replace(",", "")) != value:
                return token
            places = len(token.split(".")[1]) if "." in token else 0
            return f"{value + 7:.{places}f}"

        changed = _NUMBER.sub(wrong, final)
        if changed != final:
            return changed
    for pattern, change in (
        (_MONEY, lambda m: f"{int(m[1]) + 7}.{m[2]}"),
        (_ISO, _shifted),
        (_WORD_DATE, lambda m: f"{int(m[1]) % 27 + 1} {m[2]}"),
    ):
        if pattern.search(final):
            return pattern.sub(change, final, count=1)
    return None
