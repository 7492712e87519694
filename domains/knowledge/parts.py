"""Read a knowledge question of several parts; say what a question the expert cannot answer lacks.

An agent splits a chain as a person would: "Who was the mentor of X, and in which town was that
mentor born?" asks two things, and the second names no entity: "that mentor" is the first part's
answer. `parts` reads each part alone (`expert.known`) and a part that names no entity but refers
back ("that founder", "he", "it") from the previous part's answer, following only the relations
its own words name. Its kind and difficulty are those of the whole chain asked at once ("In which
town was the mentor of X born?"), so both phrasings get the same draw from an alias. `missing`
says, as a model would, why a question cannot be answered: no entity it knows, none of what is
asked of it, too many entities.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import partial

from domains.knowledge.corpus import Corpus
from domains.knowledge.expert import (
    _DISPUTED,
    _HOPS,
    _MENTOR,
    _asked,
    _Edge,
    _follow,
    _lexicon,
    _question_sentence,
    _target,
    _wrong,
    known,
)
from toolscale.core.contract import Difficulty
from toolscale.tools.experts import question_parts
from toolscale.tools.skills import Known

# Words that refer back to an earlier part's answer or to the entity the statements before the
# question name; masked so the role noun of "that mentor" is not read as a relation of its own
# (the one of "his mentor" is: the mentor of him).
_REFERENCE = re.compile(
    r"\b(?:that|this|the|said)\s+(?:same\s+)?(?:mentor|founder|inventor|"
    r"person|man|woman|company|firm|invention|town|city|place|river|sea)s?\b"
    r"|\b(?:he|she|they|him|them|it|his|her|its|their)\b",
    re.IGNORECASE,
)
_NAME_ROLE = re.compile(
    r"\bname (?:the|its|that|this) (mentor|founder|inventor)\b|\b(mentor|founder|inventor)'s "
    r"(?:full )?name\b",
    re.IGNORECASE,
)
_PEOPLE = frozenset({"people"})
_THINGS = frozenset({"towns", "rivers", "seas", "companies", "inventions"})
_REFERS = {  # a reference's last word -> the kinds it may mean
    **dict.fromkeys(("mentor", "founder", "inventor", "person", "man", "woman"), _PEOPLE),
    **dict.fromkeys(("he", "she", "him", "her", "his", "they", "them", "their"), _PEOPLE),
    **dict.fromkeys(("it", "its"), _THINGS),
    **dict.fromkeys(("company", "firm"), frozenset({"companies"})),
    **dict.fromkeys(("town", "city", "place"), frozenset({"towns"})),
    "river": frozenset({"rivers"}),
    "sea": frozenset({"seas"}),
    "invention": frozenset({"inventions"}),
}
_ENTITY_KINDS = ("people", "towns", "rivers", "seas", "companies", "inventions")
_QUESTION_WORD = re.compile(r"\b(?:who|whom|whose|where|which|what|when|how)\b", re.IGNORECASE)


@dataclass(frozen=True)
class _Node:
    """An earlier part's answer a later part may refer to: its kind, its value, how many
    relations led to it, and whether it rests on a fact no document states."""

    kind: str
    value: str
    hops: int
    obscure: bool
    source: Known | None = None  # the part reading whose answer this node is


def _nodes(corpus: Corpus, part: str, found: Known) -> list[_Node]:
    """What a later part may refer to after a part read alone: its answer, then the entity it
    names ("Where is X headquartered, and when was it founded?": "it" is X)."""
    text = _question_sentence(part)
    lexicon = _lexicon(corpus)
    masked = lexicon.pattern.sub(" _ ", text)
    target = _target(masked)
    key = lexicon.pattern.search(text)
    if key is None:
        return []
    entity = lexicon.kind_of[key.group().casefold()]
    subject = _Node(entity, lexicon.canonical[key.group().casefold()], 0, False)
    if target not in _ENTITY_KINDS or target is None:
        return [subject]
    path = _asked(entity, target, masked)
    hops = len(path[0]) if path else 1
    return [_Node(target, found.answer, hops, found.kind == "obscure fact", found), subject]


def _referred(masked: str, nodes: list[_Node]) -> list[_Node]:
    """The nodes a part's reference may mean, likeliest first: a role noun names its kind ("that
    founder": a person), "he" or "she" a person, "it" a thing (the entity named before first)."""
    found = _REFERENCE.search(masked)
    word = found.group().casefold().split()[-1] if found else ""
    kinds = _REFERS.get(word.rstrip("s"))
    if kinds is None:
        return nodes
    if word in ("it", "its"):
        nodes = nodes[::-1]
    return [n for n in nodes if n.kind in kinds]


def _continued(corpus: Corpus, part: str, nodes: list[_Node]) -> tuple[Known, list[_Node]] | None:
    """A part that names no entity, read as starting from what an earlier part referred to."""
    text = _question_sentence(part)
    masked = _REFERENCE.sub(" _ ", text)
    target = _target(masked)
    if target is None:
        return None
    for before in _referred(text, nodes):
        paths = _asked(before.kind, target, masked)
        if len(paths) != 1:
            continue
        found = _step(corpus, text, masked, target, paths[0], before, before.value)
        if before.source is not None:
            again = partial(_step, corpus, text, masked, target, paths[0], before)
            found = replace(found, follows=before.source, given=again)
        obscure = found.kind == "obscure fact"
        hops = before.hops + len(paths[0])
        after = [_Node(target, found.answer, hops, obscure, found)]
        return found, [*(after if target in _ENTITY_KINDS else []), before]
    return None


def _step(
    corpus: Corpus,
    text: str,
    masked: str,
    target: str,
    path: tuple[_Edge, ...],
    before: _Node,
    value: str,
) -> Known:
    """A continued part's reading from `value`, the answer of the part it refers to."""
    hops = before.hops + len(path)
    obscure = before.obscure or bool(_MENTOR.search(masked) or _DISPUTED.search(masked))
    kind: str
    level: Difficulty
    if obscure:
        kind, level = "obscure fact", "hard"
    else:
        kind, level = "multi-hop" if hops > 1 else "look-up", _HOPS[min(hops, 3)]
    found = _follow(corpus, value, path)
    return Known(found, _wrong(_lexicon(corpus), target, found, text), kind, level)


def _named_role(corpus: Corpus, question: str, part: str) -> Known | None:
    """The person a chain passes through, when the question also asks to name them ("In which
    town was the mentor of X born? Please name the mentor.")."""
    asked = _NAME_ROLE.search(question)
    role = asked and (asked.group(1) or asked.group(2)).casefold()
    if not role or not re.search(rf"\b{role}\b", part, re.IGNORECASE):
        return None
    names = _lexicon(corpus).pattern.findall(_question_sentence(part))
    if len(names) != 1:
        return None
    the = "the " if _lexicon(corpus).kind_of[names[0].casefold()] == "inventions" else ""
    return known(corpus, f"Who was the {role} of {the}{names[0]}?")


def _through(corpus: Corpus, part: str, value: str) -> Known | None:
    """The reading of a chain through a role ("In which town was the mentor of X born?") whose
    person is `value`: the same question asked of that person ("... was Y born?")."""
    names = _lexicon(corpus).pattern.findall(part)
    if len(names) != 1:
        return None
    chain = rf"\bthe (?:mentor|founder|inventor) of (?:the )?{re.escape(names[0])}\b"
    said = re.sub(chain, value, part, count=1, flags=re.IGNORECASE)
    return known(corpus, said) if said != part else None


def _context(corpus: Corpus, part: str) -> list[_Node]:
    """The entity the statements before a part's question name first, which its "he" or
    "its" may mean."""
    sentence = _question_sentence(part)
    stated = part[: part.rfind(sentence)] if sentence in part else ""
    lexicon = _lexicon(corpus)
    first = lexicon.pattern.search(stated)
    if first is None:
        return []
    name = first.group().casefold()
    return [_Node(lexicon.kind_of[name], lexicon.canonical[name], 0, False)]


def parts(corpus: Corpus, question: str) -> list[Known | None]:
    """Each part's reading in order (None: not understood), a part that refers back read from
    the previous part's answer; a chain whose middle person the question asks to name gives
    that person as a part of its own, first."""
    lexicon = _lexicon(corpus)
    found: list[Known | None] = []
    split = question_parts(question)
    role = _named_role(corpus, question, split[0]) if len(split) == 1 else None
    if role is not None and (whole := known(corpus, split[0])) and whole.answer != role.answer:
        found.append(role)  # a question that asks for the role itself needs no part for it
    else:
        role = None
    before: list[_Node] = []
    for part in split:
        if not before:  # "X was born in 1888 and founded Y. Who was his mentor?": X
            before = _context(corpus, part)
        if lexicon.pattern.search(_question_sentence(part)):
            reading = known(corpus, part)
            if reading is not None and role is not None:  # the chain runs through the role
                again = partial(_through, corpus, _question_sentence(part))
                reading = replace(reading, follows=role, given=again)
            before = [] if reading is None else _nodes(corpus, part, reading)
        elif before and (read := _continued(corpus, part, before)) is not None:
            reading, before = read
        else:
            reading, before = None, []
        found.append(reading)
    return found


def missing(corpus: Corpus, question: str) -> str:
    """Why the expert cannot answer `question`, naming what it lacks."""
    text = _question_sentence(question)
    lexicon = _lexicon(corpus)
    named = list(dict.fromkeys(lexicon.canonical[m.group().casefold()]
                               for m in lexicon.pattern.finditer(text)))  # fmt: skip
    if not named:
        return (
            "it names no person, company, invention, town, river or sea I know of in this "
            "world; give the name as the documents write it"
        )
    if "?" not in question and not _QUESTION_WORD.search(text):
        return f"it asks nothing about {named[0]}; say what you want to know"
    target = _target(lexicon.pattern.sub(" _ ", text))
    if target is None:
        return f"it does not say what it asks about {named[0]} (who, where, which river, what year)"
    if target == "span":
        return "a question of the years between two events must name both events' entities"
    if len(named) > 1:
        return f"it names {' and '.join(named)}, and I cannot tell which one it asks about"
    return (
        f"I cannot tell which fact about {named[0]} it asks for (its founder, headquarters, "
        "birth town, river, sea, mentor or a year)"
    )
