"""Bounds on the values a model sends to a tool: each check returns the value or raises a ToolError
that says what is allowed.

A model (an LLM teacher, a user's endpoint, a policy exploring during GRPO) may send any value
the schema admits: an empty or 100,000-character string, a negative count, 1e308, NaN (Python's
JSON parser accepts it), 2**63, odd unicode. A tool that meets such a value must answer with a
ToolError (the call fails, the episode goes on), never with an exception (a crashed call, which
fails the run as a tool bug) nor with seconds of work. These helpers are what tools call first;
`quoted` keeps a hostile value short in an error text, so the error never echoes 100 kB back.
This module checks values only; bounding arithmetic is `toolscale.tools.bounded_arith`.
"""

from __future__ import annotations

import math
from typing import Any

from toolscale.core.contract import ToolError

MAX_ID_CHARS = 100  # an id, an email, a name to look up
MAX_TEXT_CHARS = 2_000  # free text: a summary, a question, a search query
SHOWN_CHARS = 60  # of a value quoted in an error text


def quoted(value: Any) -> str:
    """`repr(value)`, cut to about SHOWN_CHARS characters with the full length said, for quoting
    a value in an error text: quoted("x" * 10**5) -> "'xxx…' (100000 characters)"."""
    if isinstance(value, str) and len(value) > SHOWN_CHARS:
        return f"{value[:SHOWN_CHARS]!r}… ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS + 20 else f"{text[:SHOWN_CHARS]}…"


def text(value: str, what: str, *, max_chars: int = MAX_TEXT_CHARS, empty: bool = False) -> str:
    """`value` when it is a string of at most `max_chars` characters (and, unless `empty`, not
    blank); `what` names the argument in the error."""
    if not isinstance(value, str):
        raise ToolError(f"{what} must be a string, got {quoted(value)}")
    if len(value) > max_chars:
        raise ToolError(f"{what} is too long ({len(value)} characters; at most {max_chars})")
    if not empty and not value.strip():
        raise ToolError(f"{what} is empty; give a value")
    try:
        value.encode()
    except UnicodeEncodeError:  # a lone surrogate ("\ud800"), which JSON can carry
        raise ToolError(f"{what} holds an invalid character (a lone surrogate)") from None
    return value


def identifier(value: str, what: str) -> str:
    """An id, email or name to look up: a non-blank string of at most MAX_ID_CHARS characters."""
    return text(value, what, max_chars=MAX_ID_CHARS)


def _plain(bound: float) -> str:
    """A bound as written in a sentence: 1000000000 -> "1,000,000,000", 0.01 -> "0.01"."""
    return f"{int(bound):,}" if bound == int(bound) else f"{bound:g}"


def number(
    value: float, what: str, *, low: float, high: float, unit: str = "", integer: bool = False
) -> float:
    """`value` when it is a finite number (a whole one when `integer`) in [low, high]; NaN,
    infinities and values out of range are ToolErrors that state the range."""
    kind = "a whole number" if integer else "a number"
    allowed = f"{kind} from {_plain(low)} to {_plain(high)}{' ' + unit if unit else ''}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ToolError(f"{what} must be {allowed}, got {quoted(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ToolError(f"{what} must be {allowed}, got {value!r}")
    if integer and value != int(value):
        raise ToolError(f"{what} must be {allowed}, got {quoted(value)}")
    if not low <= value <= high:
        raise ToolError(f"{what} must be {allowed}, got {quoted(value)}")
    return value
