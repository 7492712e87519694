"""Read a math word problem's text: find its key phrases and the numbers in them, exactly.

The pieces `solver`'s problem shapes are written with: a pattern language in which `#` stands
for one number, readers that raise `Unreadable` when a needed phrase is missing, and the small
arithmetic the shapes share (a percentage change, the cost of one shopping line).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

# `#` in a pattern stands for one number: 1200, 1,200, 4.50 (never the tail of a longer number).
_NUMBER = r"(?<![\d.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?!\d)"
_WORD = r"([a-z]+)"
_NAME = r"(\w[\w'-]*)"
_FILLER = r"[^.?!]+"  # words within one sentence
_MAX_YEARS = 100  # beyond this, compound growth is no longer a word problem
_MAX_DIGITS = 24  # characters of one number, separators and decimals included
_IRREGULAR = {"feet": "foot", "metres": "meter", "metre": "meter"}


class _Unreadable(Exception):
    """The text lacks a phrase (or the number in it) that this problem shape needs."""


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern.replace("#", _NUMBER))


def _need(text: str, pattern: str) -> tuple[str, ...]:
    """The groups of the one match of `pattern` in `text`; none or several is unreadable."""
    matches = list(_regex(pattern).finditer(text))
    if len(matches) != 1:
        raise _Unreadable(pattern)
    return matches[0].groups()


def _num(written: str) -> Fraction:
    if len(written) > _MAX_DIGITS:  # no word problem states one; a long one is only work
        raise _Unreadable(f"a number of {len(written)} characters")
    return Fraction(written.replace(",", ""))


def _numbers(text: str, pattern: str) -> tuple[Fraction, ...]:
    """The numbers of the one match of `pattern`, whose groups are all `#`."""
    return tuple(_num(group) for group in _need(text, pattern))


def _maybe(text: str, cue: str, pattern: str) -> Fraction | None:
    """The number of an optional phrase: None when `cue` is absent, unreadable when `cue` is there
    but its number is not (a half-stated discount must not be read as no discount)."""
    if cue not in text:
        return None
    (value,) = _numbers(text, pattern)
    return value


def _singular(words: str) -> str:
    """Word by word: "bottles of water" -> "bottle of water", "batteries" -> "battery"."""
    return " ".join(_singular_word(word) for word in words.split())


def _singular_word(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _same_unit(*units: str) -> None:
    if len({_singular(unit) for unit in units}) != 1:
        raise _Unreadable(f"units differ: {units}")


def _percent_of(value: Fraction, change: Fraction) -> Fraction:
    """`value` changed by `change` percent (negative for a cut)."""
    return value * (1 + change / 100)


def _line_cost(line: str) -> Fraction:
    """One bought line: "2 mugs at $5.25 each" or "1 book at $12.00"."""
    found = _regex(r"# [^$]+? at \$#( each)?").fullmatch(line)
    if found is None:
        raise _Unreadable(line)
    count, price = _num(found[1]), _num(found[2])
    if count != 1 and found[3] is None:
        raise _Unreadable(f"{line!r} does not say whether the price is each or for all")
    return count * price
