"""Math problems no tool solves: arithmetic over mathematical facts that only a model knows.

The orchestrator's tools compute but know nothing ("how many wallpaper groups are there?"), so
these problems need an expert; easy facts (the edges of a cube) every model knows, hard ones
(the groups of order 16) only a strong one. A problem combines two facts with a little arithmetic;
its difficulty is its harder fact's. `solve_facts` is the simulated expert's reading: it finds the
fact phrases and the operation in the question and computes the answer; `solve_fact_question`
reads a question that asks one fact alone, however it is worded ("How many faces does a cube
have?"), as an agent splitting a problem asks it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from toolscale.core.contract import Difficulty

# phrase after "the number of" -> (value, difficulty)
FACTS: dict[str, tuple[int, Difficulty]] = {
    "edges of a cube": (12, "easy"),
    "faces of a cube": (6, "easy"),
    "vertices of a cube": (8, "easy"),
    "vertices of a tetrahedron": (4, "easy"),
    "sides of a hexagon": (6, "easy"),
    "sides of an octagon": (8, "easy"),
    "sides of a pentagon": (5, "easy"),
    "degrees in a right angle": (90, "easy"),
    "edges of an octahedron": (12, "medium"),
    "faces of an octahedron": (8, "medium"),
    "faces of an icosahedron": (20, "medium"),
    "edges of an icosahedron": (30, "medium"),
    "vertices of a dodecahedron": (20, "medium"),
    "faces of a dodecahedron": (12, "medium"),
    "platonic solids": (5, "medium"),
    "free pentominoes": (12, "medium"),
    "wallpaper groups": (17, "hard"),
    "frieze groups": (7, "hard"),
    "crystallographic space groups in three dimensions": (230, "hard"),
    "bravais lattices in three dimensions": (14, "hard"),
    "archimedean solids": (13, "hard"),
    "convex regular 4-polytopes": (6, "hard"),
    "groups of order 16 up to isomorphism": (14, "hard"),
    "free hexominoes": (35, "hard"),
    "sporadic simple groups": (26, "hard"),
    "johnson solids": (92, "hard"),
}
LEVELS: tuple[Difficulty, ...] = ("easy", "medium", "hard")


@dataclass(frozen=True)
class FactProblem:
    text: str
    answer: str
    guess: str  # a calculator expression with misremembered facts: wrong


def _pick(rng: random.Random, level: Difficulty) -> tuple[str, str]:
    """Two different facts, the harder exactly at `level`."""
    top = [f for f, (_, lv) in FACTS.items() if lv == level]
    below = [f for f, (_, lv) in FACTS.items() if LEVELS.index(lv) <= LEVELS.index(level)]
    first = rng.choice(top)
    second = rng.choice([f for f in below if f != first])
    return (first, second) if rng.random() < 0.5 else (second, first)


def fact_problem(rng: random.Random, level: Difficulty) -> FactProblem:
    x, y = _pick(rng, level)
    a, b = FACTS[x][0], FACTS[y][0]
    wrong_a, wrong_b = a + rng.choice([-2, -1, 1, 2]), b + rng.choice([1, 2, 3])
    if rng.random() < 0.5:
        text = f"What is the number of {x} plus the number of {y}?"
        return FactProblem(text, str(a + b), f"{wrong_a} + {wrong_b}")
    k = rng.randint(2, 19)
    text = (
        f"Take the number of {x}, multiply it by the number of {y}, and add {k}. "
        "What is the result?"
    )
    return FactProblem(text, str(a * b + k), f"{wrong_a} * {wrong_b} + {k}")


_PLUS = re.compile(r"what is the number of (.+?) plus the number of (.+?)\?")
_TIMES = re.compile(
    r"take the number of (.+?), multiply it by the number of (.+?), and add (\d+)\. "
    r"what is the result\?"
)


def solve_facts(question: str) -> tuple[str, Difficulty] | None:
    """The answer of a fact problem stated in `question`, and its difficulty, or None."""
    text = " ".join(question.lower().split())
    plus, times = _PLUS.search(text), _TIMES.search(text)
    if (plus is None) == (times is None):
        return None
    match = plus or times
    assert match is not None
    x, y = match.group(1), match.group(2)
    if x not in FACTS or y not in FACTS:
        return None
    (a, la), (b, lb) = FACTS[x], FACTS[y]
    level = max(la, lb, key=LEVELS.index)
    value = a + b if plus else a * b + int(match.group(3))
    return str(value), level


_QUALIFIER = re.compile(r" in three dimensions$| up to isomorphism$")
_ASKS = re.compile(r"\bhow many\b|\bnumber of\b|\bwhat is\b|\bcount\b")
# Words that make a fact part of a computation this reader does not do ("twice the number ...").
_COMPUTES = re.compile(
    r"\b(?:plus|minus|times|twice|double|triple|half|multipl\w*|divid\w*|add\w*|subtract\w*|"
    r"sum|product|difference|squared?|cubed|total)\b|[-+*/^×÷=]\s*\d"
)


def _fact_pattern(fact: str) -> re.Pattern[str]:
    """How a question may name `fact`: "faces of a cube" is also "faces does a cube have" and
    "a cube has how many faces"; a qualifier ("in three dimensions") may be left out."""
    parts = re.fullmatch(r"(.+?) (?:of|in) an? (.+)", fact)
    if parts is None:
        core = _QUALIFIER.sub("", fact).replace("crystallographic ", "(?:crystallographic )?")
        return re.compile(rf"\b{core}\b")
    noun, thing = re.escape(parts.group(1)), re.escape(parts.group(2))
    return re.compile(
        rf"\b{noun}\b(?:\s+(?!and\b)[\w-]+){{0,3}}?\s+{thing}s?\b"
        rf"|\b{thing}s?\s+(?:has|have|contains?)\s+(?:how many\s+)?{noun}\b"
    )


_PATTERNS = {fact: _fact_pattern(fact) for fact in FACTS}


def solve_fact_question(question: str) -> tuple[str, Difficulty] | None:
    """The value of the one fact a question asks alone, and its difficulty, or None when it
    names no fact, several, or computes with it."""
    text = " ".join(question.lower().split())
    if not _ASKS.search(text):
        return None
    named = [f for f, pattern in _PATTERNS.items() if pattern.search(text)]
    if len(named) != 1:
        return None
    rest = _PATTERNS[named[0]].sub(" ", text)
    if _COMPUTES.search(rest) or re.search(r"\d", rest):
        return None
    return str(FACTS[named[0]][0]), FACTS[named[0]][1]
