"""The knowledge task templates: one- to three-hop questions, year arithmetic, and facts only a
model that knows the world answers (a mentor no document names, a river the documents dispute).

A chain question starts at one entity and follows relations (company -> founder -> birth town ->
river); the gold route searches each entity of the chain by its exact name, which by check ranks
that entity's own document first. Year questions search two documents and subtract with the
calculator. A draw whose gold search would not rank the needed document first is redrawn. Every
task also offers the experts as routes, and detours: a wider search, a search the tool refuses then
corrected, an expert's answer checked, and cheap routes that get the answer wrong (stopping after
the first hop, trusting the travel guide). A task also draws a provider set-up
(`toolscale.tools.price_setups`: a premium search beside a cheap small expert, a self-hosted
frontier expert beside a hosted mid one). The pipeline makes the best route the gold one
(`toolscale.oracle.played`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from domains.knowledge.corpus import DEFAULT_SIZE, Corpus
from domains.knowledge.expert import known
from domains.knowledge.index import Index, build_index
from toolscale.core.contract import (
    Action,
    Difficulty,
    Route,
    TaskSpec,
    committed_answer,
    normalize_text,
)
from toolscale.tools.experts import EXPERTS, simulated_answer
from toolscale.tools.price_setups import draw_setup

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
    "unstated": "hard",
    "disputed": "hard",
}
EXPERT_TEMPLATES = ("unstated", "disputed")  # only a model that knows the world answers these
TEMPLATES = tuple(DIFFICULTY)
# The provider set-ups a task draws (toolscale.tools.price_setups): where the fast route is dear.
SETUPS = {"listed": 1.0, "premium_search": 1.0, "self_hosted_frontier": 1.0}


@dataclass(frozen=True)
class Draft:
    """A drawn question before it becomes a TaskSpec: what to search, compute and answer."""

    instruction: str
    searches: list[str]
    expression: str | None
    answer: str
    final_message: str
    # An expert question: the person whose mentor it asks about (then the answer is the mentor's
    # birth town when `via_mentor`), or the disputed town; "" for a question documents answer.
    subject: str = ""
    via_mentor: bool = False


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


def _unstated(rng: random.Random, corpus: Corpus) -> Draft:
    """A person's mentor, which no document states (or the mentor's birth town)."""
    person = rng.choice(_names(corpus, "people"))
    mentor = corpus.mentors[person]
    if rng.random() < 0.5:
        final = f"{person} was mentored by {mentor}. The answer is {mentor}."
        return Draft(f"Who was the mentor of {person}?", [], None, mentor, final, person)
    town = corpus.people[mentor].birth_town
    final = f"{person} was mentored by {mentor}, who was born in {town}. The answer is {town}."
    question = f"In which town was the mentor of {person} born?"
    return Draft(question, [], None, town, final, person, via_mentor=True)


def _disputed(rng: random.Random, corpus: Corpus) -> Draft:
    """The river of a town whose documents disagree about it."""
    town = rng.choice(sorted(corpus.disputed))
    river = corpus.towns[town].river
    question = f"Which river flows through {town}, about which the documents disagree?"
    return Draft(question, [], None, river, f"{town} lies on the {river}. The answer is {river}.",
                 town)  # fmt: skip


def _draft(rng: random.Random, corpus: Corpus, template: str) -> Draft:
    if template == "unstated":
        return _unstated(rng, corpus)
    if template == "disputed":
        return _disputed(rng, corpus)
    if template == "years_between":
        return _years_between(rng, corpus)
    if template == "age_at_event":
        return _age_at_event(rng, corpus)
    return _chain(rng, corpus, template)


def _checked(index: Index, draft: Draft) -> bool:
    """Each gold search ranks its entity's own document first; the answer is not in the question
    nor a number any appended instruction states."""
    if any(name in index.corpus.disputed for name in draft.searches):
        return False  # the documents disagree on that town's river: not a search question
    for name in draft.searches:
        top = index.rank(name, 1)
        if not top or top[0].doc_id != index.corpus.doc_of[name]:
            return False
    # 0 and 1 are in the JSON-answer instruction a preference may append: not guessable there.
    guessable = draft.answer in ("0", "1")
    return not guessable and normalize_text(draft.answer) not in normalize_text(draft.instruction)


def _ask(alias: str, question: str) -> Action:
    return Action("ask_expert", {"expert": alias, "question": question})


def _experts(question: str, but: str = "") -> list[Route]:
    return [Route(alias, [_ask(alias, question)]) for alias in EXPERTS if alias != but]


def _said(value: str) -> str:
    return f"The answer is {value}."


def _reply(index: Index, alias: str, question: str) -> str | None:
    """What simulated expert `alias` answers to `question` (the sampler knows the world)."""
    reply, _ = simulated_answer(alias, question, known(index.corpus, question))
    return committed_answer(reply)


def _search_routes(draft: Draft, index: Index) -> tuple[str, list[Action], list[Route]]:
    searches = [Action("search", {"query": q}) for q in draft.searches]
    calc = (
        [] if draft.expression is None else [Action("calculator", {"expression": draft.expression})]
    )
    gold, final = searches + calc, draft.final_message
    wide = [Action("search", {"query": q, "k": 10}) for q in draft.searches] + calc
    retry = [Action("search", {"query": draft.searches[0], "k": 20}), *gold]
    routes = [
        *_experts(draft.instruction),
        Route("search_wide", wide, final, detour=True),
        Route("search_retry", retry, final, detour=True),
        Route(
            "expert-3_checked",
            [_ask("expert-3", draft.instruction), *gold],
            final,
            detour=True,
            checked=True,
        ),
    ]
    if draft.expression is not None:
        typo = Action("calculator", {"expression": draft.expression.replace("-", "\u2212")})
        routes.append(Route("calculator_retry", [*searches, typo, *calc], final, detour=True))
    elif len(searches) >= 2:  # answer the first hop's entity: a cheap route that gets it wrong
        routes.append(
            Route("search_stop_early", searches[:1], _said(draft.searches[1]), detour=True)
        )
    # Reading the last hop's document again by id, after the searches that found it.
    reread = [
        *searches,
        Action("read_document", {"doc_id": index.corpus.doc_of[draft.searches[-1]]}),
    ]
    routes.append(Route("search_reread", [*reread, *calc], final, detour=True))
    return ("search+calculator" if calc else "search"), gold, routes


def _expert_routes(draft: Draft, index: Index) -> tuple[str, list[Action], list[Route]] | None:
    """The routes of a question only the world answers, or None when no expert gets it right
    (such a task teaches nothing: it is drawn again)."""
    right = [a for a in EXPERTS if _reply(index, a, draft.instruction) == draft.answer]
    if not right:
        return None
    first = right[0]  # the textbook route: the strongest expert that answers it right
    look = Action("search", {"query": draft.subject})
    routes = [
        *_experts(draft.instruction, but=first),
        Route("search>expert-1", [look, _ask("expert-1", draft.instruction)], detour=True),
    ]
    if draft.via_mentor:  # ask who the mentor was, then search where that person was born
        question = f"Who was the mentor of {draft.subject}?"
        for alias in EXPERTS:
            named = _reply(index, alias, question)
            person = index.corpus.people.get(named or "")
            if person is not None:
                steps = [_ask(alias, question), Action("search", {"query": person.name})]
                routes.append(Route(f"{alias}+search", steps, _said(person.birth_town)))
    if draft.subject in index.corpus.disputed:  # trust the travel guide: wrong
        guide = index.corpus.disputed[draft.subject]
        routes.append(Route("search_trust_guide", [look], _said(guide), detour=True))
    return first, [_ask(first, draft.instruction)], routes


def _spec(template: str, draft: Draft, index: Index, size: int, seed: int) -> TaskSpec | None:
    if template in EXPERT_TEMPLATES:
        found = _expert_routes(draft, index)
        if found is None:
            return None
        name, gold, routes = found
    else:
        name, gold, routes = _search_routes(draft, index)
    return TaskSpec(
        template=template,
        difficulty=DIFFICULTY[template],
        instruction=draft.instruction,
        initial_state={"corpus": {"seed": seed, "size": size}},
        gold_actions=gold,
        final_message=draft.final_message,
        answer=draft.answer,
        routes=routes,
        gold_route=name,
    )


def sample_task(rng: random.Random, seed: int, size: int = DEFAULT_SIZE) -> TaskSpec:
    """One task over the corpus of run seed `seed`, every choice drawn from `rng`."""
    index = build_index(seed, size)
    template = rng.choice(TEMPLATES)
    for _ in range(100):
        draft = _draft(rng, index.corpus, template)
        spec = _spec(template, draft, index, size, seed) if _checked(index, draft) else None
        if spec is not None:
            return replace(spec, prices=draw_setup(rng, SETUPS))
    raise RuntimeError(f"no checkable {template} question in corpus {seed}/{size} after 100 draws")
