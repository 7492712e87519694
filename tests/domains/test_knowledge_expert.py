"""Tests of the simulated expert's brain: it answers the question asked from the corpus alone."""

from __future__ import annotations

import pytest

from domains.knowledge import KnowledgeDomain
from domains.knowledge.corpus import Corpus, build_corpus
from domains.knowledge.expert import answer
from domains.knowledge.tasks import _CHAINS, EXPERT_TEMPLATES, TEMPLATES
from toolscale.core.contract import TaskSpec, item_rng

SEEDS, PER_SEED = (0, 1), 300
APPENDED = (
    "I'm in a hurry: please be quick and don't take more steps than needed.",
    "Keep it cheap: use the least expensive tools that do the job.",
    "Don't use web search.",
    'Answer as JSON: {"answer": "<your answer>", "confidence": <a number between 0 and 1>}.',
)


@pytest.fixture(scope="module")
def tasks() -> list[TaskSpec]:
    domain = KnowledgeDomain()
    return [
        domain.sample(item_rng("knowledge", seed, i), seed, i)
        for seed in SEEDS
        for i in range(PER_SEED)
    ]


def _corpus(spec: TaskSpec) -> Corpus:
    named = spec.initial_state["corpus"]
    return build_corpus(named["seed"], named["size"])


def _ask(corpus: Corpus, question: str) -> str | None:
    got = answer(corpus, question)
    return None if got is None else got[0]


def _kind_names(corpus: Corpus, name: str) -> set[str] | None:
    """The names of the kind `name` belongs to (None for a number)."""
    seas = {r.sea for r in corpus.rivers.values()}
    groups = (corpus.people, corpus.towns, corpus.rivers, seas)
    return next((set(group) for group in groups if name in group), None)


def _entities(spec: TaskSpec) -> list[str]:
    """The entities a question names: those its gold route searches, or for a question only an
    expert answers (a mentor, a disputed river), the one its `search>expert-1` detour looks up."""
    actions = spec.gold_actions
    if spec.template in EXPERT_TEMPLATES:
        (detour,) = [r for r in spec.routes if r.name == "search>expert-1"]
        actions = detour.actions
    return [a.arguments["query"] for a in actions if a.name == "search"]


def test_sample_has_every_template_and_question_form(tasks: list[TaskSpec]) -> None:
    assert {spec.template for spec in tasks} == set(TEMPLATES)
    asked = {spec.instruction for spec in tasks}
    start = {spec.instruction: _entities(spec)[0] for spec in tasks}
    forms = [question for chains in _CHAINS.values() for _, _, question in chains]
    missing = [f for f in forms if not any(f.format(start[q]) == q for q in asked)]
    assert missing == []


def test_answers_every_sampled_question(tasks: list[TaskSpec]) -> None:
    failures = []
    for spec in tasks:
        corpus = _corpus(spec)
        variants = [spec.instruction, f"Question: {spec.instruction}"]
        variants += [f"{spec.instruction} {sentence}" for sentence in APPENDED]
        for question in variants:
            got = answer(corpus, question)
            if got is None or got[0] != spec.answer:
                failures.append((question, spec.answer, got))
    assert failures == []


def test_wrong_answers_are_other_names_of_the_same_kind(tasks: list[TaskSpec]) -> None:
    seen = set()
    for spec in tasks:
        corpus = _corpus(spec)
        got = answer(corpus, spec.instruction)
        assert got is not None
        correct, wrong = got
        kind = _kind_names(corpus, correct)
        if kind is None:
            assert correct.isdigit() and wrong == [], spec.instruction
            continue
        assert len(wrong) >= 3 and len(set(wrong)) == len(wrong), spec.instruction
        assert correct not in wrong and set(wrong) <= kind, spec.instruction
        seen.add(tuple(wrong))
    assert len(seen) > 100  # picked per question, not one fixed list


def test_wrong_answers_depend_on_the_question_alone(tasks: list[TaskSpec]) -> None:
    for spec in tasks[:50]:
        corpus = _corpus(spec)
        plain = answer(corpus, spec.instruction)
        assert answer(corpus, f"{spec.instruction} Don't use web search.") == plain


def test_unanswerable_questions_get_none() -> None:
    corpus = build_corpus(0, 300)
    company, other = sorted(corpus.companies)[:2]
    assert "Zzyzx Works" not in corpus.companies
    for question in (
        "?",
        "",
        "Who founded it?",
        "Who founded Zzyzx Works?",
        f"Who founded {company.split()[0]}?",  # part of a name is not the name
        f"Who founded {company} or {other}?",  # two entities where one is expected
        f"Who invented {company}?",  # a relation the entity does not have
        f"How many employees does {company} have?",  # a relation not understood
        f"Tell me about {company}.",
        # two paths fit (headquarters, or the founder's birth town): no guessing between them
        f"Which town is {company} headquartered in, and where was its founder born?",
    ):
        assert answer(corpus, question) is None, question


def test_questions_without_their_entity_names_get_none(tasks: list[TaskSpec]) -> None:
    for spec in tasks[:100]:
        question = spec.instruction
        for name in _entities(spec):
            question = question.replace(name, "")
        assert question != spec.instruction
        assert answer(_corpus(spec), question) is None, question


def test_rewordings_are_answered_from_the_corpus() -> None:
    corpus = build_corpus(0, 300)
    for c in sorted(corpus.companies.values(), key=lambda c: c.name)[:5]:
        assert _ask(corpus, f"Who is the founder of {c.name}?") == c.founder
        assert _ask(corpus, f"Who was {c.name} founded by?") == c.founder
        assert _ask(corpus, f"who founded {c.name.lower()}?") == c.founder
        assert _ask(corpus, f"Where is {c.name} headquartered?") == c.hq
        assert _ask(corpus, f"When was {c.name} founded?") == str(c.founded)
    for p in sorted(corpus.people.values(), key=lambda p: p.name)[:5]:
        assert _ask(corpus, f"Where was {p.name} born?") == p.birth_town
        assert _ask(corpus, f"What year was {p.name} born?") == str(p.born)
    for i in sorted(corpus.inventions.values(), key=lambda i: i.name)[:5]:
        assert _ask(corpus, f"When was the {i.name} invented?") == str(i.year)
        born = corpus.people[i.inventor].born
        assert _ask(corpus, f"When was the inventor of the {i.name} born?") == str(born)
    for t in sorted(corpus.towns.values(), key=lambda t: t.name)[:5]:
        assert _ask(corpus, f"Which river runs through {t.name}?") == t.river
    for r in sorted(corpus.rivers.values(), key=lambda r: r.name)[:5]:
        assert _ask(corpus, f"Which sea does the {r.name} flow into?") == r.sea
    # Facts no document states: a mentor, and the mentor's (not the pupil's) birth town.
    for p in sorted(corpus.people.values(), key=lambda p: p.name)[:5]:
        mentor = corpus.mentors[p.name]
        assert _ask(corpus, f"Who was the mentor of {p.name}?") == mentor
        town = corpus.people[mentor].birth_town
        assert _ask(corpus, f"In which town was the mentor of {p.name} born?") == town
    # A river a travel guide names wrongly: the expert knows the world, not the guide.
    for town, guide in sorted(corpus.disputed.items())[:3]:
        river = corpus.towns[town].river
        assert river != guide and _ask(corpus, f"Which river flows through {town}?") == river


def test_question_words_before_the_question_are_not_read() -> None:
    corpus = build_corpus(0, 300)
    company = corpus.companies[sorted(corpus.companies)[0]]
    question = f"When you answer, be brief. Who founded {company.name}?"
    assert _ask(corpus, question) == company.founder
    assert answer(corpus, question) == answer(corpus, f"Who founded {company.name}?")
