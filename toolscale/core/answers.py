"""Does a final message commit to the expected answer, and does it state a required fact?

Pure text matching, shared by every domain's default checks (`Domain.check_answer`,
`Domain.missing_facts`) and by the verifier. No domain knowledge lives here.
"""

from __future__ import annotations

import re

_NUMBER = re.compile(r"(?<![\w.:-])-?\d+(?:\.\d+)?(?![\w.:-]*\d)")  # not in 12:30, 2025-06-30


def normalize_text(text: str) -> str:
    return " ".join(text.casefold().replace(",", "").split())


def _numbers(text: str) -> list[float]:
    return [float(m) for m in _NUMBER.findall(text.replace(",", ""))]


# "The answer is X." / "Answer: X" / "Final answer: X", at the start of the message or of a
# sentence or line; X runs to the end of its sentence (a period before a space or the end).
_STATEMENT = re.compile(
    r"(?:^|(?<=[.!?:;\n]))\s*(?:the\s+)?(?:final\s+)?answer(?:\s+is|\s*:)[ \t]*"
    r"(?P<value>[^\n]*?)(?=\.(?:\s|$)|\n|$)",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")


def committed_answer(final_message: str) -> str | None:
    """The answer a message commits to: the X of its answer statement ("The answer is X." or
    "Answer: X", X up to the end of its sentence), or None when it makes no statement or
    several that differ (a list of candidates is no answer).

    Examples: "Founded in 1821. The answer is Kelby Marsh." -> "Kelby Marsh";
    "Answer: 42" -> "42"; "The answer is 3. The answer is 4." -> None; "36\n4630.5" -> None.
    """
    values = set()
    for match in _STATEMENT.finditer(final_message):
        values.add(match["value"].strip())
    values.discard("")
    return values.pop() if len(values) == 1 else None


def _bare(text: str) -> str:
    return _ARTICLE.sub("", normalize_text(text).strip(" .!\"'"))


def answer_matches(expected: str, final_message: str) -> bool:
    """Whether the message commits to the expected answer (`committed_answer`). A numeric answer
    must be the one number of the statement ("$69.30" and "12 hours" count, "12 or 13" does
    not; relative tolerance 1e-9, so 4197208 is not 4197207 and 1234568.89 is not 1234567.89). A
    text answer must be the statement, ignoring case, commas,
    spacing, a leading article and a trailing parenthesis ("the Vell (a river)" matches "Vell")."""
    value = committed_answer(final_message)
    if value is None:
        return False
    try:
        target = float(expected.replace(",", ""))
    except ValueError:
        stated = _bare(value)
        return stated == _bare(expected) or _bare(re.sub(r"\s*\(.*\)$", "", value)) == _bare(
            expected
        )
    stated_numbers = _numbers(value)
    return len(stated_numbers) == 1 and abs(stated_numbers[0] - target) <= 1e-9 * max(
        1.0, abs(target)
    )


def fact_stated(fact: str, final_message: str) -> bool:
    """Whether a required fact appears in the final message. A numeric fact ("45.0") must equal
    one of the numbers stated ("45.00" counts, "145.0" does not); any other fact (a name, a
    date, an id) must appear as text, ignoring case, commas and spacing."""
    try:
        value = float(fact.replace(",", ""))
    except ValueError:
        return normalize_text(fact) in normalize_text(final_message)
    return any(abs(n - value) <= 1e-9 * max(1.0, abs(value)) for n in _numbers(final_message))
