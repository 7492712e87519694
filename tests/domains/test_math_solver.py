"""The simulated math expert's reading of a question: it answers every sampled problem from its
text alone, tolerates appended requests and rewording around the key phrases, and says None rather
than guess.

`expertise.known` is the whole reading: program problems (`programs.solve_program`), fact
problems (`facts.solve_facts`), then word problems and bare arithmetic (`solver.solve`, which
claims those two kinds only and leaves the others to their readers).
"""

from __future__ import annotations

import itertools
import re

import pytest

from domains.math import MathDomain
from domains.math.expertise import known
from domains.math.solver import solve
from domains.math.tasks import DIFFICULTIES, TEMPLATES, WORD_TEMPLATES
from toolscale.core.contract import TaskSpec, ToolError, item_rng
from toolscale.tools.arith import evaluate

DOMAIN = MathDomain()
SPECS = [DOMAIN.sample(item_rng("math", seed, i), seed, i) for seed in (0, 1) for i in range(400)]
SOLVED = ("arithmetic", *WORD_TEMPLATES)  # the kinds `solve` claims
WORD = [spec for spec in SPECS if spec.template in WORD_TEMPLATES]
PREFERENCES = (
    "I'm in a hurry: please be quick and don't take more steps than needed.",
    "Keep it cheap: use the least expensive tools that do the job.",
    "Don't run any code.",
    'Answer as JSON: {"answer": "<your answer>", "confidence": <a number between 0 and 1>}.',
)
TO_THE_CENT = "Give the amount in dollars, to the cent."
NUMBER = re.compile(r"\d+(?:\.\d+)?")
RUG = "A round rug has a radius of 10 feet. Using pi = 3.14,"


def read(question: str) -> str | None:
    """The answer the simulated expert works out from `question`, or None."""
    found = known(question)
    return None if found is None else found.answer


def sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.?!)])\s+", text)


def failures(asked: list[tuple[TaskSpec, str]]) -> list[str]:
    """Each (spec, question) whose reading differs from the spec's answer, described."""
    return [
        f"{spec.template}/{spec.difficulty}: {read(text)!r} != {spec.answer!r} for {text!r}"
        for spec, text in asked
        if read(text) != spec.answer
    ]


def test_samples_cover_every_template_and_difficulty() -> None:
    seen = {(spec.template, spec.difficulty) for spec in SPECS}
    assert seen == set(itertools.product(TEMPLATES, DIFFICULTIES))


def test_reads_every_sampled_problem_from_its_text() -> None:
    wrong = failures([(spec, spec.instruction) for spec in SPECS])
    assert not wrong, f"{len(wrong)} of {len(SPECS)} wrong, e.g. {wrong[:3]}"


def test_the_solver_solves_its_kinds_and_leaves_programs_and_facts_to_their_readers() -> None:
    mine = [spec for spec in SPECS if spec.template in SOLVED]
    others = [spec for spec in SPECS if spec.template not in SOLVED]
    assert len(mine) > 200 and len(others) > 400
    assert [spec.instruction for spec in mine if solve(spec.instruction) != spec.answer] == []
    assert [spec.instruction for spec in others if solve(spec.instruction) is not None] == []


@pytest.mark.parametrize("preference", PREFERENCES)
def test_an_appended_preference_changes_nothing(preference: str) -> None:
    wrong = failures([(spec, f"{spec.instruction} {preference}") for spec in SPECS])
    assert not wrong, f"{len(wrong)} of {len(SPECS)} wrong, e.g. {wrong[:3]}"


def test_lead_in_case_and_spacing_change_nothing() -> None:
    asked = [
        (spec, f"  Solve this problem:\n{spec.instruction.upper().replace(' ', '  ')} ")
        for spec in SPECS[:200]
    ] + [(spec, f"Please solve: {spec.instruction.lower()}") for spec in SPECS[200:400]]
    wrong = failures(asked)
    assert not wrong, f"{len(wrong)} wrong, e.g. {wrong[:3]}"


@pytest.mark.parametrize("question", ["?", "", "   ", "What is the answer?", "Hello there."])
def test_no_problem_is_no_answer(question: str) -> None:
    assert solve(question) is None


def test_without_its_question_a_problem_has_no_answer() -> None:
    answered = []
    for spec in SPECS[:100]:
        parts = sentences(spec.instruction)
        asks = max(i for i, part in enumerate(parts) if part.endswith("?"))
        text = " ".join(parts[:asks] + parts[asks + 1 :])
        if read(text) is not None:
            answered.append(text)
    assert not answered, answered[:3]


def test_without_its_last_sentence_a_problem_is_unanswered_or_only_lost_its_format() -> None:
    """The last sentence is the question, or after it the dollar format (which the answer does not
    need), or the speed problem's conversion rule (which it does)."""
    for spec in SPECS[:100]:
        parts = sentences(spec.instruction)
        got = read(" ".join(parts[:-1]))
        assert got == (spec.answer if parts[-1] == TO_THE_CENT else None), spec.instruction


def test_a_missing_first_number_leaves_a_word_problem_unanswered() -> None:
    """Deleting the first number: every word template's first number is needed, so all are None;
    a wrong answer would mean a pattern read a neighbouring number in its place. (Not so in the
    other kinds: a fact problem may state no number, the Fibonacci problem's first numbers are
    its definition, and a bare expression without its first number may still be one.)"""
    assert len(WORD) > 150
    solved = [(read(NUMBER.sub("", spec.instruction, count=1)), spec) for spec in WORD]
    assert [spec.instruction for got, spec in solved if got is not None] == []


def _right(spec: TaskSpec, text: str) -> set[str | None]:
    """The acceptable readings of `text`, a problem of `spec` with one number deleted: no answer,
    or the spec's. A bare expression with a number gone can be another expression ("What is
    + 7 * 3?", "2 * - 3": signed numbers), whose own value is then right too."""
    if spec.template != "arithmetic":
        return {None, spec.answer}
    try:
        return {None, evaluate(text.removeprefix("What is ").removesuffix("?"))}
    except ToolError:
        return {None}


def test_any_missing_number_is_never_read_from_elsewhere() -> None:
    """Each number deleted in turn, over all samples (a three-worker problem once read the second
    worker's time as the first's; a coin list with a gap was once read as fewer coins)."""
    wrong = []
    for spec in SPECS:
        for found in NUMBER.finditer(spec.instruction):
            text = spec.instruction[: found.start()] + spec.instruction[found.end() :]
            if read(text) not in _right(spec, text):
                wrong.append(text)
    assert not wrong, wrong[:3]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # The coin list as the sampler writes it: 11 cents from 1- and 5-cent coins takes no, one
        # or two fives, so 3 ways; a list with a gap states no problem, and is not read as fewer
        # coins.
        ("In how many ways can you make 11 cents from coins worth 1 and 5 cents?", "3"),
        ("In how many ways can you make 11 cents from coins worth 1,  and 5 cents?", None),
        ("In how many ways can you make 11 cents from coins worth , 1 and 5 cents?", None),
        # the number of edges of a cube (12) times the faces of a cube (6), plus 3
        (
            "Take the number of edges of a cube, multiply it by the number of faces of a cube, "
            "and add 3. What is the result?",
            "75",
        ),
        # a fact it does not know is no answer
        ("What is the number of sides of a circle plus the number of faces of a cube?", None),
        # Collatz from 6: 6 3 10 5 16 8 4 2 1, 8 steps
        (
            "Start from 6. Repeatedly halve the number when it is even, and otherwise triple it "
            "and add 1. How many steps does it take to reach 1?",
            "8",
        ),
    ],
)
def test_hand_worked_program_and_fact_problems(question: str, answer: str | None) -> None:
    assert read(question) == answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("(17 * 4) + 3", "71"),
        ("What is 12.5 * 3?", "37.5"),
        ("Compute 3 + 4", "7"),
        ("Please solve: what is 2 ^ 10? Don't run any code.", "1024"),
        ("What is 1 / 0?", None),  # the calculator's ToolError
        ("What is 5?", None),  # no operation asked for
        # a number deleted from an expression: what is left is signed numbers, or no expression
        ("What is  + 7 * 3?", "21"),
        ("What is 2 * - 3 + 10?", "4"),
        ("What is 12 +  * 3?", None),
    ],
)
def test_plain_arithmetic_goes_to_the_calculator(question: str, answer: str | None) -> None:
    assert solve(question) == answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # (2 * 5.25 + 12) * 0.8 = 18
        (
            "Ann buys 2 mugs at $5.25 each and 1 book at $12.00. The store takes 20% off the "
            "whole purchase. How much does Ann pay?",
            "18",
        ),
        # a total of $1,250.00 is 1250
        ("Ann buys 1 desk lamp at $1,250.00. What is the total cost?", "1250"),
        # 1600 / 1200 * 1600 = 2133.33...: no exact decimal, so no answer
        (
            "A museum had 1200 visitors in March and 1600 in April. If the number grows from "
            "April to May by the same percentage as from March to April, how many visitors will "
            "it have in May?",
            None,
        ),
        # 1500 * 1500 / 1200 = 1875
        (
            "A museum had 1200 visitors in March and 1500 in April. If the number grows from "
            "April to May by the same percentage as from March to April, how many visitors will "
            "it have in May?",
            "1875",
        ),
        # 3.14 * 10 ** 2 = 314, in the unit asked for
        (f"{RUG} what is its area in square feet?", "314"),
        (f"{RUG} what is its area in square meters?", None),
        # 1 / (1/3 + 1/6) = 2
        (
            "Alone, Ann can paint the fence in 3 hours and Bo in 6 hours. Working together at "
            "these rates, how many hours does the painting take?",
            "2",
        ),
        # the one named second starts alone: 2 + (1 - 2/4) / (1/4 + 1/4) = 3
        (
            "Ann can paint the fence alone in 4 hours, and Bo can do it alone in 4 hours. Bo "
            "works alone for 2 hours, then Ann joins and they finish together. How many hours "
            "after Bo started is the job done?",
            "3",
        ),
        # 40 * 20 + 5 * 1.5 * 20 = 950, less 10% = 855
        (
            "Ann earns $20.00 per hour for the first 40 hours of a week and 1.5 times that rate "
            "for every hour beyond 40. Last week Ann worked 45 hours. 10% of the pay is withheld "
            "for taxes. How much does Ann take home?",
            "855",
        ),
        # a discount stated without its percentage must not be read as no discount
        (
            "Ann buys 2 mugs at $5.25 each. The store takes some% off the whole purchase. How "
            "much does Ann pay?",
            None,
        ),
        # "3 mugs at $5.25": each or for all three? Not said, so no answer
        ("Ann buys 3 mugs at $5.25. What is the total cost?", None),
        # the test count disagrees with the scores listed
        ("Ann scored 70, 80 and 90 on 4 tests. What is the average score?", None),
    ],
)
def test_hand_worked_problems(question: str, answer: str | None) -> None:
    assert solve(question) == answer
