"""What an agent's message asks the scripted user for: its details by their everyday names.

A key of the user's card ("booking reference", "customer id", "email") is asked for when each
word of it that carries meaning, or a word people use for it, is in a sentence that asks: one
ending with a question mark or a request without one ("Please type your customer number.",
"Just send me one.", "Your email, please."). An id, number, reference or code is one word
("booking id" is asked by "booking reference"), a day is a date ("Which day will she be off?"
asks for the "date"), and a name is asked by the thing it names in a question of which one or
who ("Which doctor would you like?" asks for the "doctor name"), and a word that tells two
details of a kind apart is not asked ("Which plan?" asks for the "new plan"); a key that is a
slot of the opening's wording ("what", "soon") names nothing. Examples in parentheses ("(it
looks like BK1234)") and a listing's fields ("(Year 9)") ask for nothing.
`toolscale.dialogue.scripted_user` decides what the user says.
"""

from __future__ import annotations

import re

from toolscale.core.sentences import sentences

# Words an agent may use for a key's words ("your booking number" asks for the "booking id").
_ID_WORDS = ("id", "number", "reference", "code", "ref", "no")  # "booking reference" = "booking id"
_SYNONYMS = {
    "id": _ID_WORDS,
    "reference": _ID_WORDS,
    "code": _ID_WORDS,
    "email": ("email", "e-mail", "mail"),
    "name": ("name",),
    "travel": ("travel", "trip", "journey", "travelling", "traveling", "departure"),
    "number": (*_ID_WORDS, "many", "count"),
    "fare": ("fare", "class", "ticket"),
    "city": ("city", "town", "where", "live"),
    "date": ("date", "day"),  # "Which day will she be off?" asks for the "date"
    "quantity": ("quantity", "many"),  # "how many of each?" (not "number": a customer number)
}
# Words that tell two details of one kind apart ("first snack", "new plan"): the agent asks for
# the kind ("Which snacks would you like?", "Which plan would you like to move to?").
_ORDERS = {"first", "second", "third", "fourth", "new", "other"}
# "Which doctor would you like?" asks for the "doctor name": a key ending in "name" is asked
# by its other words in a question that asks which one or who.
_WHO = re.compile(r"\b(?:which|who|whom)\b", re.IGNORECASE)
_FILLER = {"of", "the", "a", "an", "for", "your", "my"}
_HEAD = re.compile(r"\s(?:of|to|for|on|from|at|in)\s")  # where a key's head noun phrase ends
# A key made of these only is a slot of the opening's wording ("what", "soon"), no detail asked for.
_SLOTS = {"what", "which", "how", "when", "where", "who", "why", "soon", "other", "sum", "it"}
# A sentence that asks for something without a question mark ("Please tell me your email.").
_REQUEST = re.compile(
    r"\b(please (?:\w+ ){0,2}?(?:tell|give|provide|share|send|confirm|let|reply|choose|pick|"
    r"select|specify|say|check|spell|read|list|type|enter|write|paste)|could you|can you|"
    r"would you|tell me|let me know|provide|share|give me|send me|"
    r"(?:i|we)(?:'ll| will|'d| would)? (?:\w+ )?need|may i have|just (?:send|type|give|tell|"
    r"reply|share|enter|write|pick|choose)|^(?:type|enter|send|reply|write|pick|choose|select)"
    r")\b|[,:]\s*please[.!]?$",
    re.IGNORECASE,
)
# "(it looks like BK1234)", "(Year 9)": no request; "(or your customer id, like K1234)" is one
_EXAMPLE = re.compile(r"\((?![^()]*\b(?:your|or)\b)[^()]*\d[^()]*\)", re.IGNORECASE)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9@.\-]+", text.casefold().replace("-", " ")))


def asks_for(message: str, key: str) -> bool:
    """Whether the agent's message asks for `key`: each word of the key that carries meaning (or
    a synonym of it) is in it ("number of passengers" is asked by "how many passengers?", "child's
    name" by "your child's name")."""
    bare = {w.rstrip("?.,!:;") for w in _words(message)}  # "address." is "address"
    said = _words(message) | bare | {w.rstrip("s") for w in bare}

    def named(phrase: str) -> list[str]:  # "check-in date" is three words, as in the message
        return [w.removesuffix("'s") for w in phrase.replace("-", " ").split() if w not in _FILLER]

    def all_said(words: list[str]) -> bool:
        return all(any(s in said for s in _SYNONYMS.get(w, (w,))) for w in words)

    words = named(key.casefold())
    words = [w for w in words if w not in _ORDERS] or words
    if all(w in _SLOTS for w in words):
        return False
    # a key of filler alone ("a", a goal's placeholder name) names nothing an agent can ask for
    if bool(words) and all_said(words):
        return True
    if len(words) >= 2 and words[-1] == "name" and _WHO.search(message) and all_said(words[:-1]):
        return True
    # a long key is asked by its head ("check-in date" of "check-in date of the stay to
    # cancel") when the head names a detail of its own (two words or more)
    head = named(_HEAD.split(key.casefold(), maxsplit=1)[0])
    return len(head) >= 2 and len(head) < len(words) and all_said(head)


def mentions(message: str, value: str) -> bool:
    """Whether `message` holds `value` as a whole token (case ignored): "BK1234" is not
    mentioned by "BK12345"."""
    pattern = rf"(?<![\w@.-]){re.escape(value.casefold())}(?![\w@-]|\.\w)"
    return re.search(pattern, message.casefold()) is not None


def proposes(message: str, marker: str) -> bool:
    """Whether `message` names the change `marker` describes: every word of the marker begins a
    word of the message, give or take an ending ("cancel booking" by "cancellation of the
    booking")."""
    said = re.findall(r"[a-z]+", message.casefold())
    return all(any(w.startswith(m[: max(4, len(m) - 2)]) for w in said) for m in marker.split())


def asking(message: str) -> tuple[list[str], str]:
    """(the message's questions, its questions and requests): the sentences that ask."""
    said = sentences(message)
    questions = [s for s in said if s.endswith("?")]
    requests = [s for s in said if s.endswith("?") or _REQUEST.search(s)]
    return questions, _EXAMPLE.sub(" ", " ".join(requests))
