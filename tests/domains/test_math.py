"""The math domain: exact answers the calculator prints, hand-checked problems of every kind
(expressions, word problems, programs, facts), and the routes each kind admits."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from fractions import Fraction

import pytest

from domains.math import MathDomain
from domains.math.expertise import known
from domains.math.steps import Reject, Steps, exact_value, fmt, money, places
from domains.math.tasks import TEMPLATES, WORD_TEMPLATES
from toolscale.core.contract import Action, Route, TaskSpec, ToolError, item_rng, state_hash
from toolscale.economics.prices import text_tokens
from toolscale.tools.arith import evaluate
from toolscale.tools.experts import CANNOT, EXPERTS, reply_confidence, simulated_answer
from toolscale.tools.skills import Known

DOMAIN = MathDomain()


def spec_at(index: int, seed: int = 0) -> TaskSpec:
    return DOMAIN.sample(item_rng("math", seed, index), seed, index)


def replay(spec: TaskSpec, actions: list) -> list[str]:
    kit = DOMAIN.toolkit(json.loads(json.dumps(spec.initial_state)))
    return [getattr(kit, a.name)(**a.arguments) for a in actions]


def route(spec: TaskSpec, name: str) -> Route:
    (found,) = [r for r in spec.routes if r.name == name]
    return found


def code_route(spec: TaskSpec) -> list[Action] | None:
    """The route that runs one program: the gold route of a program problem, the code_executor
    route of an expression or word problem; a fact problem has none."""
    if spec.gold_route == "code_executor":
        return spec.gold_actions
    names = {r.name for r in spec.routes}
    return route(spec, "code_executor").actions if "code_executor" in names else None


SPECS = [spec_at(i) for i in range(400)]
MORE = SPECS + [spec_at(i) for i in range(400, 600)]  # enough for every template and level


def test_fmt_writes_exact_values_as_the_calculator_prints_them() -> None:
    assert fmt(Fraction(9261, 2)) == "4630.5" == evaluate("4000 * 1.05 ** 3")
    assert fmt(Fraction(36)) == "36" == evaluate("72 / 2")
    assert fmt(Fraction(-7, 4)) == "-1.75" == evaluate("0 - 7 / 4")
    assert money(Fraction(9, 2)) == "$4.50"
    assert places(Fraction(1, 8)) == 3
    assert places(Fraction(1, 3)) is None


def test_exact_value_reads_decimal_literals_as_written() -> None:
    assert exact_value("0.1 + 0.2") == Fraction(3, 10)
    assert exact_value("4000 * 1.05 ** 3") == Fraction(9261, 2)


def test_steps_substitute_printed_results_and_reject_inexact_values() -> None:
    steps = Steps()
    steps.add("half", "5 / 2")
    assert steps.add("double", "{half} * 2") == 5
    assert steps.steps[-1].calc == "2.5 * 2"
    with pytest.raises(Reject):
        steps.add("third", "1 / 3")  # never terminates: the calculator would round it
    with pytest.raises(Reject):
        steps.add("eighth", "1 / 8", decimals=2)
    with pytest.raises(Reject):
        steps.add("loss", "2 - 3")


def test_calculator_cannot_round_so_answers_must_be_exact() -> None:
    with pytest.raises(ToolError):
        evaluate("round(2.555, 2)")


@pytest.mark.parametrize(
    ("index", "template", "expressions", "answer", "final"),
    [
        # 180 miles * 1.6 = 288 km; 288 / 100 * 10.5 = 30.24 liters; * $1.25 = $37.80
        (
            6,
            "unit_conversion",
            ["180 * 1.6", "288 / 100 * 10.5", "30.24 * 1.25"],
            "37.8",
            "The answer is $37.80.",
        ),
        # $16.83 / 17 = $0.99 a pencil; 25 of them $24.75
        (11, "unit_rate", ["16.83 / 17", "0.99 * 25"], "24.75", "The answer is $24.75."),
        # alone 8 of 20 hours leaves 0.6; together 1/20 + 4/20 per hour: 0.6 / 0.25 = 2.4; 8 + 2.4
        (
            27,
            "work_time",
            ["1 - 8 / 20", "0.6 / (1 / 20 + 1 / 5)", "8 + 2.4"],
            "10.4",
            "The answer is 10.4 hours.",
        ),
        # 1 / (1/5 + 1/20 + 1/21) = 420 / 125 = 3.36 hours
        (10, "work_time", ["1 / (1 / 5 + 1 / 20 + 1 / 21)"], "3.36", "The answer is 3.36 hours."),
        # a bare expression: 921 * 383 = 352743, + 112
        (2, "arithmetic", ["112 + 921 * 383"], "352855", "The answer is 352855."),
    ],
)
def test_hand_checked_calculator_tasks(
    index: int, template: str, expressions: list[str], answer: str, final: str
) -> None:
    spec = SPECS[index]
    assert (spec.template, spec.gold_route) == (template, "calculator")
    assert [a.arguments["expression"] for a in spec.gold_actions] == expressions
    assert spec.answer == answer
    assert spec.final_message == final
    assert replay(spec, spec.gold_actions)[-1] == answer


@pytest.mark.parametrize(
    ("index", "template", "needle", "answer"),
    [
        # Collatz from 277: 832 416 208 104 52 26 13 40 20 10 5 16 8 4 2 1, 16 steps
        (20, "collatz_steps", "Start from 277.", "16"),
        # digit sum 6 up to 170: 6; 15 24 33 42 51 60; 105 114 123 132 141 150: 1 + 6 + 6 = 13
        (25, "digit_sum_count", "from 1 to 170 have a digit sum of exactly 6", "13"),
    ],
)
def test_hand_checked_program_tasks(index: int, template: str, needle: str, answer: str) -> None:
    spec = SPECS[index]
    assert (spec.template, spec.gold_route, spec.difficulty) == (template, "code_executor", "easy")
    assert needle in spec.instruction
    assert [a.name for a in spec.gold_actions] == ["code_executor"]
    assert (spec.answer, spec.final_message) == (answer, f"The answer is {answer}.")
    assert replay(spec, spec.gold_actions) == [answer]


def test_hand_checked_fact_task() -> None:
    # 5 sides of a pentagon * 6 faces of a cube + 19 = 49; no tool knows the facts, so the gold
    # route is the strongest expert that answers it right: expert-1, sure at 0.97 on an easy fact
    spec = SPECS[1]
    assert (spec.template, spec.difficulty, spec.answer) == ("math_facts", "easy", "49")
    assert "sides of a pentagon" in spec.instruction and "faces of a cube" in spec.instruction
    assert spec.gold_route == "expert-1"
    assert spec.gold_actions == [
        Action("ask_expert", {"expert": "expert-1", "question": spec.instruction})
    ]
    (reply,) = replay(spec, spec.gold_actions)
    assert reply.startswith("The answer is 49. (Confidence 0.97;")
    assert DOMAIN.check_answer(spec.answer, reply)


def test_gold_route_ends_on_the_answer_and_leaves_the_state_alone() -> None:
    for spec in SPECS:
        names = [a.name for a in spec.gold_actions]
        if spec.gold_route == "calculator":  # an expression or a word problem: one call a step
            assert set(names) == {"calculator"} and 1 <= len(names) <= 4
        elif spec.gold_route == "code_executor":  # a program problem: one program
            assert names == ["code_executor"]
        else:  # a fact problem: the expert that answers it
            assert spec.template == "math_facts" and spec.gold_route in EXPERTS
            assert spec.gold_actions[0].arguments == {
                "expert": spec.gold_route,
                "question": spec.instruction,
            }
        hash_before = state_hash(spec.initial_state)
        kit = DOMAIN.toolkit(json.loads(json.dumps(spec.initial_state)))
        outputs = [getattr(kit, a.name)(**a.arguments) for a in spec.gold_actions]
        if spec.template == "math_facts":
            assert DOMAIN.check_answer(spec.answer, outputs[-1])
        else:
            assert outputs[-1] == spec.answer
        assert state_hash(kit.state) == hash_before
        assert spec.initial_state == {}  # no answer key: experts read the question
        assert spec.answer in spec.final_message
        assert DOMAIN.check_answer(spec.answer, spec.final_message)


def test_answer_is_never_a_number_of_the_problem_text() -> None:
    for spec in SPECS:
        numbers = re.findall(r"\d+(?:\.\d+)?", spec.instruction.replace(",", ""))
        assert Fraction(spec.answer) not in {Fraction(n) for n in numbers}


def test_money_answers_are_whole_cents() -> None:
    money_specs = [s for s in MORE if "to the cent" in s.instruction]
    assert len(money_specs) > 50  # word problems are a quarter of the mix; most ask for dollars
    for spec in money_specs:
        assert (Fraction(spec.answer) * 100).denominator == 1


def test_every_template_at_every_difficulty_is_drawn_and_hard_takes_more_work() -> None:
    """A hard word problem takes more calculator steps than an easy one; a hard expression has
    more operators; a program or fact problem is one call at every level (its size or its facts
    make it hard)."""
    steps: dict[tuple[str, str], set[int]] = defaultdict(set)
    for spec in MORE:
        work = len(spec.gold_actions)
        if spec.template == "arithmetic":
            work = len(re.findall(r" [-+*] ", spec.instruction))
        steps[(spec.template, spec.difficulty)].add(work)
    assert set(steps) == {(t, d) for t in TEMPLATES for d in ("easy", "medium", "hard")}
    for template in ("arithmetic", *WORD_TEMPLATES):
        assert max(steps[(template, "easy")]) < min(steps[(template, "hard")]), template
    assert steps[("arithmetic", "easy")] == {2} and steps[("arithmetic", "hard")] == {4}
    for template in set(TEMPLATES) - {"arithmetic", *WORD_TEMPLATES}:
        assert {n for (t, _), ns in steps.items() if t == template for n in ns} == {1}


def test_sampling_is_deterministic_and_varied() -> None:
    assert spec_at(7) == SPECS[7]
    assert spec_at(7, seed=1) != SPECS[7]
    assert len({s.instruction for s in SPECS}) >= 0.98 * len(SPECS)


def test_word_problem_routes_are_code_experts_and_detours() -> None:
    spec = SPECS[6]  # the fuel problem above: three calculator steps
    gold = spec.gold_actions
    assert spec.alternatives == []  # named routes replace the old alternatives
    assert [(r.name, r.detour) for r in spec.routes] == [
        ("code_executor", False),
        ("expert-1", False),
        ("expert-2", False),
        ("expert-3", False),
        ("calculator_retry", True),
        ("calculator_repeat", True),
        ("expert-3_checked", True),
        ("calculator_stop_early", True),
    ]
    assert [a.name for a in route(spec, "code_executor").actions] == ["code_executor"]
    for alias in EXPERTS:
        asked = route(spec, alias)
        assert asked.actions == [
            Action("ask_expert", {"expert": alias, "question": spec.instruction})
        ]
        assert asked.final_message is None  # the expert's reply is relayed
    # The math expert reads the problem stated in the question: six numbers make it hard.
    assert known(spec.instruction) == Known("37.8", kind="word problem", difficulty="hard")
    reply = replay(spec, route(spec, "expert-1").actions)[-1]
    assert reply == simulated_answer("expert-1", spec.instruction, known(spec.instruction))[0]
    # A typo the calculator refuses, then the gold steps.
    retry = route(spec, "calculator_retry").actions
    assert retry == [Action("calculator", {"expression": "180 x 1.6"}), *gold]
    with pytest.raises(ToolError):
        replay(spec, retry[:1])
    repeated = route(spec, "calculator_repeat").actions
    assert repeated == [*gold, gold[-1]]
    assert replay(spec, repeated)[-2:] == [spec.answer, spec.answer]
    assert route(spec, "expert-3_checked").actions == [*route(spec, "expert-3").actions, *gold]
    # Stopping a step early answers the liters of fuel, 30.24, not the dollars: a wrong answer.
    early = route(spec, "calculator_stop_early")
    assert (early.actions, early.final_message) == (gold[:2], "The answer is 30.24.")
    assert not DOMAIN.check_answer(spec.answer, early.final_message)


@pytest.mark.parametrize(
    ("index", "routes", "wrong"),
    [
        # an expression: the multiplication misread as coming last, (112 + 921) * 383 = 395639
        (
            2,
            ["code_executor", "expert-1", "expert-2", "expert-3", "calculator_retry",
             "calculator_misread"],
            ("calculator_misread", "((112 + 921) * 383)", "The answer is 395639."),
        ),
        # a program problem: the calculator's shortcut halves the start, 277 // 2 = 138
        (
            20,
            ["expert-1", "expert-2", "expert-3", "code_executor_retry", "calculator_then_code",
             "calculator_shortcut"],
            ("calculator_shortcut", "277 // 2", "The answer is 138."),
        ),
        # a fact problem: misremembered facts, 3 sides and 8 faces, computed exactly: 43
        (
            1,
            ["expert-2", "expert-3", "expert-3>expert-1", "calculator_guess"],
            ("calculator_guess", "3 * 8 + 19", "The answer is 43."),
        ),
    ],
)  # fmt: skip
def test_every_kind_has_its_routes_and_a_cheap_wrong_one(
    index: int, routes: list[str], wrong: tuple[str, str, str]
) -> None:
    spec = SPECS[index]
    assert [r.name for r in spec.routes] == routes
    name, expression, final = wrong
    cheap = route(spec, name)
    assert cheap.detour and cheap.actions == [Action("calculator", {"expression": expression})]
    assert cheap.final_message == final
    assert replay(spec, cheap.actions) == [final.removeprefix("The answer is ").rstrip(".")]
    assert not DOMAIN.check_answer(spec.answer, final)


def test_program_retry_fails_first_and_then_runs_the_gold_program() -> None:
    spec = SPECS[20]
    buggy, fixed = route(spec, "code_executor_retry").actions
    assert fixed == spec.gold_actions[0]
    assert "NameError" in replay(spec, [buggy])[0]
    assert route(spec, "calculator_then_code").actions[1:] == spec.gold_actions


def test_code_route_prints_exactly_the_answer() -> None:
    seen: dict[tuple[str, str], TaskSpec] = {}
    for spec in MORE:
        seen.setdefault((spec.template, spec.difficulty), spec)
    for spec in seen.values():
        program = code_route(spec)
        if spec.template == "math_facts":
            assert program is None  # no program knows the facts
            continue
        assert program is not None and replay(spec, program) == [spec.answer], program


def test_toolkit_is_calculator_code_executor_and_experts() -> None:
    specs = DOMAIN.toolkit.specs()
    assert set(specs) == {"calculator", "code_executor", "ask_expert"}
    # The standard schedule's prices, declared on the tools: $ per call and modelled latency.
    assert (specs["calculator"].price.fee, specs["calculator"].price.latency_ms) == (0.00001, 10)
    code = specs["code_executor"].price
    assert (code.fee, code.latency_ms, code.ms_per_token, code.per_second) == (
        0.0001,
        300,
        0.5,
        0.0002,
    )
    assert specs["ask_expert"].price.is_free()  # priced through the model it reaches
    assert DOMAIN.toolkit.models() == tuple(EXPERTS) == ("expert-1", "expert-2", "expert-3")
    assert len(DOMAIN.toolkit.schemas()) == 3
    assert DOMAIN.family == "orchestration"


def test_simulated_expert_usage_is_a_reasoning_models() -> None:
    # The fuel problem, read as a hard word problem: expert-1 states its confidence (0.92 on hard
    # word problems) and reasons 2,500..5,000 tokens; it is billed those plus its reply's own
    # tokens, ceil(len / 4); its prompt is the question's tokens plus 16 of its own instructions.
    spec = SPECS[6]
    reply, usage = simulated_answer("expert-1", spec.instruction, known(spec.instruction))
    assert reply.startswith("The answer is ") and reply_confidence(reply) == 0.92
    reasoned = int(re.search(r"reasoned for ([\d,]+) tokens", reply)[1].replace(",", ""))
    assert 2500 <= reasoned <= 5000
    assert usage.completion_tokens == reasoned + -(-len(reply) // 4)
    assert usage.prompt_tokens == -(-len(spec.instruction) // 4) + 16
    assert (usage.model, usage.simulated, usage.latency_ms) == ("expert-1", True, 0.0)
    again = simulated_answer("expert-1", spec.instruction, known(spec.instruction))
    assert again == (reply, usage)
    # One it cannot: it says so, after a quarter of an easy answer's reasoning (expert-1 600..1200,
    # expert-3 150..350), plus CANNOT's own 138 characters, 35 tokens.
    assert text_tokens(CANNOT) == 35
    reply, usage = simulated_answer("expert-1", "What is the answer?", None)
    assert reply == CANNOT and 150 + 35 <= usage.completion_tokens <= 300 + 35
    reply, usage = simulated_answer("expert-3", "?", None)
    assert reply == CANNOT and 37 + 35 <= usage.completion_tokens <= 87 + 35
