"""Skill profiles of the simulated experts, and the capability sentences measured from them.

Each alias is a model with a skill profile (ToolOrchestra's mix): `expert-3` a cheap small
generalist, `expert-2` a mid-price math and code specialist, `expert-1` a dear frontier
generalist. A profile gives, by kind of question ("arithmetic", "program", "look-up", ...) and
difficulty, the probability that the alias answers right, and how many reasoning tokens it spends.
The kind and difficulty are read from the question by the domain's expert (`Known`), never from
the task. `capability_text` measures each alias on sampled tasks of a domain (ask it every task's
question, count what it gets right, by kind) and writes one sentence per alias, which the task's
system prompt carries, as ToolOrchestra describes its models to the orchestrator; change a profile
and the sentence changes. This module answers nothing itself: `toolscale.tools.experts` does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from toolscale.core.contract import Difficulty

LEVELS: tuple[Difficulty, ...] = ("easy", "medium", "hard")
MEASURE_SEED = 0  # the run seed whose tasks the capability sentences are measured on
MEASURE_TASKS = 240


@dataclass(frozen=True)
class Known:
    """What a simulated expert can work out from a question: the right answer, plausible wrong
    ones (names of the same kind; [] for a number, which is perturbed instead), and the kind and
    difficulty of the question as the expert reads it. A question of several parts ("Who
    founded X, and where was that founder born?", "(1) ... ? (2) ... ?") has `parts`: the
    reading of each part it understands, in order; the Known itself is then its last part, by
    which a route's odds are read."""

    answer: str
    wrong: list[str] = field(default_factory=list)
    kind: str = "general"
    difficulty: Difficulty = "medium"
    parts: tuple[Known, ...] = ()
    # A part that starts from an earlier part's answer ("In which town was that mentor born?"):
    # that part, and this part's reading had that part been answered another value.
    follows: Known | None = field(default=None, compare=False, repr=False)
    given: Callable[[str], Known | None] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class SkillProfile:
    """One alias: who it is, its accuracy by kind (easy, medium, hard), and its reasoning tokens
    by difficulty (a range; each answer draws one)."""

    alias: str
    role: str
    accuracy: Mapping[str, tuple[float, float, float]]
    default: tuple[float, float, float]
    reasoning: Mapping[Difficulty, tuple[int, int]]

    def p_correct(self, kind: str, difficulty: Difficulty) -> float:
        return self.accuracy.get(kind, self.default)[LEVELS.index(difficulty)]


PROFILES: dict[str, SkillProfile] = {
    "expert-1": SkillProfile(
        "expert-1",
        "a frontier generalist, the dearest",
        {
            "arithmetic": (0.99, 0.98, 0.97),
            "word problem": (0.97, 0.95, 0.92),
            "program": (0.95, 0.9, 0.85),
            "math fact": (0.97, 0.93, 0.85),
            "look-up": (0.97, 0.95, 0.92),
            "multi-hop": (0.95, 0.9, 0.85),
            "date arithmetic": (0.96, 0.93, 0.9),
            "obscure fact": (0.9, 0.85, 0.8),
        },
        (0.95, 0.9, 0.85),
        {"easy": (600, 1200), "medium": (1200, 2500), "hard": (2500, 5000)},
    ),
    "expert-2": SkillProfile(
        "expert-2",
        "a mid-price math and code specialist",
        {
            "arithmetic": (0.99, 0.98, 0.96),
            "word problem": (0.96, 0.93, 0.88),
            "program": (0.9, 0.8, 0.7),
            "math fact": (0.92, 0.8, 0.6),
            "look-up": (0.55, 0.45, 0.35),
            "multi-hop": (0.35, 0.25, 0.15),
            "date arithmetic": (0.5, 0.4, 0.3),
            "obscure fact": (0.3, 0.2, 0.15),
        },
        (0.6, 0.5, 0.4),
        {"easy": (400, 900), "medium": (900, 1800), "hard": (1800, 3500)},
    ),
    "expert-3": SkillProfile(
        "expert-3",
        "a cheap small generalist",
        {
            "arithmetic": (0.9, 0.8, 0.6),
            "word problem": (0.75, 0.55, 0.3),
            "program": (0.4, 0.2, 0.1),
            "math fact": (0.85, 0.5, 0.2),
            "look-up": (0.8, 0.7, 0.6),
            "multi-hop": (0.5, 0.35, 0.2),
            "date arithmetic": (0.5, 0.35, 0.2),
            "obscure fact": (0.4, 0.3, 0.25),
        },
        (0.6, 0.45, 0.3),
        {"easy": (150, 350), "medium": (300, 600), "hard": (500, 1000)},
    ),
}
