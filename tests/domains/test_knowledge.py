"""Tests of the knowledge domain: corpus, deterministic BM25 search, the gold routes and the other
routes each question admits."""

from __future__ import annotations

import json
import re

import bm25s
import pytest

from domains.knowledge import KnowledgeDomain
from domains.knowledge.corpus import Corpus, Doc, build_corpus
from domains.knowledge.expert import known
from domains.knowledge.index import Index, build_index, tokens
from domains.knowledge.tasks import EXPERT_TEMPLATES
from domains.knowledge.tools import KnowledgeTools
from toolscale.core.contract import (
    Route,
    TaskSpec,
    ToolError,
    committed_answer,
    item_rng,
    state_hash,
)
from toolscale.tools.experts import EXPERTS, simulated_answer

SEED, SIZE = 0, 300


def _kit(seed: int = SEED, size: int = SIZE) -> KnowledgeTools:
    return KnowledgeTools({"corpus": {"seed": seed, "size": size}})


def _tiny_index(texts: list[str]) -> Index:
    docs = tuple(Doc(f"doc-{i:04d}", f"T{i}", text) for i, text in enumerate(texts))
    corpus = Corpus({}, {}, {}, {}, {}, docs, {d.title: d.doc_id for d in docs}, {})
    bm25 = bm25s.BM25()
    bm25.index([tokens(d.text) for d in docs], show_progress=False)
    return Index(corpus, bm25)


def test_corpus_is_reproducible_from_seed_with_unique_names() -> None:
    corpus = build_corpus(5, 120)
    assert build_corpus.__wrapped__(5, 120) == corpus
    assert build_corpus.__wrapped__(6, 120).docs != corpus.docs
    # 120 entity documents, then a travel guide for one town in eight: 120 // 5 = 24 towns, 3
    assert len(corpus.docs) == 123
    assert len(corpus.doc_of) == 123  # titles unique
    assert [d.doc_id for d in corpus.docs] == [f"doc-{i:04d}" for i in range(123)]
    guides = corpus.docs[120:]
    assert [d.title for d in guides] == [f"Travel guide: {town}" for town in corpus.disputed]
    for doc, (town, river) in zip(guides, corpus.disputed.items(), strict=True):
        assert river != corpus.towns[town].river and river in doc.text  # the guide is wrong


def test_documents_state_the_facts_the_answers_rely_on() -> None:
    corpus = build_corpus(SEED, SIZE)
    text = {d.title: d.text for d in corpus.docs}
    for c in corpus.companies.values():
        assert f"founded in {c.founded} by {c.founder}." in text[c.name]
        assert f"headquarters are in {c.hq}," in text[c.name]
    for p in corpus.people.values():
        assert f"born in {p.birth_town} in {p.born}." in text[p.name]
    for t in corpus.towns.values():
        assert f"{t.name} is a town on the {t.river}." in text[t.name]
    for i in corpus.inventions.values():
        assert f"invented by {i.inventor} in {i.year}." in text[i.name]


def test_every_entity_name_ranks_its_own_document_first() -> None:
    index = build_index(SEED, SIZE)
    misses = [n for n, d in index.corpus.doc_of.items() if index.rank(n, 1)[0].doc_id != d]
    assert misses == []


def test_equal_scores_keep_doc_id_order_and_non_matches_are_dropped() -> None:
    index = _tiny_index(["gold river", "silver lake", "gold river", "gold river", "copper"])
    assert [d.doc_id for d in index.rank("gold", 10)] == ["doc-0000", "doc-0002", "doc-0003"]
    assert [d.doc_id for d in index.rank("river", 2)] == ["doc-0000", "doc-0002"]
    assert [d.doc_id for d in index.rank("lake gold", 1)] == ["doc-0001"]
    assert index.rank("platinum", 3) == []
    assert index.rank("the of and", 3) == []  # stopwords only


def test_search_returns_json_records_best_first() -> None:
    kit = _kit()
    company = next(iter(build_corpus(SEED, SIZE).companies.values()))
    results = json.loads(kit.search(company.name, k=2))
    assert len(results) == 2
    assert set(results[0]) == {"doc_id", "title", "text"}
    assert results[0]["title"] == company.name
    assert json.loads(kit.read_document(results[0]["doc_id"])) == results[0]
    assert kit.search("zzzqqq") == "[]"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda k: k.search("   "), "query is empty"),
        (lambda k: k.search("river", k=0), "k must be between 1 and 10"),
        (lambda k: k.search("river", k=11), "k must be between 1 and 10"),
        (lambda k: k.read_document("doc-9999"), "no document with id"),
    ],
)
def test_bad_arguments_raise_tool_error(call, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        call(_kit())


def test_read_tools_leave_state_unchanged() -> None:
    kit = _kit()
    before = state_hash(kit.state)
    kit.search("river town", k=10)
    kit.read_document("doc-0003")
    kit.calculator("1901 - 1866")
    assert state_hash(kit.state) == before


def test_age_question_answer_is_hand_checkable_from_the_two_documents() -> None:
    domain = KnowledgeDomain()
    spec = next(
        s
        for i in range(200)
        if (s := domain.sample(item_rng("knowledge", SEED, i), SEED, i)).template == "age_at_event"
    )
    kit = domain.toolkit(json.loads(json.dumps(spec.initial_state)))
    first = json.loads(kit.search(**spec.gold_actions[0].arguments))[0]["text"]
    second = json.loads(kit.search(**spec.gold_actions[1].arguments))[0]["text"]
    event_year = int(re.search(r"(?:founded|invented by .+?) in (\d{4})", first).group(1))
    born = int(re.search(r"born in \w+ in (\d{4})", second).group(1))
    assert spec.answer == str(event_year - born)
    assert kit.calculator(**spec.gold_actions[2].arguments) == spec.answer
    # The story, then the one answer statement the verifier reads (committed_answer).
    assert spec.final_message.endswith(f"was {spec.answer} years old. The answer is {spec.answer}.")


def _routes(spec: TaskSpec) -> dict[str, Route]:
    return {r.name: r for r in spec.routes}


def _asks(spec: TaskSpec) -> dict[str, list]:
    """Each expert's one-call route: the gold route of the expert it names, or its own route."""
    routes = {name: r.actions for name, r in _routes(spec).items() if name in EXPERTS}
    if spec.gold_route in EXPERTS:
        routes[spec.gold_route] = spec.gold_actions
    return routes


def test_gold_routes_replay_and_lead_to_the_answer() -> None:
    domain = KnowledgeDomain()
    corpus = build_corpus(SEED, SIZE)
    seen = set()
    for i in range(300):
        spec = domain.sample(item_rng("knowledge", SEED, i), SEED, i)
        assert spec == domain.sample(item_rng("knowledge", SEED, i), SEED, i)
        seen.add(spec.template)
        state = json.loads(json.dumps(spec.initial_state))
        before = state_hash(state)
        kit = domain.toolkit(state)
        outputs = []
        for action in spec.gold_actions:
            output = getattr(kit, action.name)(**action.arguments)
            if action.name == "search":  # the searched entity's own document ranks first
                top = json.loads(output)[0]
                assert top["doc_id"] == corpus.doc_of[action.arguments["query"]]
            outputs.append(output)
        assert state_hash(state) == before
        assert spec.answer in outputs[-1]
        assert spec.answer.casefold() not in spec.instruction.casefold()
        assert domain.check_answer(spec.answer, spec.final_message)
        assert spec.alternatives == []  # named routes replace the old alternatives
        assert set(_asks(spec)) == set(EXPERTS)  # every expert is a route of every question
        if spec.template in EXPERT_TEMPLATES:  # no document states it: an expert answers
            assert spec.gold_route in EXPERTS and len(spec.gold_actions) == 1
            assert domain.check_answer(spec.answer, outputs[-1])
            continue
        years = spec.template in ("years_between", "age_at_event")
        assert spec.gold_route == ("search+calculator" if years else "search")
        # The re-read detour reads the last searched entity's document by id, after searching.
        queries = [a.arguments["query"] for a in spec.gold_actions if a.name == "search"]
        reread = _routes(spec)["search_reread"]
        assert reread.detour
        assert [a.name for a in reread.actions][: len(queries) + 1] == [
            *["search"] * len(queries),
            "read_document",
        ]
        assert reread.actions[len(queries)].arguments == {"doc_id": corpus.doc_of[queries[-1]]}
    assert seen == set(domain.templates)


def test_expert_only_questions_have_a_search_detour_and_a_wrong_cheap_route() -> None:
    domain = KnowledgeDomain()
    corpus = build_corpus(SEED, SIZE)
    checked = set()
    for i in range(300):
        spec = domain.sample(item_rng("knowledge", SEED, i), SEED, i)
        if spec.template not in EXPERT_TEMPLATES:
            continue
        checked.add(spec.template)
        look, ask = _routes(spec)["search>expert-1"].actions
        assert (look.name, ask.arguments) == (
            "search",
            {"expert": "expert-1", "question": spec.instruction},
        )
        subject = look.arguments["query"]
        if spec.template == "disputed":  # trusting the travel guide names its wrong river
            guide = _routes(spec)["search_trust_guide"]
            assert (
                guide.detour and guide.final_message == f"The answer is {corpus.disputed[subject]}."
            )
            assert not domain.check_answer(spec.answer, guide.final_message)
        else:  # nothing states the mentor: the search finds the person, not the answer
            assert subject in corpus.people and corpus.mentors[subject] in spec.final_message
    assert checked == set(EXPERT_TEMPLATES)


def test_expert_answers_from_the_corpus_with_the_answer_or_a_same_kind_name() -> None:
    domain = KnowledgeDomain()
    corpus = build_corpus(SEED, SIZE)
    seas = {r.sea for r in corpus.rivers.values()}
    for i in range(60):
        spec = domain.sample(item_rng("knowledge", SEED, i), SEED, i)
        assert spec.initial_state == {"corpus": {"seed": SEED, "size": SIZE}}  # no answer key
        # The toolkit's expert looks the question up in the run's world.
        reading = known(corpus, spec.instruction)
        assert reading is not None and reading.answer == spec.answer
        for alias, actions in _asks(spec).items():
            (ask,) = actions
            assert ask.name == "ask_expert"
            assert ask.arguments == {"expert": alias, "question": spec.instruction}
            reply = domain.toolkit(json.loads(json.dumps(spec.initial_state))).ask_expert(
                **ask.arguments
            )
            assert reply == simulated_answer(alias, spec.instruction, reading)[0]
            stated = committed_answer(reply)
            if spec.template in ("years_between", "age_at_event"):
                assert stated.lstrip("-").isdigit()  # a year count, right or offset
            else:
                kinds = [corpus.people, corpus.towns, corpus.rivers]
                pool = next((set(k) for k in kinds if spec.answer in k), seas)
                assert stated in pool
