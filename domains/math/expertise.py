"""The simulated math expert's reading of a question: its answer, its kind and its difficulty.

The expert reads the question it is asked, never a task (`toolscale.tools.experts`): programs
(`programs.solve_program`), mathematical facts (`facts.solve_facts`, one fact alone:
`facts.solve_fact_question`), word problems and bare
arithmetic (`solver.solve`). The kind and difficulty are the expert's own reading (for a word
problem or an expression, how many numbers or operators it holds), which its skill profile turns
into the chance of answering right (`toolscale.tools.skills`).
"""

from __future__ import annotations

import re

from domains.math.facts import _PATTERNS, solve_fact_question, solve_facts
from domains.math.programs import solve_program
from domains.math.solver import _arithmetic, _normalize, solve
from toolscale.core.contract import Difficulty
from toolscale.tools.skills import Known

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_OPERATOR = re.compile(r"(?<=[\d)\s])[-+*/×÷^](?=[\s\d(])")


def _level(count: int, easy: int, medium: int) -> Difficulty:
    return "easy" if count <= easy else "medium" if count <= medium else "hard"


def known(question: str) -> Known | None:
    """What the expert works out from `question`, or None when it states no problem it knows."""
    readers = (
        ("program", solve_program),
        ("math fact", solve_facts),
        ("math fact", solve_fact_question),
    )
    for kind, read in readers:
        found = read(question)
        if found is not None:
            return Known(found[0], kind=kind, difficulty=found[1])
    answer = solve(question)
    if answer is None:
        return None
    text = _normalize(question)
    if _arithmetic(text) is not None:
        return Known(
            answer, kind="arithmetic", difficulty=_level(len(_OPERATOR.findall(text)), 2, 3)
        )
    return Known(answer, kind="word problem", difficulty=_level(len(_NUMBER.findall(text)), 3, 5))


_ASKS = re.compile(r"\b(?:what|how|which|find|compute|calculate|evaluate|work out)\b", re.I)


def missing(question: str) -> str:
    """Why the expert cannot answer `question`: no question, no numbers, or a problem it cannot
    read whole."""
    text = " ".join(question.split())
    if "?" not in text and not _ASKS.search(text):
        return "it asks no question; say what you want worked out"
    if not _NUMBER.search(text) and not any(p.search(text.lower()) for p in _PATTERNS.values()):
        return "it states no numbers or quantities to work with"
    return (
        "I cannot tell which problem it states whole: a number or quantity it depends on, "
        "or what is to be worked out from them, is missing or unclear"
    )
