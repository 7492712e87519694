"""The scripted user: a deterministic user who answers the agent from the task's scenario only.

It plays a conversational task (one with a `UserScenario`) without any LLM: when the agent asks
for something the user knows (`scenario.known`: "booking id" -> "BK1234"), it gives exactly that
(or repeats a detail its opening gave, `scenario.stated`); when the agent proposes an action and
asks whether to go ahead, it confirms (or declines, when the caller only wanted a quote); when the
agent asks for anything else, it says it does not know; when the agent asks nothing, the
conversation ends. Only questions and requests are answered: a statement that merely mentions a
key ("The booking id is 5137.") asks for nothing, and "go ahead" is a confirmation only in a
question that proposes something ("Shall I go ahead?"), not in "Please go ahead and ask". An
agent that says the same thing `CIRCLE` times in a row is going in circles: the user hangs up
(`in_circles`; tau2's user stops the same way) and the attempt fails.
The reference teacher plays gold conversations against it, and LLM teachers use it when no user
endpoint is configured, so every conversational trace can be replayed turn for turn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
# A question asking to go ahead with an action (answered before any key it names: "I am about to
# block card number 4111. Shall I proceed?" asks for a yes, not for the card number).
_PROCEED = re.compile(
    r"(?:^|[,:;]\s*)(?:shall|should|can|may) (?:i|we)\b"  # "Shall I proceed?", "OK, can I ...?"
    r"|\b(?:do you want|would you like) (?:me|us) to\b"
    r"|\b(?:proceed|go ahead)(?: (?:with|and)\b[^?]*)?\s*\?",  # "Proceed with it?", not "Go ahead:"
    re.IGNORECASE,
)
_CONFIRM = re.compile(r"\b(confirm|is that (?:right|correct|ok))\b", re.IGNORECASE)
# A sentence that asks for something without a question mark ("Please tell me your email.").
_REQUEST = re.compile(
    r"\b(please|could you|can you|would you|tell me|let me know|provide|share|give me|"
    r"i need|i'll need|may i have)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.?!])\s+")
# The same agent message this many times in a row ends the conversation (it goes in circles).
CIRCLE = 3
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


def _asking(message: str) -> tuple[list[str], str]:
    """(the message's questions, its questions and requests): the sentences that ask."""
    sentences = [s.strip() for s in _SENTENCE.split(message) if s.strip()]
    questions = [s for s in sentences if s.endswith("?")]
    requests = [s for s in sentences if s.endswith("?") or _REQUEST.search(s)]
    return questions, " ".join(requests)


def reply(scenario: UserScenario, agent_message: str) -> str | None:
    """The user's answer to the agent's latest message, or None: the conversation is over."""
    questions, requests = _asking(agent_message)
    if any(_PROCEED.search(q) for q in questions):  # a proposal: "... Shall I proceed?"
        return YES if scenario.accepts_changes else NO
    details = {**scenario.stated, **scenario.known}
    asked = [key for key in details if asks_for(requests, key)]
    if asked:
        return " ".join(f"My {key} is {details[key]}." for key in asked)
    if any(_CONFIRM.search(q) for q in questions):
        return YES if scenario.accepts_changes else NO
    if questions:
        return DONT_KNOW
    return None


def _plain(text: str) -> str:
    return " ".join(text.casefold().split())


def in_circles(said: Sequence[str]) -> bool:
    """Whether the agent's messages to the user (oldest first, the latest included) end with the
    same message `CIRCLE` times: the user hangs up rather than answer it again."""
    last = [_plain(s) for s in said[-CIRCLE:]]
    return len(last) == CIRCLE and len(set(last)) == 1


CIRCLES = f"the conversation went in circles: the agent said the same thing {CIRCLE} times"
