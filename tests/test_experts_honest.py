"""Simulated experts answer the question they are asked, never the task's hidden answer."""

from __future__ import annotations

import pytest

from domains.knowledge import KnowledgeDomain
from domains.math import MathDomain
from toolscale.core.contract import ToolError, answer_matches, item_rng
from toolscale.tools.experts import EXPERTS

N = 200  # tasks per domain: 400 in all


def _tasks(domain, seed: int = 0, count: int = N):
    return [domain.sample(item_rng(domain.name, seed, i), seed, i) for i in range(count)]


@pytest.fixture(scope="module")
def tasks():
    return {
        "math": (MathDomain(), _tasks(MathDomain())),
        "knowledge": (KnowledgeDomain(), _tasks(KnowledgeDomain())),
    }


def _ask(domain, spec, alias: str, question: str) -> str:
    kit = domain.toolkit(dict(spec.initial_state))
    return kit.ask_expert(alias, question)


def _reply(domain, spec, alias: str, question: str) -> str:
    """The expert's reply, or the tool error an empty question gets (bounded arguments, issue
    26): the error is what the agent reads instead, and it states no answer."""
    try:
        return _ask(domain, spec, alias, question)
    except ToolError as error:
        assert not question.strip(), question  # only an empty question is refused
        return str(error)


def _without_question(text: str) -> str:
    """The instruction with its question sentence (the one ending in "?") removed."""
    head, _, _ = text.rpartition("?")
    cut = max(head.rfind(". "), head.rfind("! "))
    return head[: cut + 1] if cut >= 0 else ""


def test_a_question_that_does_not_state_the_problem_is_never_answered(tasks):
    correct = asked = 0
    for domain, specs in tasks.values():
        for spec in specs:
            for question in ("?", "What is the answer?", _without_question(spec.instruction)):
                reply = _reply(domain, spec, "expert-1", question)
                asked += 1
                correct += answer_matches(spec.answer, reply)
                refused = reply.startswith("I cannot answer this:")
                assert refused or not answer_matches(spec.answer, reply)
    assert asked == 3 * 2 * N and correct == 0


def _expected(domain, spec, alias: str) -> float:
    """The chance the alias's skill profile gives for the question's kind and difficulty."""
    known = domain.toolkit(dict(spec.initial_state)).known(spec.instruction)
    return EXPERTS[alias].p_correct(known.kind, known.difficulty)


@pytest.mark.parametrize("alias", sorted(EXPERTS))
def test_a_full_question_is_answered_at_its_profiles_accuracy(tasks, alias):
    results, expected = [], []
    for domain, specs in tasks.values():
        for spec in specs:
            results.append(answer_matches(spec.answer, _ask(domain, spec, alias, spec.instruction)))
            expected.append(_expected(domain, spec, alias))
    assert len(results) == 2 * N
    # Each answer is an independent hash-seeded draw: over 400 calls the standard error is up to
    # 2.5 points, so +-6 points holds.
    assert abs(sum(results) / len(results) - sum(expected) / len(expected)) <= 0.06


def test_the_state_holds_no_answer(tasks):
    for _, specs in tasks.values():
        for spec in specs[:50]:
            assert spec.answer not in str(spec.initial_state)
