"""The math sampler: a kind of problem, a difficulty, and every route the task admits.

Kinds differ in which route is worth its price: a bare expression (`arithmetic`: one calculator
call), a word problem (one calculator call per step, or one program), a problem only a program
solves (`programs`: counting, iteration, search) and one no tool solves (`facts`: arithmetic over
mathematical facts that only a model knows). Every task offers the three experts on its whole
question as routes, and with `--detours` the mistakes an agent makes and corrects: a calculator
expression that the tool refuses, then the corrected one; a wrong tool first; an expert's answer
checked; and a cheap route that gets the answer wrong (rejected at the outcome stage). A task
also draws a provider set-up (`toolscale.tools.price_setups`: a metered code sandbox beside a slow
remote calculator, a self-hosted frontier expert beside a hosted mid one), so that the fast route
and the cheap one differ. The pipeline plays them all and makes the best the gold route
(`toolscale.oracle.played`); the gold route given here is the textbook one (for a fact problem,
an expert that answers it right).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from faker import Faker

from domains.math import measure_problems, money_problems
from domains.math.expertise import known
from domains.math.facts import fact_problem
from domains.math.programs import PROGRAMS
from domains.math.state import initial_state
from domains.math.steps import Problem, Reject, money
from toolscale.core.contract import Action, Difficulty, Route, TaskSpec, answer_matches
from toolscale.tools.arith import evaluate
from toolscale.tools.experts import EXPERTS, simulated_answer
from toolscale.tools.price_setups import draw_setup

Template = Callable[[random.Random, Difficulty, tuple[str, ...]], Problem]

WORD_TEMPLATES: dict[str, Template] = {
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
TEMPLATES: tuple[str, ...] = ("arithmetic", *WORD_TEMPLATES, *PROGRAMS, "math_facts")
# How often each kind is drawn: the mix of routes the data teaches.
KINDS = {"arithmetic": 0.1, "word": 0.25, "program": 0.35, "facts": 0.3}
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
MAX_DRAWS = 200  # draws are cheap; a template needing more has a bug
# The provider set-ups a task draws (toolscale.tools.price_setups): where the fast route is dear.
SETUPS = {"listed": 1.0, "metered_sandbox": 1.0, "self_hosted_frontier": 1.0}


def _names(rng: random.Random, fake: Faker) -> tuple[str, ...]:
    """Three distinct first names, depending only on `rng` (`fake` is reseeded from it)."""
    fake.seed_instance(rng.getrandbits(64))
    names: list[str] = []
    while len(names) < 3:
        name = fake.first_name()
        if name not in names:
            names.append(name)
    return tuple(names)


def draw_problem(rng: random.Random, template: str, level: Difficulty, fake: Faker) -> Problem:
    """Draw `template` at `level` until its numbers give a problem the calculator solves exactly;
    `fake` (the caller's, reseeded here) names its people."""
    names, make = _names(rng, fake), WORD_TEMPLATES[template]
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


def printing(expression: str) -> str:
    """A program that prints `expression`'s value as the calculator would (6 decimals at most)."""
    return (
        f"result = round({expression}, 6)\nprint(int(result) if result == int(result) else result)"
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


def _said(value: str) -> str:
    return f"The answer is {value}."


def _experts(question: str, but: str = "") -> list[Route]:
    return [
        Route(alias, [Action("ask_expert", {"expert": alias, "question": question})])
        for alias in EXPERTS
        if alias != but
    ]


def _calc(expression: str) -> Action:
    return Action("calculator", {"expression": expression})


def _code(program: str) -> Action:
    return Action("code_executor", {"code": program})


def _wrong(expression: str, answer: str) -> bool:
    """Whether a calculator expression evaluates to something other than the answer."""
    return not answer_matches(answer, _said(evaluate(expression)))


def _spec(template: str, level: Difficulty, text: str, gold: list[Action], final: str,
          answer: str, routes: list[Route], gold_route: str) -> TaskSpec:  # fmt: skip
    return TaskSpec(
        template=template,
        difficulty=level,
        instruction=text,
        initial_state=initial_state(),
        gold_actions=gold,
        final_message=final,
        answer=answer,
        routes=routes,
        gold_route=gold_route,
    )


def _arithmetic(rng: random.Random, level: Difficulty) -> TaskSpec:
    count = {"easy": 3, "medium": 4, "hard": 5}[level]
    while True:
        numbers = [rng.randint(2, 999) for _ in range(count)]
        ops = [rng.choice(["+", "-", "*", "*"]) for _ in range(count - 1)]
        expression = " ".join(f"{n} {o}" for n, o in zip(numbers, ops, strict=False))
        expression += f" {numbers[-1]}"
        answer = evaluate(expression)
        misread = str(numbers[0])
        for n, o in zip(numbers[1:], ops, strict=True):
            misread = f"({misread} {o} {n})"
        if int(answer) > 1 and _wrong(misread, answer) and answer not in map(str, numbers):
            break
    text = f"What is {expression}?"
    gold = [_calc(expression)]
    routes = [
        Route("code_executor", [_code(printing(expression))], _said(answer)),
        *_experts(text),
        Route("calculator_retry", [_calc(expression.replace("*", "×")), *gold], _said(answer),
              detour=True),
        Route("calculator_misread", [_calc(misread)], _said(evaluate(misread)), detour=True),
    ]  # fmt: skip
    return _spec("arithmetic", level, text, gold, _said(answer), answer, routes, "calculator")


def _word(rng: random.Random, level: Difficulty, fake: Faker) -> TaskSpec:
    template = rng.choice(tuple(WORD_TEMPLATES))
    problem = draw_problem(rng, template, level, fake)
    gold = [_calc(step.calc) for step in problem.steps]
    final = final_message(problem)
    first = problem.steps[0].calc
    typo = first.replace(" * ", " x ", 1) if " * " in first else f"= {first}"
    routes = [
        Route("code_executor", [_code(code_program(problem))], final),
        *_experts(problem.text),
        Route("calculator_retry", [_calc(typo), *gold], final, detour=True),
        Route("calculator_repeat", [*gold, gold[-1]], final, detour=True),
        Route(
            "expert-3_checked",
            [*_experts(problem.text)[2].actions, *gold],
            final,
            detour=True,
            checked=True,
        ),
    ]
    if len(problem.steps) >= 2:
        early = evaluate(problem.steps[-2].calc)
        if not answer_matches(problem.answer, _said(early)):
            routes.append(Route("calculator_stop_early", gold[:-1], _said(early), detour=True))
    return _spec(template, level, problem.text, gold, final, problem.answer, routes, "calculator")


def _program(rng: random.Random, level: Difficulty) -> TaskSpec:
    template = rng.choice(tuple(PROGRAMS))
    for _ in range(MAX_DRAWS):
        problem = PROGRAMS[template](rng, level)
        numbers = set(problem.text.replace(",", " ").replace("?", " ").replace(".", " ").split())
        if int(problem.answer) > 1 and problem.answer not in numbers:
            break
    else:
        raise RuntimeError(f"template {template!r} ({level}) drew no usable problem")
    gold = [_code(problem.program)]
    final = _said(problem.answer)
    buggy = problem.program.replace("print(", "print(answer + ", 1)  # NameError: answer
    routes = [
        *_experts(problem.text),
        Route("code_executor_retry", [_code(buggy), *gold], final, detour=True),
        Route("calculator_then_code", [_calc(problem.shortcut), *gold], final, detour=True),
    ]
    if _wrong(problem.shortcut, problem.answer):
        routes.append(
            Route(
                "calculator_shortcut",
                [_calc(problem.shortcut)],
                _said(evaluate(problem.shortcut)),
                detour=True,
            )
        )
    return _spec(template, level, problem.text, gold, final, problem.answer, routes,
                 "code_executor")  # fmt: skip


def _right(alias: str, question: str, answer: str) -> bool:
    reply, _ = simulated_answer(alias, question, known(question))
    return answer_matches(answer, reply)


def _facts(rng: random.Random, level: Difficulty) -> TaskSpec:
    for _ in range(MAX_DRAWS):
        problem = fact_problem(rng, level)
        solvers = [a for a in EXPERTS if _right(a, problem.text, problem.answer)]
        if solvers and problem.answer not in problem.text:
            break
    else:
        raise RuntimeError(f"no fact problem ({level}) that some expert answers")
    first = solvers[0]  # the textbook route: the strongest expert that answers it right
    gold = [Action("ask_expert", {"expert": first, "question": problem.text})]
    ask = {r.name: r.actions[0] for r in _experts(problem.text)}
    routes = [
        *_experts(problem.text, but=first),
        Route("expert-3>expert-1", [ask["expert-3"], ask["expert-1"]], detour=True),
    ]
    if _wrong(problem.guess, problem.answer):  # misremembered facts, computed exactly
        guessed = _said(evaluate(problem.guess))
        routes.append(Route("calculator_guess", [_calc(problem.guess)], guessed, detour=True))
    return _spec("math_facts", level, problem.text, gold, _said(problem.answer), problem.answer,
                 routes, first)  # fmt: skip


def build_task(rng: random.Random, fake: Faker) -> TaskSpec:
    """One task, every choice drawn from `rng`: the problem, then its provider set-up. `fake` is
    the caller's name source (reseeded from `rng` before each use, so it holds no state)."""
    kind = rng.choices(tuple(KINDS), weights=tuple(KINDS.values()))[0]
    level = rng.choice(DIFFICULTIES)
    if kind == "word":
        spec = _word(rng, level, fake)
    else:
        spec = {"arithmetic": _arithmetic, "program": _program, "facts": _facts}[kind](rng, level)
    return replace(spec, prices=draw_setup(rng, SETUPS))
