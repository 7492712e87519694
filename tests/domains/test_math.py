"""The math domain: exact answers the calculator prints, hand-checked problems, and routes."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from fractions import Fraction

import pytest

from domains.math import MathDomain
from domains.math.steps import Reject, Steps, exact_value, fmt, money, places
from domains.math.tasks import TEMPLATES
from toolscale.core.contract import TaskSpec, ToolError, item_rng, state_hash
from toolscale.tools.arith import evaluate
from toolscale.tools.experts import CANNOT, EXPERTS, simulated_answer

DOMAIN = MathDomain()


def spec_at(index: int, seed: int = 0) -> TaskSpec:
    return DOMAIN.sample(item_rng("math", seed, index), seed, index)


def replay(spec: TaskSpec, actions: list) -> list[str]:
    kit = DOMAIN.toolkit(json.loads(json.dumps(spec.initial_state)))
    return [getattr(kit, a.name)(**a.arguments) for a in actions]


SPECS = [spec_at(i) for i in range(400)]


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
        # 1 * 12 + 6 * 11.25 + 2 * 2.25 = 84; 25% off -> 63; plus 10% tax -> 69.30
        (
            4,
            "shopping_discount",
            ["1 * 12 + 6 * 11.25 + 2 * 2.25", "84 * (1 - 25 / 100)", "63 * (1 + 10 / 100)"],
            "69.3",
            "The answer is $69.30.",
        ),
        # 95000 * 1.191016 = 113146.52; 95000 * 1.124864 = 106862.08; difference 6284.44
        (
            6,
            "compound_growth",
            ["95000 * 1.06 ** 3", "95000 * 1.04 ** 3", "113146.52 - 106862.08"],
            "6284.44",
            "The answer is $6284.44.",
        ),
        # alone 6 of 12 hours leaves 0.5; together 1/12 + 2/12 per hour: 0.5 / 0.25 = 2; 6 + 2
        (
            14,
            "work_time",
            ["1 - 6 / 12", "0.5 / (1 / 12 + 1 / 6)", "6 + 2"],
            "8",
            "The answer is 8 hours.",
        ),
        # 1 / (1/5 + 1/20 + 1/21) = 420 / 125 = 3.36 hours
        (10, "work_time", ["1 / (1 / 5 + 1 / 20 + 1 / 21)"], "3.36", "The answer is 3.36 hours."),
    ],
)
def test_hand_checked_tasks(
    index: int, template: str, expressions: list[str], answer: str, final: str
) -> None:
    spec = SPECS[index]
    assert spec.template == template
    assert [a.arguments["expression"] for a in spec.gold_actions] == expressions
    assert spec.answer == answer
    assert spec.final_message == final
    assert replay(spec, spec.gold_actions)[-1] == answer


def test_gold_route_ends_on_the_answer_and_leaves_the_state_alone() -> None:
    for spec in SPECS:
        assert all(a.name == "calculator" for a in spec.gold_actions)
        assert 1 <= len(spec.gold_actions) <= 4
        hash_before = state_hash(spec.initial_state)
        kit = DOMAIN.toolkit(json.loads(json.dumps(spec.initial_state)))
        outputs = [kit.calculator(**a.arguments) for a in spec.gold_actions]
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
    money_specs = [s for s in SPECS if "to the cent" in s.instruction]
    assert len(money_specs) > 100
    for spec in money_specs:
        assert (Fraction(spec.answer) * 100).denominator == 1


def test_every_template_at_every_difficulty_is_drawn_and_hard_takes_more_steps() -> None:
    steps: dict[tuple[str, str], set[int]] = defaultdict(set)
    for spec in SPECS:
        steps[(spec.template, spec.difficulty)].add(len(spec.gold_actions))
    assert set(steps) == {(t, d) for t in TEMPLATES for d in ("easy", "medium", "hard")}
    for template in TEMPLATES:
        assert max(steps[(template, "easy")]) < min(steps[(template, "hard")])


def test_sampling_is_deterministic_and_varied() -> None:
    assert spec_at(7) == SPECS[7]
    assert spec_at(7, seed=1) != SPECS[7]
    assert len({s.instruction for s in SPECS}) >= 0.98 * len(SPECS)


def test_alternatives_are_code_expert_and_a_repeated_call() -> None:
    spec = SPECS[4]
    code, expert, repeated = spec.alternatives
    assert [a.name for a in code] == ["code_executor"]
    assert expert[0].arguments == {"expert": "expert-1", "question": spec.instruction}
    reply = replay(spec, expert)[-1]
    # The math expert solves the problem stated in the question: it knows the answer, with no
    # plausible wrong names (a wrong reply offsets the number).
    assert reply == simulated_answer("expert-1", spec.instruction, (spec.answer, []))[0]
    assert repeated == [*spec.gold_actions, spec.gold_actions[-1]]
    assert replay(spec, repeated)[-2:] == [spec.answer, spec.answer]


def test_code_alternative_prints_exactly_the_answer() -> None:
    seen: dict[tuple[str, str], TaskSpec] = {}
    for spec in SPECS:
        seen.setdefault((spec.template, spec.difficulty), spec)
    for spec in seen.values():
        assert replay(spec, spec.alternatives[0]) == [spec.answer], spec.alternatives[0]


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
    # A question it can solve: "The answer is X." after 2000..4000 completion tokens (expert-1);
    # its prompt is the question's tokens, ceil(len / 4), plus 16 of its own instructions.
    spec = SPECS[4]
    reply, usage = simulated_answer("expert-1", spec.instruction, (spec.answer, []))
    assert reply.startswith("The answer is ") and reply.endswith(".")
    assert 2000 <= usage.completion_tokens <= 4000
    assert usage.prompt_tokens == -(-len(spec.instruction) // 4) + 16
    assert (usage.model, usage.simulated, usage.latency_ms) == ("expert-1", True, 0.0)
    assert simulated_answer("expert-1", spec.instruction, (spec.answer, [])) == (reply, usage)
    # One it cannot: it says so, after a tenth of its smallest answer (2000 // 10 tokens).
    reply, usage = simulated_answer("expert-1", "What is the answer?", None)
    assert (reply, usage.completion_tokens) == (CANNOT, 200)
    reply, usage = simulated_answer("expert-3", "?", None)
    assert (reply, usage.completion_tokens) == (CANNOT, 25)  # 250 // 10
