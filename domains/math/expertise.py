"""The simulated math expert's reading of a question: its answer, its kind and its difficulty.

The expert reads the question it is asked, never a task (`toolscale.tools.experts`): programs
(`programs.solve_program`), mathematical facts (`facts.solve_facts`), word problems and bare
arithmetic (`solver.solve`). The kind and difficulty are the expert's own reading (for a word
problem or an expression, how many numbers or operators it holds), which its skill profile turns
into the chance of answering right (`toolscale.tools.skills`).
"""

from __future__ import annotations

import re

from domains.math.facts import solve_facts
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
    for kind, read in (("program", solve_program), ("math fact", solve_facts)):
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
