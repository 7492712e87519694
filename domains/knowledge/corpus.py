"""Generate the shared corpus of one run seed: fictional entities, their facts, and their documents.

The world is a small graph of invented rivers, towns, people, companies and inventions. Each
document describes one entity and states only its outgoing links (a company names its founder and
its headquarters town, a town its river, a person their birth town), so a multi-hop question needs
one search per hop. Names are faker first names and invented words, unique within a corpus, and no
invented word is a substring of another, so an answer cannot match a different entity's name.
The world also holds facts no document states (each person's mentor) and, for one town in eight,
a travel guide that names the wrong river: questions on those need a model that knows the world.
The corpus depends on (seed, size) alone and is built once per process; searching it is `index.py`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache

from faker import Faker

DEFAULT_SIZE = 300

_fake = Faker()

_ONSETS = (
    "b",
    "br",
    "d",
    "dr",
    "f",
    "g",
    "gr",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "th",
    "tr",
    "v",
    "z",
    "c",
    "h",
    "j",
    "st",
    "qu",
    "w",
    "sh",
)
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ae", "ou", "ei")
_CODAS = ("n", "r", "l", "s", "th", "nd", "rk", "m", "x", "lt", "rn", "ck", "sh", "st")
_TOWN_ENDS = ("holt", "mere", "wick", "by", "stead", "ford", "haven", "dale", "ton", "bury", "gate")
_COMPANY_KINDS = ("Works", "Industries", "Mills", "Foundry", "Instruments", "Shipping", "Textiles")
_DEVICES = ("loom", "engine", "lamp", "press", "valve", "compass", "kiln", "pump", "lathe", "clock")
_PROFESSIONS = (
    "engineer", "chemist", "merchant", "surveyor", "clockmaker", "physician", "printer",
    "shipwright", "botanist", "architect",
)  # fmt: skip
_PURPOSES = ("weaving", "mining", "brewing", "printing", "navigation", "irrigation", "milling")


@dataclass(frozen=True)
class River:
    name: str
    length_km: int
    sea: str


@dataclass(frozen=True)
class Town:
    name: str
    river: str
    founded: int
    population: int


@dataclass(frozen=True)
class Person:
    name: str
    profession: str
    birth_town: str
    born: int
    work_town: str


@dataclass(frozen=True)
class Company:
    name: str
    founder: str
    hq: str
    founded: int
    employees: int


@dataclass(frozen=True)
class Invention:
    name: str
    inventor: str
    year: int
    use_town: str
    purpose: str


@dataclass(frozen=True)
class Doc:
    doc_id: str
    title: str
    text: str

    def as_dict(self) -> dict[str, str]:
        return {"doc_id": self.doc_id, "title": self.title, "text": self.text}


@dataclass(frozen=True)
class Corpus:
    """The entities of one world, their documents, and each entity's own document id."""

    rivers: dict[str, River]
    towns: dict[str, Town]
    people: dict[str, Person]
    companies: dict[str, Company]
    inventions: dict[str, Invention]
    docs: tuple[Doc, ...]
    doc_of: dict[str, str]
    by_id: dict[str, Doc]
    # Facts of the world that no document states (a person's mentor), and towns whose river a
    # second document (a travel guide) states wrongly: town -> the river the guide names.
    mentors: dict[str, str] = field(default_factory=dict)
    disputed: dict[str, str] = field(default_factory=dict)


class _Namer:
    """Invented words, each unique and neither a substring nor a superstring of another."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: list[str] = []

    def word(self) -> str:
        while True:
            syllables = self.rng.choice((2, 2, 3))
            word = "".join(
                self.rng.choice(_ONSETS) + self.rng.choice(_VOWELS) for _ in range(syllables)
            )
            word += self.rng.choice(_CODAS)
            if len(word) >= 5 and not any(word in u or u in word for u in self.used):
                self.used.append(word)
                return word.capitalize()


def _counts(size: int) -> tuple[int, int, int, int, int]:
    rivers, towns, people, companies = size // 15, size // 5, size * 3 // 10, size // 5
    return rivers, towns, people, companies, size - rivers - towns - people - companies


_World = tuple[list[River], list[Town], list[Person], list[Company], list[Invention]]


def _world(rng: random.Random, size: int) -> _World:
    namer = _Namer(rng)
    _fake.seed_instance(rng.getrandbits(64))
    n_rivers, n_towns, n_people, n_companies, n_inventions = _counts(size)
    rivers = [
        River(f"{namer.word()} River", rng.randint(40, 900), f"{namer.word()} Sea")
        for _ in range(n_rivers)
    ]
    towns = [
        Town(
            namer.word() + rng.choice(_TOWN_ENDS),
            rng.choice(rivers).name,
            rng.randint(1100, 1700),
            rng.randint(800, 90000),
        )
        for _ in range(n_towns)
    ]
    people: list[Person] = []
    for _ in range(n_people):
        birth, work = rng.sample(towns, 2)
        name = f"{_fake.first_name()} {namer.word()}"
        born = rng.randint(1760, 1900)
        people.append(Person(name, rng.choice(_PROFESSIONS), birth.name, born, work.name))
    companies: list[Company] = []
    for _ in range(n_companies):
        founder = rng.choice(people)
        name = f"{namer.word()} {rng.choice(_COMPANY_KINDS)}"
        founded = founder.born + rng.randint(20, 60)
        companies.append(
            Company(name, founder.name, rng.choice(towns).name, founded, rng.randint(12, 4000))
        )
    inventions: list[Invention] = []
    for _ in range(n_inventions):
        inventor = rng.choice(people)
        name = f"{namer.word()} {rng.choice(_DEVICES)}"
        year = inventor.born + rng.randint(18, 60)
        purpose = rng.choice(_PURPOSES)
        inventions.append(Invention(name, inventor.name, year, rng.choice(towns).name, purpose))
    return rivers, towns, people, companies, inventions


def _text(entity: River | Town | Person | Company | Invention) -> str:
    match entity:
        case River():
            return (
                f"The {entity.name} is a river {entity.length_km} kilometres long. "
                f"It flows into the {entity.sea}."
            )
        case Town():
            return (
                f"{entity.name} is a town on the {entity.river}. It was founded in "
                f"{entity.founded} and has about {entity.population} inhabitants."
            )
        case Person():
            return (
                f"{entity.name} was a {entity.profession} born in {entity.birth_town} in "
                f"{entity.born}. {entity.name.split()[-1]} later lived and worked in "
                f"{entity.work_town}."
            )
        case Company():
            return (
                f"{entity.name} is a company founded in {entity.founded} by {entity.founder}. "
                f"Its headquarters are in {entity.hq}, and it employs about "
                f"{entity.employees} people."
            )
        case Invention():
            return (
                f"The {entity.name} is a device invented by {entity.inventor} in {entity.year}. "
                f"It was first used for {entity.purpose} in {entity.use_town}."
            )


@cache
def build_corpus(seed: int, size: int = DEFAULT_SIZE) -> Corpus:
    """The corpus of run seed `seed` with about `size` documents (same value for same inputs)."""
    rng = random.Random(f"knowledge:{seed}:corpus")
    groups = _world(rng, size)
    entities = [e for group in groups for e in group]
    rng.shuffle(entities)
    docs = tuple(Doc(f"doc-{i:04d}", e.name, _text(e)) for i, e in enumerate(entities))
    rivers, towns, people, companies, inventions = groups
    # Drawn apart from the world's RNG, so the entities and their documents stay as they were.
    extra = random.Random(f"knowledge:{seed}:unstated")
    mentors = {p.name: extra.choice([q for q in people if q.born < p.born] or people).name
               for p in people}  # fmt: skip
    disputed = {}
    for town in extra.sample(towns, max(1, len(towns) // 8)):
        disputed[town.name] = extra.choice([r.name for r in rivers if r.name != town.river])
    guides = tuple(
        Doc(
            f"doc-{len(docs) + i:04d}",
            f"Travel guide: {town}",
            f"A travel guide to {town} says that the {river} runs through the town.",
        )
        for i, (town, river) in enumerate(disputed.items())
    )
    docs = docs + guides
    return Corpus(
        rivers={r.name: r for r in rivers},
        towns={t.name: t for t in towns},
        people={p.name: p for p in people},
        companies={c.name: c for c in companies},
        inventions={i.name: i for i in inventions},
        docs=docs,
        doc_of={d.title: d.doc_id for d in docs},
        by_id={d.doc_id: d for d in docs},
        mentors=mentors,
        disputed=disputed,
    )
