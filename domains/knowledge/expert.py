"""Answer a knowledge question by looking up the entity and relation it names in the run's corpus.

This is the brain of the simulated expert: it reads the question it is asked and the corpus, never
a task's hidden answer. It understands every question the sampler writes (one- to three-hop chains,
the years between two events, a founder's or inventor's age) and light rewordings, found by key
phrases rather than by template: the first question word picks the kind of answer wanted ("who",
"where", "which river", "what year", "how old", "how many years"), and the relation words
("founder", "headquarters", "born", "river", "sea", "invented") pick the path through the world
from the one entity named. Only the question up to its first "?" is read, so instructions around it
("Don't use web search.") do not count.

It does not guess: a question naming no known entity, two entities where one is expected, or
relation words that fit no path, or more than one, gets None. It does not decide when the expert
is wrong, nor perturb numbers; the caller does, with the wrong names offered here.
"""

from __future__ import annotations

import hashlib
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from domains.knowledge.corpus import Corpus
from toolscale.core.contract import Difficulty
from toolscale.tools.skills import Known

_NUMBER_KINDS = ("year", "age", "span")


@dataclass(frozen=True)
class _Edge:
    """One relation of the world: from an entity of kind `source` to a value of kind `target`,
    asked about only when the question contains `cue`."""

    source: str
    target: str
    cue: re.Pattern[str]
    step: Callable[[Corpus, str], str]


def _cue(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# The words that name each relation in a question (entity names are masked out first).
_FOUNDER = _cue(r"\bfound(?:er|ers|ed|ing)\b")
_FOUNDED = _cue(r"\bfound(?:ed|ing)\b")
_HQ = _cue(r"\bheadquarter|\bbased\b|\bhead office\b")
_INVENTOR = _cue(r"\binvent(?:or|ors|ed)\b")
_INVENTED = _cue(r"\binvent(?:ed|ion)\b")
_BORN = _cue(r"\bborn\b|\bbirth")
_RIVER = _cue(r"\brivers?\b")
_SEA = _cue(r"\bseas?\b")
_ROLE = _cue(r"\b(?:founder|inventor)\b")  # an age is asked of a person, named by their role
_MENTOR = _cue(r"\bmentor(?:s|ed)?\b")
_DISPUTED = _cue(r"\bdisagree|\bconflict|\bdisput")
_EDGES = (
    _Edge("companies", "people", _FOUNDER, lambda c, n: c.companies[n].founder),
    _Edge("companies", "towns", _HQ, lambda c, n: c.companies[n].hq),
    _Edge("companies", "year", _FOUNDED, lambda c, n: str(c.companies[n].founded)),
    _Edge("inventions", "people", _INVENTOR, lambda c, n: c.inventions[n].inventor),
    _Edge("inventions", "year", _INVENTED, lambda c, n: str(c.inventions[n].year)),
    _Edge("people", "towns", _BORN, lambda c, n: c.people[n].birth_town),
    _Edge("people", "year", _BORN, lambda c, n: str(c.people[n].born)),
    _Edge("towns", "rivers", _RIVER, lambda c, n: c.towns[n].river),
    _Edge("towns", "year", _FOUNDED, lambda c, n: str(c.towns[n].founded)),
    _Edge("rivers", "seas", _SEA, lambda c, n: c.rivers[n].sea),
    _Edge("people", "people", _MENTOR, lambda c, n: c.mentors[n]),
)

# The kind of answer wanted, read from the question word that comes first.
_TARGETS = (
    ("people", _cue(r"\bwhom?\b|\b(?:which|what) (?:person|man|woman)\b")),
    ("towns", _cue(r"\bwhere\b|\b(?:which|what) (?:town|city|place)\b")),
    ("rivers", _cue(r"\b(?:which|what) river\b")),
    ("seas", _cue(r"\b(?:which|what) sea\b")),
    ("year", _cue(r"\bwhen\b|\b(?:which|what) year\b")),
    ("age", _cue(r"\bhow old\b")),
    ("span", _cue(r"\bhow many years\b")),
)
_SENTENCE_END = re.compile(r"(?<=[.!:;])\s+")


@dataclass(frozen=True)
class _Lexicon:
    """The names of one corpus: which kind each is, and a pattern that finds them in a question."""

    kind_of: dict[str, str]  # casefolded name -> kind
    canonical: dict[str, str]  # casefolded name -> name as in the corpus
    names: dict[str, list[str]]  # kind -> its names, sorted
    pattern: re.Pattern[str]


def _build_lexicon(corpus: Corpus) -> _Lexicon:
    names = {
        "rivers": sorted(corpus.rivers),
        "towns": sorted(corpus.towns),
        "people": sorted(corpus.people),
        "companies": sorted(corpus.companies),
        "inventions": sorted(corpus.inventions),
        "seas": sorted({r.sea for r in corpus.rivers.values()}),
    }
    kind_of = {n.casefold(): kind for kind, group in names.items() for n in group}
    canonical = {n.casefold(): n for group in names.values() for n in group}
    # Longest first, so a name is never cut short by a shorter one it starts with.
    alternatives = "|".join(re.escape(n) for n in sorted(canonical, key=len, reverse=True))
    pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    return _Lexicon(kind_of, canonical, names, pattern)


_lexicons: dict[int, _Lexicon] = {}


def _lexicon(corpus: Corpus) -> _Lexicon:
    """The lexicon of `corpus`, built once while the corpus lives (a Corpus holds dicts, so it
    cannot key a functools cache; its id can, dropped when the corpus is collected)."""
    key = id(corpus)
    if key not in _lexicons:
        _lexicons[key] = _build_lexicon(corpus)
        weakref.finalize(corpus, _lexicons.pop, key, None)
    return _lexicons[key]


def _question_sentence(text: str) -> str:
    """The question itself: up to its first "?", without sentences or labels before it, so
    instructions appended after the question ("Don't use web search.") are not read."""
    head, mark, _ = text.partition("?")
    if not mark:
        return text
    return _SENTENCE_END.split(head)[-1] + mark


def _target(masked: str) -> str | None:
    found = [(m.start(), kind) for kind, cue in _TARGETS if (m := cue.search(masked))]
    return min(found)[1] if found else None


def _paths(source: str, target: str, depth: int = 3) -> list[tuple[_Edge, ...]]:
    """Every chain of at most `depth` relations from kind `source` to kind `target`."""
    paths: list[tuple[_Edge, ...]] = []
    if depth == 0:
        return paths
    for edge in _EDGES:
        if edge.source != source:
            continue
        if edge.target == target:
            paths.append((edge,))
        # (a person's mentor is a person: the depth bounds the chain)
        paths.extend((edge, *rest) for rest in _paths(edge.target, target, depth - 1))
    return paths


def _follow(corpus: Corpus, name: str, path: tuple[_Edge, ...]) -> str:
    for edge in path:
        name = edge.step(corpus, name)
    return name


def _chain(corpus: Corpus, kind: str, name: str, target: str, masked: str) -> str | None:
    """The value at the end of the one path whose every relation the question names."""
    asked = _asked(kind, target, masked)
    return _follow(corpus, name, asked[0]) if len(asked) == 1 else None


def _words(cues: set[re.Pattern[str]], masked: str) -> set[tuple[int, int]]:
    """Where in the question the relation words of `cues` stand."""
    return {found.span() for cue in cues for found in cue.finditer(masked)}


_CUES = {edge.cue for edge in _EDGES}


def _asked(kind: str, target: str, masked: str) -> list[tuple[_Edge, ...]]:
    """The shortest paths whose every relation the question names and which account for every
    relation word in it: "the mentor of X born" is the mentor's birth town, not X's; "where is X
    headquartered, and where was its founder born?" fits neither path whole, so none."""
    named = _words(_CUES, masked)
    asked = [
        p
        for p in set(_paths(kind, target))
        if all(e.cue.search(masked) for e in p) and _words({e.cue for e in p}, masked) == named
    ]
    shortest = min((len(p) for p in asked), default=0)
    return [p for p in asked if len(p) == shortest]


def _edge(source: str, target: str, masked: str) -> _Edge | None:
    """The edge `source` -> `target`, when the question names it."""
    for edge in _EDGES:
        if edge.source == source and edge.target == target and edge.cue.search(masked):
            return edge
    return None


def _age(corpus: Corpus, kind: str, name: str, masked: str) -> str | None:
    """How old the entity's founder or inventor was in the year of its founding or invention."""
    person, year = _edge(kind, "people", masked), _edge(kind, "year", masked)
    if person is None or year is None or not _ROLE.search(masked):
        return None
    born = corpus.people[person.step(corpus, name)].born
    return str(int(year.step(corpus, name)) - born)


def _span(corpus: Corpus, named: list[tuple[str, str]], masked: str) -> str | None:
    """Years between the dated events (founding, invention, birth) of two entities."""
    if len(named) != 2:
        return None
    years = []
    for kind, name in named:
        edge = _edge(kind, "year", masked)
        if edge is None:
            return None
        years.append(int(edge.step(corpus, name)))
    return str(abs(years[0] - years[1]))


def _wrong(lexicon: _Lexicon, kind: str, correct: str, question: str) -> list[str]:
    """Three other names of the answer's kind, picked by a hash of the question."""
    if kind in _NUMBER_KINDS:
        return []
    others = [n for n in lexicon.names[kind] if n != correct]
    digest = hashlib.sha256(question.casefold().encode()).digest()
    start = int.from_bytes(digest[:8]) % len(others) if others else 0
    return (others[start:] + others[:start])[:3]


def known(corpus: Corpus, question: str) -> Known | None:
    """`answer` with the kind and difficulty of the question as the expert reads them: a
    look-up (one relation, easy), multi-hop (two relations medium, three hard), date arithmetic
    (years between: medium; an age: hard), and an obscure fact (a relation no document states,
    or one the documents dispute: hard)."""
    found = answer(corpus, question)
    if found is None:
        return None
    text = _question_sentence(question)
    lexicon = _lexicon(corpus)
    masked = lexicon.pattern.sub(" _ ", text)
    target = _target(masked)
    kind: str
    level: Difficulty
    if target == "span":
        kind, level = "date arithmetic", "medium"
    elif target == "age":
        kind, level = "date arithmetic", "hard"
    else:
        key = lexicon.pattern.search(text)
        entity = lexicon.kind_of[key.group().casefold()] if key else ""
        path = _asked(entity, target or "", masked)
        hops = len(path[0]) if path else 1
        kind, level = ("look-up", "easy") if hops == 1 else ("multi-hop", _HOPS[min(hops, 3)])
        if _MENTOR.search(masked) or _DISPUTED.search(masked):
            kind, level = "obscure fact", "hard"
    return Known(found[0], found[1], kind, level)


_HOPS: dict[int, Difficulty] = {1: "easy", 2: "medium", 3: "hard"}


def answer(corpus: Corpus, question: str) -> tuple[str, list[str]] | None:
    """The answer to `question` in `corpus` and three wrong answers of the same kind ([] for a
    number), or None when the question does not name one known entity and a relation understood.

    >>> answer(build_corpus(0), "Who founded Bashapalt Shipping?")
    ('Allison Trabosh', ['Kevin Piquorin', 'Kimberly Wahael', 'Lance Fapust'])
    >>> answer(build_corpus(0), "Who founded it?") is None
    True
    """
    text = _question_sentence(question)
    lexicon = _lexicon(corpus)
    named: list[tuple[str, str]] = []
    for match in lexicon.pattern.finditer(text):
        key = match.group().casefold()
        entity = (lexicon.kind_of[key], lexicon.canonical[key])
        if entity not in named:
            named.append(entity)
    masked = lexicon.pattern.sub(" _ ", text)
    target = _target(masked)
    if target is None or not named:
        return None
    if target == "span":
        value = _span(corpus, named, masked)
    elif len(named) != 1:
        return None
    elif target == "age":
        value = _age(corpus, *named[0], masked)
    else:
        value = _chain(corpus, *named[0], target, masked)
    if value is None:
        return None
    return value, _wrong(lexicon, target, value, text)
