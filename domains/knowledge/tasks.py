"""The knowledge task templates: one- to three-hop questions and year arithmetic over the corpus.

A chain question starts at one entity and follows relations (company -> founder -> birth town ->
river); the gold route searches each entity of the chain by its exact name, which by check ranks
that entity's own document first. Year questions search two documents and subtract with the
calculator. A draw whose gold search would not rank the needed document first is redrawn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domains.knowledge.corpus import DEFAULT_SIZE, Corpus
from domains.knowledge.index import Index, build_index
from toolscale.contract import Action, Difficulty, TaskSpec, normalize_text

# (kind of the start entity, relations followed, question with {0} = the start entity's name)
_CHAINS: dict[str, list[tuple[str, tuple[str, ...], str]]] = {
    "single_hop": [
        ("companies", ("founder",), "Who founded {0}?"),
        ("inventions", ("inventor",), "Who invented the {0}?"),
        ("companies", ("hq",), "In which town does {0} have its headquarters?"),
        ("towns", ("river",), "Which river flows through {0}?"),
        ("people", ("birth_town",), "In which town was {0} born?"),
        ("rivers", ("sea",), "Into which sea does the {0} flow?"),
    ],
    "two_hop": [
        ("companies", ("founder", "birth_town"), "In which town was the founder of {0} born?"),
        ("inventions", ("inventor", "birth_town"), "In which town was the inventor of the {0} "
         "born?"),
        ("companies", ("hq", "river"), "Which river flows through the town where {0} has its "
         "headquarters?"),
        ("people", ("birth_town", "river"), "Which river flows through the town where {0} was "
         "born?"),
    ],
    "three_hop": [
        ("inventions", ("inventor", "birth_town", "river"), "Which river flows through the town "
         "where the inventor of the {0} was born?"),
        ("companies", ("founder", "birth_town", "river"), "Which river flows through the town "
         "where the founder of {0} was born?"),
        ("companies", ("hq", "river", "sea"), "Into which sea flows the river that runs through "
         "the town where {0} has its headquarters?"),
    ],
}  # fmt: skip
DIFFICULTY: dict[str, Difficulty] = {
    "single_hop": "easy",
    "two_hop": "medium",
    "three_hop": "hard",
    "years_between": "medium",
    "age_at_event": "hard",
}
TEMPLATES = tuple(DIFFICULTY)


@dataclass(frozen=True)
class Draft:
    """A drawn question before it becomes a TaskSpec: what to search, compute and answer."""

    instruction: str
    searches: list[str]
    expression: str | None
    answer: str
    final_message: str


def _step(corpus: Corpus, name: str, relation: str) -> tuple[str, str]:
    """The value of `relation` for entity `name` and a sentence stating it."""
    if relation in ("founder", "hq"):
        company = corpus.companies[name]
        if relation == "founder":
            return company.founder, f"{name} was founded by {company.founder}"
        return company.hq, f"{name} has its headquarters in {company.hq}"
    if relation == "inventor":
        inventor = corpus.inventions[name].inventor
        return inventor, f"the {name} was invented by {inventor}"
    if relation == "birth_town":
        town = corpus.people[name].birth_town
        return town, f"{name} was born in {town}"
    if relation == "river":
        river = corpus.towns[name].river
        return river, f"{name} lies on the {river}"
    sea = corpus.rivers[name].sea
    return sea, f"the {name} flows into the {sea}"


def _names(corpus: Corpus, kind: str) -> list[str]:
    if kind == "seas":
        return [r.sea for r in corpus.rivers.values()]
    return list(getattr(corpus, kind))


def _chain(rng: random.Random, corpus: Corpus, template: str) -> Draft:
    kind, relations, question = rng.choice(_CHAINS[template])
    name = rng.choice(_names(corpus, kind))
    searches, sentences = [], []
    for relation in relations:
        searches.append(name)
        name, sentence = _step(corpus, name, relation)
        sentences.append(sentence)
    story = "; ".join(sentences)
    final = f"{story[0].upper()}{story[1:]}. The answer is {name}."
    return Draft(question.format(searches[0]), searches, None, name, final)


def _event(rng: random.Random, corpus: Corpus) -> tuple[str, str, int]:
    """A dated event: (the entity to search, how to name the event, its year)."""
    if rng.random() < 0.5:
        company = corpus.companies[rng.choice(_names(corpus, "companies"))]
        return company.name, f"the founding of {company.name}", company.founded
    invention = corpus.inventions[rng.choice(_names(corpus, "inventions"))]
    return invention.name, f"the invention of the {invention.name}", invention.year


def _years_between(rng: random.Random, corpus: Corpus) -> Draft:
    a, event_a, year_a = _event(rng, corpus)
    b, event_b, year_b = _event(rng, corpus)
    while b == a:
        b, event_b, year_b = _event(rng, corpus)
    span = abs(year_a - year_b)
    final = (
        f"{event_a[0].upper()}{event_a[1:]} was in {year_a} and {event_b} in {year_b}, "
        f"so {span} years passed between them."
    )
    return Draft(
        f"How many years passed between {event_a} and {event_b}?",
        [a, b],
        f"{max(year_a, year_b)} - {min(year_a, year_b)}",
        str(span),
        f"{final} The answer is {span}.",
    )


def _age_at_event(rng: random.Random, corpus: Corpus) -> Draft:
    if rng.random() < 0.5:
        company = corpus.companies[rng.choice(_names(corpus, "companies"))]
        thing, person, year, role = company.name, company.founder, company.founded, "founder"
        question = f"How old was the founder of {thing} in the year {thing} was founded?"
        event = f"{thing} was founded in {year} by {person}"
    else:
        invention = corpus.inventions[rng.choice(_names(corpus, "inventions"))]
        thing, person, year, role = invention.name, invention.inventor, invention.year, "inventor"
        question = f"How old was the inventor of the {thing} in the year it was invented?"
        event = f"The {thing} was invented in {year} by {person}"
    born = corpus.people[person].born
    age = year - born
    return Draft(
        f"{question} Count the age as the difference of the two years.",
        [thing, person],
        f"{year} - {born}",
        str(age),
        f"{event}, who was born in {born}, so the {role} was {age} years old. The answer is {age}.",
    )


def _draft(rng: random.Random, corpus: Corpus, template: str) -> Draft:
    if template == "years_between":
        return _years_between(rng, corpus)
    if template == "age_at_event":
        return _age_at_event(rng, corpus)
    return _chain(rng, corpus, template)


def _checked(index: Index, draft: Draft) -> bool:
    """Each gold search ranks its entity's own document first; the answer is not in the question
    nor a number any appended instruction states."""
    for name in draft.searches:
        top = index.rank(name, 1)
        if not top or top[0].doc_id != index.corpus.doc_of[name]:
            return False
    # 0 and 1 are in the JSON-answer instruction a preference may append: not guessable there.
    guessable = draft.answer in ("0", "1")
    return not guessable and normalize_text(draft.answer) not in normalize_text(draft.instruction)


def _spec(template: str, draft: Draft, index: Index, size: int, seed: int) -> TaskSpec:
    searches = [Action("search", {"query": q}) for q in draft.searches]
    calc = (
        [] if draft.expression is None else [Action("calculator", {"expression": draft.expression})]
    )
    # The redundant search double-checks the answer's own document, or searches the whole chain.
    extra = draft.answer if draft.answer in index.corpus.doc_of else " ".join(draft.searches)
    redundant = [*searches, Action("search", {"query": extra}), *calc]
    wide = [Action("search", {"query": q, "k": 10}) for q in draft.searches] + calc
    expert = [Action("ask_expert", {"expert": "expert-1", "question": draft.instruction})]
    # Reading the last hop's document again by id, after the searches that found it.
    last = index.corpus.doc_of[draft.searches[-1]]
    reread = [*searches, Action("read_document", {"doc_id": last}), *calc]
    return TaskSpec(
        template=template,
        difficulty=DIFFICULTY[template],
        instruction=draft.instruction,
        initial_state={"corpus": {"seed": seed, "size": size}},
        gold_actions=searches + calc,
        final_message=draft.final_message,
        answer=draft.answer,
        alternatives=[redundant, expert, wide, reread],
    )


def sample_task(rng: random.Random, seed: int, size: int = DEFAULT_SIZE) -> TaskSpec:
    """One task over the corpus of run seed `seed`, every choice drawn from `rng`."""
    index = build_index(seed, size)
    template = rng.choice(TEMPLATES)
    for _ in range(100):
        draft = _draft(rng, index.corpus, template)
        if _checked(index, draft):
            return _spec(template, draft, index, size, seed)
    raise RuntimeError(f"no checkable {template} question in corpus {seed}/{size} after 100 draws")
