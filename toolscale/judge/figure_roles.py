"""What a stated figure is said as: a claim, a rate, a bound, a step of worked arithmetic, or
an offered date (`toolscale.judge.figures` checks each as its role asks).

A careful grader reads a figure in its sentence. "The refund is $40.00" claims a record's
amount; in "$7.50 per guest" the amount is a rate (the policy's, or a total split over a
count), not the cancellation's fee; in "since the total is $100 or more" it is a bound (the
caller's limit, the policy's threshold), not the order's total; in "$4.50 x 3 = $13.50" the
agent shows its arithmetic, so the result is backed when its operands are and the sum holds;
and in "for example Tuesday 29 July" a date is offered, not said of any record. Each reading is
narrow (the words right next to the figure, or a sentence that offers), so that a figure said
of a record is still checked as a claim. Texts are as `toolscale.judge.stated.stated` reads
them (casefolded), with the figures' starts in them. Nothing here knows a domain.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from toolscale.core.sentences import END
from toolscale.core.written import Written
from toolscale.judge.stated import Figure

_UNIT = r"(?:night|day|week|month|year|person|guest|ticket|seat|head|adult|child|pack|item|unit)"
# Right after an amount: "per guest", "each", "apiece", "/night", "a night".
_RATE_AFTER = re.compile(rf"\s*(?:per\s+[a-z]|each\b|apiece\b|/\s*[a-z]|an?\s+{_UNIT}\b)")
# Right before or after a figure, a comparison: "over $100", "$100 or more".
_BOUND_BEFORE = re.compile(
    r"(?:\b(?:over|above|under|below|at least|at most|more than|less than|fewer than|up to"
    r"|no more than|exceeds?|exceeding|beyond|minimum of|maximum of)|[<>\u2264\u2265]=?)\s*$"
)
_BOUND_AFTER = re.compile(
    r"\s*(?:or|and)\s+(?:more|less|over|above|under|below|up|higher|lower|fewer)\b"
)
# What may stand between two operands, or before the result: an operator (or "=") after at
# most two words of unit ("3 tickets x $45.00 = $135.00").
_WORDS = r"\s*(?:[a-z]+\s+){0,2}"
_OPERATOR = re.compile(rf"{_WORDS}(x|\u00d7|\*|times|\+|plus|-|\u2013|minus|less|/)\s*")
_EQUALS = re.compile(rf"{_WORDS}(?:=|equals|comes to|makes)\s*")
_OPS = {"x": "*", "\u00d7": "*", "*": "*", "times": "*", "+": "+", "plus": "+", "/": "/"}
# A sentence that offers rather than states: "for example Tuesday 29 July", "how about ...".
_OFFER = re.compile(
    r"\b(?:for example|for instance|e\.g\.|such as|how about|what about|instead|alternatively"
    r"|another (?:date|day|night|time|showing|slot)|other (?:dates|days|nights|showings)"
    r"|a different (?:date|day|night)|say,|would you like|do you want|(?:shall|should|can|may) i)"
)
# A request to the caller: with "or", it asks them to choose ("Then tell me the day (Saturday 26
# July or Sunday 27 July)"), as a question with "or" does ("Saturday 19 July or Sunday 20 July?")
_TELL_ME = re.compile(r"\b(?:tell me|let me know)\b")
_OR = re.compile(r"\bor\b")
_ASKS = re.compile(rf"{_TELL_ME.pattern}|\b(?:could|can|would) you\b|\?")  # a list's lead
_PER = re.compile(r"\b(?:per|each|every|apiece)\b")
_ITEM = re.compile(r"\s*(?:[-*\u2022]|\d{1,2}[.)])\s")  # a list item's mark


@dataclass(frozen=True)
class Worked:
    """Arithmetic the agent shows: its operands, the operator before each but the first
    ("*", "/", "+", "-"), and the result it claims."""

    operands: tuple[Figure, ...]
    ops: tuple[str, ...]
    result: Figure

    def value(self) -> float:
        """The operands' value, "*" and "/" before "+" and "-": 68 x 41 + 120 is 2,908."""
        total, term = 0.0, self.operands[0].value
        for op, figure in zip(self.ops, self.operands[1:], strict=True):
            if op == "*":
                term *= figure.value
            elif op == "/":
                term = term / figure.value if figure.value else float("nan")
            else:
                total += term
                term = figure.value if op == "+" else -figure.value
        return total + term

    def holds(self) -> bool:
        """Whether the operands make the result, to the cent (people round)."""
        return abs(round(self.value() * 100) - self.result.cents) <= 1


def _end(figure: Figure) -> int:
    return figure.start + len(figure.text)


def worked(text: str, figures: Sequence[Figure]) -> list[Worked]:
    """The arithmetic `text` shows among its `figures` (in order): operands joined by
    operators, then "=" and a result ("$4.50 x 3 = $13.50"; "2 packs x 10000 calls = 20000")."""
    found: list[Worked] = []
    chain: list[Figure] = []
    ops: list[str] = []
    for figure, after in pairwise(figures):
        gap = text[_end(figure) : after.start]
        chain = chain or [figure]
        if (m := _OPERATOR.fullmatch(gap)) is not None:
            ops.append(_OPS.get(m[1], "-"))
            chain.append(after)
        elif not gap.strip() and after.value < 0:  # "100 -20": the minus is the number's
            ops.append("+")
            chain.append(after)
        elif _EQUALS.fullmatch(gap) and len(chain) > 1:
            found.append(Worked(tuple(chain), tuple(ops), after))
            chain, ops = [], []
        else:
            chain, ops = [], []
    return found


def rate_or_bound(text: str, figure: Figure) -> bool:
    """Whether `figure` is said as a rate ("$7.50 per guest") or a bound ("over $100",
    "$100 or more"): either is a number of its own, not a record's field."""
    end = _end(figure)
    if _RATE_AFTER.match(text, end) or _BOUND_AFTER.match(text, end):
        return True
    return _BOUND_BEFORE.search(text[max(0, figure.start - 20) : figure.start]) is not None


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence of `text` that holds the span `start`..`end`."""
    head = max((m.end() for m in END.finditer(text, 0, start)), default=0)
    tail = END.search(text, end)
    return text[head : tail.end() if tail else len(text)]


def per_unit(text: str, figure: Figure) -> bool:
    """Whether `figure` stands in a sentence that speaks per unit ("every seat carries a
    service fee of $4.50", "each ticket is $45"): it may be a record's amount split."""
    return _PER.search(_sentence(text, figure.start, _end(figure))) is not None


def offered(text: str, mention: Written) -> bool:
    """Whether the date `mention` stands in a sentence that offers ("for example Tuesday 29
    July or Sunday 27 July", "how about 3 May?") or asks the caller to choose ("tell me the
    day (Saturday 26 July or Sunday 27 July)") rather than states, or in an item of a list
    that a sentence of the message offers ("- Monday 29 September at 17:00 ... Would you like
    one of these?"), or in an item with an "or" of a list a question leads ("Could you tell
    me: ... 3. Which Friday you mean (18 July or 25 July)")."""
    sentence = _sentence(text, *mention.span)
    if _OFFER.search(sentence) is not None:
        return True
    asks = sentence.rstrip().endswith("?") or _TELL_ME.search(sentence) is not None
    if asks and _OR.search(sentence) is not None:
        return True
    line = text.rfind("\n", 0, mention.span[0]) + 1
    if _ITEM.match(text, line) is None:
        return False
    # an item of a list a question leads: "Could you tell me: ... 3. Which Friday you mean
    # (2025-07-18 or 2025-07-25)"
    lead = _ASKS.search(text, 0, line) is not None and _OR.search(sentence) is not None
    return lead or _OFFER.search(text) is not None


def on_the_calendar(mention: Written, years: Iterable[int]) -> bool:
    """Whether `mention` is a real day (its weekday that date's, in its year or, for a yearless
    one, in one of `years`): an offered "Tuesday 29 July" must be a Tuesday."""
    for year in [mention.year] if mention.year is not None else sorted(set(years)):
        try:
            day = dt.date(year, mention.month, mention.day)
        except ValueError:
            continue
        if mention.weekday is None or mention.weekday == day.weekday():
            return True
    return False
