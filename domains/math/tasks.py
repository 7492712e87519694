"""The math sampler: pick a template and a difficulty, draw an exact word problem, and turn it into
a TaskSpec whose gold route is one calculator call per step.

The alternatives are the routes a teacher may also play: the whole computation as one
`code_executor` program, one `ask_expert` call to expert-1 (which may be wrong; the verifier then
rejects the trace), and the gold route with its last calculator call repeated.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from faker import Faker

from domains.math import measure_problems, money_problems
from domains.math.state import initial_state
from domains.math.steps import Problem, Reject, money
from toolscale.core.contract import Action, Difficulty, TaskSpec

Template = Callable[[random.Random, Difficulty, tuple[str, ...]], Problem]

TEMPLATES: dict[str, Template] = {
    "shopping_discount": money_problems.shopping_discount,
    "unit_rate": money_problems.unit_rate,
    "percentage": money_problems.percentage,
    "compound_growth": money_problems.compound_growth,
    "work_time": measure_problems.work_time,
    "average": measure_problems.average,
    "area_volume": measure_problems.area_volume,
    "unit_conversion": measure_problems.unit_conversion,
    "multi_step": money_problems.multi_step,
}
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
MAX_DRAWS = 200  # draws are cheap; a template needing more has a bug

fake = Faker()


def _names(rng: random.Random) -> tuple[str, ...]:
    """Three distinct first names, depending only on `rng`."""
    fake.seed_instance(rng.getrandbits(64))
    names: list[str] = []
    while len(names) < 3:
        name = fake.first_name()
        if name not in names:
            names.append(name)
    return tuple(names)


def draw_problem(rng: random.Random, template: str, level: Difficulty) -> Problem:
    """Draw `template` at `level` until its numbers give a problem the calculator solves exactly."""
    names, make = _names(rng), TEMPLATES[template]
    for _ in range(MAX_DRAWS):
        try:
            problem = make(rng, level, names)
            problem.check()
        except Reject:
            continue
        return problem
    raise RuntimeError(
        f"template {template!r} ({level}) drew no exact problem in {MAX_DRAWS} tries"
    )


def code_program(problem: Problem) -> str:
    """The whole computation as one Python program that prints exactly the answer string."""
    names = {step.name: step.name for step in problem.steps}
    lines = [f"{step.name} = {step.expr.format(**names)}" for step in problem.steps]
    lines.append(f"result = round({problem.steps[-1].name}, 6)")
    lines.append("print(int(result) if result == int(result) else result)")
    return "\n".join(lines)


def final_message(problem: Problem) -> str:
    """What a correct agent ends with; it contains the answer string verbatim."""
    if problem.unit == "dollars":
        return f"The answer is {money(problem.steps[-1].value)}."
    noun = f" {problem.noun}" if problem.noun else ""
    return f"The answer is {problem.answer}{noun}."


def build_task(rng: random.Random) -> TaskSpec:
    """One task, every choice drawn from `rng`."""
    template = rng.choice(tuple(TEMPLATES))
    level = rng.choice(DIFFICULTIES)
    problem = draw_problem(rng, template, level)
    gold = [Action("calculator", {"expression": step.calc}) for step in problem.steps]
    alternatives = [
        [Action("code_executor", {"code": code_program(problem)})],
        [Action("ask_expert", {"expert": "expert-1", "question": problem.text})],
        [*gold, gold[-1]],
    ]
    return TaskSpec(
        template=template,
        difficulty=level,
        instruction=problem.text,
        initial_state=initial_state(),
        gold_actions=gold,
        final_message=final_message(problem),
        answer=problem.answer,
        alternatives=alternatives,
    )
