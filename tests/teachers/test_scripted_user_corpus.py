"""The scripted user's invariants over real capable-agent turns (tests/fixtures/agent_turns.jsonl,
built by tests/fixtures/build_agent_turns.py from capable-LLM runs): each turn is played against
its task's scenario (or, when the task is unknown, against every bundled scenario of its domain,
tests/fixtures/user_scenarios.jsonl) after the agent's earlier turns of that conversation, and the
reply must hold, per reply:

- no echo: no run of 4+ words of the agent's turn that is not the user's own (their request,
  their details, the wordings of their manner);
- a held value is given when its field was asked for (a plain user, a turn that asks for no yes);
- no "don't know" / "not sure which" while holding what was asked.

"Asked for" is read here on its own terms (a sentence that asks and names the field, an id, number
or reference being one word), not by the user's code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolscale.core.contract import UserScenario
from toolscale.dialogue import user_phrases as say
from toolscale.dialogue import user_reading as read
from toolscale.dialogue.scripted_user import ScriptedUser

FIXTURES = Path(__file__).parent.parent / "fixtures"
TURNS = [json.loads(x) for x in (FIXTURES / "agent_turns.jsonl").read_text().splitlines() if x]
BUNDLED = [json.loads(x) for x in (FIXTURES / "user_scenarios.jsonl").read_text().splitlines()]
SPAN = 4
_ID = {"id", "number", "reference", "code", "no"}
_FILLER = {"of", "the", "a", "an", "for", "your", "my"}
_SLOTS = {"what", "which", "how", "when", "where", "who", "why", "soon", "other", "sum", "it"}
_ASKS = re.compile(
    r"\?$|\b(?:please|could you|can you|would you|tell me|let me know|i need|i'll need|"
    r"i still need|provide|share|give me|send me|type|may i have)\b",
    re.IGNORECASE,
)
_NOT_KNOWING = re.compile(
    r"\b(?:don't know|no idea|not sure which|don't have th(?:e|at) information|couldn't tell you"
    r"|don't know which)\b",
    re.IGNORECASE,
)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9@$.,'-]+", text.casefold().replace("\u2019", "'"))


def grams(text: str) -> set[tuple[str, ...]]:
    said = [w.strip(".,") for w in words(text)]
    said = [w for w in said if w]
    return {tuple(said[i : i + SPAN]) for i in range(len(said) - SPAN + 1)}


def pool_texts() -> list[str]:
    """Every wording of every pool, its placeholders cut out."""
    texts = []
    for value in vars(say).values():
        if isinstance(value, dict) and all(isinstance(v, tuple) for v in value.values()):
            texts += [t for options in value.values() for t in options]
        elif isinstance(value, tuple) and all(isinstance(t, str) for t in value):
            texts += list(value)
    return [piece for t in texts for piece in re.split(r"\{\w+\}", t)]


POOLS = pool_texts()


def own_grams(scenario: UserScenario) -> set[tuple[str, ...]]:
    """The 4-word runs that are the user's own: their request, details and manner's wordings."""
    own = [scenario.opening, scenario.wants, scenario.change, scenario.first_request]
    own += [scenario.reason_for_call, *scenario.declines]
    details = {**scenario.stated, **scenario.known}.items()
    own += [f"{the} {k} is {v}" for k, v in details for the in ("my", "the")]
    own += list(scenario.wrong.values()) + POOLS
    return set().union(*(grams(t) for t in own))


def field_words(key: str) -> list[str]:
    return [w.removesuffix("'s") for w in key.casefold().split() if w not in _FILLER]


def asked(turn: str, key: str) -> bool:
    """Whether a sentence of `turn` that asks names every word of `key` (an id word by any id
    word, a plural by its singular)."""
    fields = field_words(key)
    if not fields or all(w in _SLOTS for w in fields):
        return False
    for sentence in re.split(r"(?<=[.?!])\s+|\n+", turn):
        if not _ASKS.search(sentence.strip()):
            continue
        said = {w.strip(".,?!:;()\"'").removesuffix("'s") for w in words(sentence)}
        said |= {w.rstrip("s") for w in said}
        if all((w in said) or (w in _ID and said & _ID) for w in fields):
            return True
    return False


def cases() -> Iterator[tuple[str, dict, UserScenario]]:
    by_domain: dict[str, list[UserScenario]] = {}
    for row in BUNDLED:
        by_domain.setdefault(row["domain"], []).append(UserScenario(**row["scenario"]))
    for record in TURNS:
        if record["scenario"]:
            yield record["id"], record, UserScenario(**record["scenario"])
        else:
            for n, scenario in enumerate(by_domain.get(record["domain"], [])):
                yield f"{record['id']}/{n}", record, scenario


def violations(record: dict, scenario: UserScenario) -> list[str]:
    """What the reply to `record`'s turn breaks, for `scenario` (an empty list: none)."""
    user = ScriptedUser(scenario)
    for earlier in record["history"]:
        user.reply(earlier)
    turn = record["turn"]
    refused_before = user.refused
    reply = user.reply(turn)
    found = []
    if reply:
        echoed = (grams(reply) & grams(turn)) - own_grams(scenario)
        if echoed:
            found.append(f"echoes {' '.join(sorted(echoed)[0])!r}")
    details = {**scenario.stated, **scenario.known}
    wanted = [
        k
        for k in details
        if asked(turn, k) and not read.holds(turn, details[k]) and k not in scenario.lacks
    ]
    yes = read.asks_yes(turn)
    if wanted and reply and _NOT_KNOWING.search(reply):
        found.append(f"says it does not know, holding {wanted}")
    plain = scenario.behaviour in ("", "decline")
    gave = bool(reply) and any(read.holds(str(reply), details[k]) for k in wanted)
    if plain and wanted and not yes and not refused_before and not user.refused and not gave:
        found.append(f"withholds {wanted}: {reply!r}")
    return found


CASES = list(cases())


def test_the_corpus_is_large_and_every_turn_has_a_scenario() -> None:
    assert len(TURNS) >= 300  # real turns of capable-LLM runs (see the builder)
    assert all(r["scenario"] or r["domain"] in {b["domain"] for b in BUNDLED} for r in TURNS)


@pytest.mark.parametrize(("name", "record", "scenario"), CASES, ids=[c[0] for c in CASES])
def test_every_reply_keeps_the_invariants(name: str, record: dict, scenario: UserScenario) -> None:
    assert violations(record, scenario) == [], record["turn"]
