"""Does a final message commit to the expected answer, and does it state a required fact?

Pure text matching, shared by every domain's default checks (`Domain.check_answer`,
`Domain.missing_facts`) and by the verifier. Values are read as people write them
(`toolscale.core.written`: "$1,708.50", "13 September", "7:30 pm"); no domain knowledge lives
here. docs/rewards.md lists the accepted forms and the cases that fail.
"""

from __future__ import annotations

import json
import re
from datetime import date

from toolscale.core.relative_days import relative_days
from toolscale.core.sentences import SENTENCE
from toolscale.core.written import NUMBERS, clock, dates, iso_date, numbers, plain, times


def normalize_text(text: str) -> str:
    return " ".join(text.casefold().replace(",", "").split())


# "The answer is X." / "Answer: X" / "Final answer: X", at the start of the message or of a
# sentence or line; X runs to the end of its sentence (a period before a space or the end).
_STATEMENT = re.compile(
    r"(?:^|(?<=[.!?:;\n]))\s*(?:the\s+)?(?:final\s+)?answer(?:\s+is|\s*:)[ \t]*"
    r"(?P<value>[^\n]*?)(?=\.(?:\s|$)|\n|$)",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
# A fact that joins a name and its code in one value ("Northline Freight 2892822365", a carrier
# and its tracking number): the agent may say them apart ("Northline Freight, tracking number
# 2892822365"). The code has a digit with three characters or more after it, the name words.
_NAME = r"[A-Za-z][A-Za-z&'.]*"
_JOINED = re.compile(rf"({_NAME}(?: {_NAME})*) ([A-Z0-9-]*\d[A-Z0-9-]{{3,}})")
_SPELLINGS = {"canceled": "cancelled", "cancelation": "cancellation"}
# What makes the word after it a denial: "not active", "isn't active", "no longer active",
# "never been active" (a required "active" is not stated by any of them).
_DENIED = re.compile(
    r"(?:\bnot|\bcannot|n['’]t|\bnever|\bno longer|\bnon)\s+(?:(?:be|been|being|yet|currently|"
    r"an?|the|really|actually)\s+)?$"
)


def answer_field(final_answer: str) -> str | None:
    """The "answer" field of a final answer that is a JSON object (a non-string value as its
    JSON text), else None: `{"answer": "1708.50", "confidence": 0.9}` -> "1708.50"."""
    try:
        value = json.loads(final_answer)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or "answer" not in value:
        return None
    answer = value["answer"]
    return answer if isinstance(answer, str) else json.dumps(answer)


def _statement(text: str) -> str | None:
    values = {match["value"].strip() for match in _STATEMENT.finditer(text)}
    values.discard("")
    return values.pop() if len(values) == 1 else None


def committed_answer(final_message: str) -> str | None:
    """The answer a message commits to: the X of its answer statement ("The answer is X." or
    "Answer: X", X up to the end of its sentence), or None when it makes no statement or
    several that differ (a list of candidates is no answer). A JSON object's "answer" field is
    the answer, bare or as a sentence: its statement when it makes one, else the whole field.

    Examples: "Founded in 1821. The answer is Kelby Marsh." -> "Kelby Marsh";
    "Answer: 42" -> "42"; "The answer is 3. The answer is 4." -> None; "36\n4630.5" -> None;
    '{"answer": "1708.50", "confidence": 0.99}' -> "1708.50".
    """
    field = answer_field(final_message)
    if field is None:
        return _statement(final_message)
    whole = " ".join(field.split()).rstrip(".")
    return _statement(field) or whole or None


def _bare(text: str) -> str:
    return _ARTICLE.sub("", normalize_text(text).strip(" .!\"'"))


# A count of nothing said as people say it: "no table left", "none remaining", "sold out".
_NONE_LEFT = re.compile(
    r"\b(?:no(?:\s+\w+){0,3}\s+(?:left|remaining|available|free)|none\s+(?:left|remaining|"
    r"available)|nothing\s+left|sold\s+out|fully\s+booked|no(?:\s+[a-z]+){0,2}\s+[a-z]+s)\b",
    re.IGNORECASE,
)  # the last: a count of things said as none of them, "no bags added", "no checked bags"


def _count_in_words(value: float, message: str) -> bool:
    """Whether a small whole count is said in words ("three guests"), or a count of nothing as
    "no table left", "none remaining", "sold out", "fully booked" or "no bags". One is left out:
    "one" and "a" say too much else ("the one at the hilltop") to state a count."""
    if not value.is_integer() or not 0 <= value < len(NUMBERS) or value == 1:
        return False
    if value == 0 and _NONE_LEFT.search(message):
        return True
    word = NUMBERS[int(value)]
    return re.search(rf"\b{word}\b", message, re.IGNORECASE) is not None


# Words that say an amount goes down or comes back: "$3.50 refunded", "$76.95 lower".
_LESS = re.compile(
    r"\b(?:refund\w*|back|credit\w*|lower|less|cheaper|sav(?:e|es|ed|ing)|reduc\w*|off|"
    r"discount\w*|decreas\w*|down|under|below|short|return\w*|reimburs\w*)\b",
    re.IGNORECASE,
)


def _said_as_less(size: float, message: str) -> bool:
    """Whether a negative amount of this `size` is said as people say one: its size, in a
    sentence that says it goes down or comes back ("the difference of $3.50 is refunded" states
    a difference of -3.5; "the difference is $3.50" does not)."""
    return any(
        _LESS.search(sentence) and any(_close(n, size) for n in numbers(sentence))
        for sentence in SENTENCE.split(message)
    )


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def value_matches(expected: str, value: str) -> bool:
    """Whether a committed answer `value` is the expected answer: for a number, the one number
    it holds ("$1,708.50", "12 hours"; not "12 or 13"); for an ISO date, the one date it names
    ("Saturday 13 September 2025", "13/09/2025") and no other number; for text, the text
    itself, ignoring case, commas, spacing, a leading article and a trailing parenthesis."""
    try:
        target = float(expected.replace(",", ""))
    except ValueError:
        day = iso_date(expected)
        if day is not None:
            named = dates(value)
            spans = {m.span for m in named}  # a slashed date is read two ways: one mention
            rest = plain(value)
            for start, end in sorted(spans, reverse=True):
                rest = rest[:start] + " " + rest[end:]
            one = len(spans) == 1 and any(m.means(day) for m in named)
            return one and not re.search(r"\d", rest)
        stated = _bare(value)
        return stated == _bare(expected) or _bare(re.sub(r"\s*\(.*\)$", "", value)) == _bare(
            expected
        )
    stated_numbers = numbers(value)
    return len(stated_numbers) == 1 and _close(stated_numbers[0], target)


def answer_matches(expected: str, final_message: str) -> bool:
    """Whether the message commits to the expected answer (`committed_answer`, judged by
    `value_matches`; relative tolerance 1e-9, so 4197208 is not 4197207 and 1234568.89 is not
    1234567.89): "The answer is the Vell (a river)." matches "Vell"."""
    value = committed_answer(final_message)
    return value is not None and value_matches(expected, value)


def statements(text: str) -> str:
    """`text` without its questions: the sentences that do not end with "?" ("Your refund is
    $50. Shall I send it?" -> "Your refund is $50."). A fact asked back to the user is not
    told."""
    kept = [s for s in SENTENCE.split(text) if not s.rstrip().endswith("?")]
    return " ".join(kept)


def _words(text: str) -> str:
    """`text` for matching a text fact: lower case, no commas, "_" and "-" as spaces, one
    spelling of "cancelled", single spaces."""
    low = normalize_text(text.replace("_", " ").replace("-", " "))
    return re.sub(r"\b(?:canceled|cancelation)\b", lambda m: _SPELLINGS[m[0]], low)


def fact_stated(fact: str, final_message: str, today: date | None = None) -> bool:
    """Whether a required fact appears in the message, in any ordinary form:

    - a number ("1708.5") equals one of the numbers stated ("$1,708.50", "1708.50"; not
      "145.0" for "45.0"); a whole count up to twenty may be said in words ("three guests"; not
      one), and a count of nothing as "no table left", "none remaining", "sold out", "fully booked";
    - an ISO date ("2025-09-13") is named ("13 September", "Sep 13, 2025", "13/09/2025",
      "Saturday 13 September"; a year or weekday, when given, must be the date's), or, where
      the policy's `today` is given, said as "today", "tonight", "tomorrow" or "yesterday";
    - a time ("19:30") is stated ("7:30 pm", "19:30"), and a date and time ("2025-07-31
      18:00") both;
    - a name joined with its code ("Northline Freight 2892822365") is stated whole or as its
      two parts ("Northline Freight, tracking number 2892822365");
    - any other fact (a name, a status, an id) appears as whole words, ignoring case, commas,
      spacing, "_" and "-" ("no_show" in "a no-show"; "active" not in "inactive"; a word also
      in the plural: "Friday" in "closed on Fridays"), and not
      only where it is denied ("active" not in "the card is not active" nor "isn't active";
      "returned" not in "cannot be returned").
    """
    try:
        value = float(fact.replace(",", ""))
    except ValueError:
        pass
    else:
        return (
            any(_close(n, value) for n in numbers(final_message))
            or _count_in_words(value, final_message)
            or (value < 0 and _said_as_less(-value, final_message))
        )
    parts = fact.split()
    if len(parts) == 2 and iso_date(parts[0]) and clock(parts[1]):
        return all(fact_stated(part, final_message, today) for part in parts)
    day = iso_date(fact)
    if day is not None and any(m.means(day) for m in dates(final_message)):
        return True
    if day is not None and today is not None and day in relative_days(final_message, today, False):
        return True
    hour = clock(fact)
    if hour is not None and hour in times(final_message):
        return True
    wanted = _words(fact)
    said = _words(final_message)
    plural = "(?:s|es)?" if wanted[-1:].isalpha() else ""  # "closed on Fridays" says Friday
    found = re.finditer(rf"(?<!\w){re.escape(wanted)}{plural}(?!\w)", said)
    if bool(wanted) and any(not _DENIED.search(said[: m.start()][-40:]) for m in found):
        return True
    joined = _JOINED.fullmatch(fact.strip())  # a name with its code, each said on its own
    return joined is not None and all(fact_stated(part, final_message) for part in joined.groups())
