"""Simulated experts understand a complete question however it is put (issue 46).

tests/fixtures/expert_questions.json holds every question capable LLM agents asked an expert in
the issue 46 runs (B1, B2), and hand-written phrasings of the same problems: rephrased, split into
parts, a chain asked whole or hop by hop, a fact asked alone. Each entry lists the right answer of
each part, read from the run's world (or the table of facts) by hand. Each is answered, part by
part, never refused; whether an alias answers right is its skill profile's business.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domains.knowledge import KnowledgeDomain
from domains.math import MathDomain
from toolscale.tools.experts import EXPERTS, ExpertTool, question_parts

FIXTURE = Path(__file__).parent / "fixtures" / "expert_questions.json"
QUESTIONS = json.loads(FIXTURE.read_text())
REFUSED = "I cannot answer this"
B1 = {"corpus": {"seed": 889814, "size": 300}}


def _kit(row: dict) -> ExpertTool:
    domain = KnowledgeDomain() if row["domain"] == "knowledge" else MathDomain()
    kit = domain.toolkit(dict(row["state"]))
    assert isinstance(kit, ExpertTool)
    return kit


def test_every_logged_question_is_in_the_fixture() -> None:
    logged = [r for r in QUESTIONS if r["source"].startswith("capable agent")]
    assert len(logged) == 10 and len(QUESTIONS) == 33


@pytest.mark.parametrize("row", QUESTIONS, ids=lambda r: r["question"][:60])
def test_a_complete_question_is_read_part_by_part(row: dict) -> None:
    found = _kit(row).known(row["question"])
    assert found is not None
    assert [p.answer for p in (found.parts or (found,))] == row["parts"]


@pytest.mark.parametrize("row", QUESTIONS, ids=lambda r: r["question"][:60])
def test_a_complete_question_is_answered_by_every_alias_the_same_way_twice(row: dict) -> None:
    kit = _kit(row)
    for alias in EXPERTS:
        reply = kit.ask_expert(alias, row["question"])
        assert not reply.startswith(REFUSED)
        assert reply == kit.ask_expert(alias, row["question"])  # replays reproduce
        if len(row["parts"]) > 1:
            assert reply.startswith("Part 1: ") and f"Part {len(row['parts'])}: " in reply


def test_a_chain_is_never_rerolled_right_and_its_parts_agree() -> None:
    # One draw per problem and alias: rewording a chain never turns a wrong answer right (no
    # reroll by rephrasing). Asked as parts, the second part starts from the founder the expert
    # named: a wrong founder's birth town, never the right founder's (round K: "Part 1: Holly
    # Shavuzeim. Part 2: Jorivonton." named the mentor wrong and the mentor's town right).
    kit = KnowledgeDomain().toolkit(dict(B1))
    corpus = kit._index().corpus  # type: ignore[attr-defined]
    founder = corpus.companies["Woukel Foundry"].founder
    right, split_right = [], []
    for alias in EXPERTS:
        whole = kit.ask_expert(alias, "In which town was the founder of Woukel Foundry born?")
        split = kit.ask_expert(alias, "Who founded Woukel Foundry? Where was he born?")
        named = split.split("Part 1: ")[1].split(". Part 2: ")[0]
        town = split.split("Part 2: ")[1].split(". (")[0]
        right.append("The answer is Viheivarby." in whole)
        split_right.append(town == "Viheivarby")
        if named != founder:
            assert town != "Viheivarby" and town in corpus.towns
    assert right == [True, False, True]  # as drawn: expert-2 (0.25) wrong, expert-3 (0.35) right
    assert all(w or not s for w, s in zip(right, split_right, strict=True))
    assert split_right == [True, False, False]  # expert-3 names another founder, born elsewhere


def test_the_parts_of_a_question() -> None:
    assert question_parts("Take 3 apples. Add 2. How many now? Be quick.") == [
        "Take 3 apples. Add 2. How many now?"
    ]
    assert question_parts("(1) Who founded X? (2) Where?") == ["Who founded X?", "Where?"]
    assert question_parts("Who founded X, and in which town was that founder born?") == [
        "Who founded X?",
        "in which town was that founder born?",
    ]
    assert question_parts("What is 2 * 3? And what is 4 + 1?") == [
        "What is 2 * 3?",
        "what is 4 + 1?",
    ]
    assert question_parts("No question here.") == []


@pytest.mark.parametrize(
    ("domain", "question", "says"),
    [
        ("knowledge", "Who founded it?", "names no person, company"),
        ("knowledge", "Where was that founder born?", "names no person, company"),
        ("knowledge", "Tell me about Woukel Foundry.", "asks nothing about Woukel Foundry"),
        ("knowledge", "Who founded Woukel Foundry and Debalt Works?", "Woukel Foundry and Debalt"),
        ("math", "What is the answer?", "states no numbers"),
        ("math", "How many faces?", "states no numbers"),
        ("math", "A shop sells pens at $2. What is the total cost?", "a number or quantity"),
    ],
)
def test_an_incomplete_question_is_refused_saying_what_it_lacks(
    domain: str, question: str, says: str
) -> None:
    kit = _kit({"domain": domain, "state": B1 if domain == "knowledge" else {}})
    for alias in EXPERTS:
        reply = kit.ask_expert(alias, question)
        assert reply.startswith(REFUSED) and says in reply, reply


def test_a_question_that_asks_for_the_role_or_says_his_is_read_whole() -> None:
    # round K, seed 939127: "Who was the mentor of X? Answer with the mentor's full name only."
    # was two parts naming the mentor twice, and statements naming X before "Who was his
    # mentor?" were refused as naming no one
    kit = KnowledgeDomain().toolkit({"corpus": {"seed": 939127, "size": 300}})
    mentor = "Steven Restoustax"  # corpus.mentors["Timothy Wonougas"], read by hand
    for question in (
        "Who was the mentor of Timothy Wonougas? Answer with the mentor's full name only.",
        "Timothy Wonougas was a shipwright born in Drafamhaven in 1888 who founded Zenoudrosh "
        "Works in 1947. Who was his mentor? Answer with the mentor's full name only.",
    ):
        found = kit.known(question)
        assert found is not None and found.answer == mentor and found.parts == ()
        assert kit.ask_expert("expert-1", question).startswith("The answer is ")
    chain = kit.known("In which town was the mentor of Timothy Wonougas born? Name the mentor.")
    assert chain is not None and [p.answer for p in chain.parts] == [mentor, "Mouquoulholt"]
