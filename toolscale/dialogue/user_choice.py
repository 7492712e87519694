"""What the caller names in an agent's message: the option a choice question asks for, and
whether a proposal is the change they called for.

`picked` reads a question of which one after a list, or an either-or between records, and
gives the option one of the caller's details holds ("Which one would you like me to add?" after
"- Basic plan / - Comprehensive plan": the comprehensive plan, for a caller who wants it);
`own` tells the change the caller asked for from another one the agent offers.
`toolscale.dialogue.scripted_user` decides what the user says.
"""

from __future__ import annotations

import re

from toolscale.core.sentences import SENTENCE
from toolscale.dialogue.user_asked import proposes
from toolscale.dialogue.user_reading import (
    ITEM,
    OFFER,
    REFUSAL,
    VERBS,
    candidates,
    holds,
    label,
    options,
)

_OWNERS = {"my", "the", "a", "an", "our", "his", "her", "their", "all", "both", "to", "off", "up"}


def own(request: str, message: str) -> bool:
    """Whether `message` proposes the change of the caller's `request`: a verb of it ("cancel"
    for "drop my stay at ...") and its object ("stay"), outside what the agent says it cannot
    do. A caller never turns that down."""
    words = re.findall(r"[a-z]+", request.casefold())
    if not words:
        return False
    verbs = next((g for g in VERBS if words[0] in g), ())
    rest = [w for w in words[1:] if w not in _OWNERS]
    if not verbs or not rest:
        return False
    offered = " ".join(s for s in SENTENCE.split(message) if not REFUSAL.search(s))
    return any(proposes(offered, v) for v in verbs) and proposes(offered, rest[0])


WHICH = re.compile(r"\b(?:which|choose|pick|select|do you mean|is it|was it)\b", re.I)


def picked(message: str, questions: list[str], values: list[str]) -> tuple[str, str] | None:
    """(the option, what the caller says) when a choice question asks the caller to name one and
    exactly one option holds a detail of theirs (`values`): a question of which one after a
    list ("- Basic plan: $71.20 / - Comprehensive plan: $124.60 ... Which one would you like me
    to add?": said as its label, "Comprehensive plan: $124.60"), or an either-or between
    records ("Should I add the basic plan or the comprehensive plan?": said as their detail,
    "comprehensive", since an id in a question's alternative may be the context's). Not an
    offer to go ahead or leave things as they are; None otherwise."""
    if OFFER.search(message):
        return None
    items = [m.group(1) for line in message.splitlines() if (m := ITEM.match(line))]
    listed = items if len(items) >= 2 and any(WHICH.search(q) for q in questions) else []
    from_list = bool(listed)
    for question in questions:
        if not listed and re.search(r"\bor\b", question, re.I):
            listed = options(question)
    held = [o for o in candidates(listed) if any(_names(o, v) for v in values)]
    if len(held) != 1:
        return None
    if from_list:
        return held[0], label(held[0], values)
    return held[0], next(v for v in values if _names(held[0], v))


def _names(option: str, value: str) -> bool:
    """Whether `option` holds `value` (`holds`), a word value also as part of a compound
    ("upper" in "2 upper-section seats")."""
    if holds(option, value):
        return True
    return value.isalpha() and re.search(rf"\b{re.escape(value)}\b", option, re.I) is not None
