"""The scripted user: a deterministic user who answers the agent from the task's scenario only.

It plays a conversational task (one with a `UserScenario`) without any LLM: when the agent asks
for something the user knows (`scenario.known`: "booking id" -> "BK1234"), it gives exactly that
(or repeats a detail its opening gave, `scenario.stated`); when the agent asks to go ahead with
an action, it confirms (or declines, when the caller only wanted a quote); when the agent asks
for anything else, it says it does not know; when the agent asks nothing, the conversation ends.
The reference teacher plays gold conversations against it, and LLM teachers use it when no user
endpoint is configured, so every conversational trace can be replayed turn for turn.
"""

from __future__ import annotations

import re

from toolscale.core.contract import UserScenario

# Words an agent may use for a key's words ("your booking number" asks for the "booking id").
_SYNONYMS = {
    "id": ("id", "number", "reference", "code"),
    "email": ("email", "e-mail", "mail"),
    "name": ("name",),
    "travel": ("travel", "trip", "journey", "travelling", "traveling", "departure"),
    "number": ("number", "many", "count"),
    "fare": ("fare", "class", "ticket"),
    "city": ("city", "town", "where", "live"),
}
_FILLER = {"of", "the", "a", "an", "for", "your", "my"}
# An agent asking to go ahead with an action (answered before any key it names: "I am about to
# block card number 4111. Shall I proceed?" asks for a yes, not for the card number).
_PROCEED = re.compile(
    r"\b(proceed|go ahead|shall i|should i|do you want me to|would you like me to)\b",
    re.IGNORECASE,
)
_CONFIRM = re.compile(r"\b(confirm|is that (?:right|correct|ok))\b", re.IGNORECASE)
YES = "Yes, please go ahead."
NO = "No, please don't change anything."
DONT_KNOW = "Sorry, I don't have that information."


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9@.\-]+", text.casefold().replace("-", " ")))


def asks_for(message: str, key: str) -> bool:
    """Whether the agent's message asks for `key`: each word of the key that carries meaning (or
    a synonym of it) is in it ("number of passengers" is asked by "how many passengers?")."""
    said = _words(message) | {w.rstrip("?.,!:;s") for w in _words(message)}
    words = [w for w in key.casefold().split() if w not in _FILLER]
    return all(any(s in said for s in _SYNONYMS.get(w, (w,))) for w in words)


def reply(scenario: UserScenario, agent_message: str) -> str | None:
    """The user's answer to the agent's latest message, or None: the conversation is over."""
    if _PROCEED.search(agent_message):
        return YES if scenario.accepts_changes else NO
    details = {**scenario.stated, **scenario.known}
    asked = [key for key in details if asks_for(agent_message, key)]
    if asked:
        return " ".join(f"My {key} is {details[key]}." for key in asked)
    if _CONFIRM.search(agent_message):
        return YES if scenario.accepts_changes else NO
    if "?" in agent_message:
        return DONT_KNOW
    return None
