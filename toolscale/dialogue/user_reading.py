"""How the scripted user reads an agent's turn: options listed, offers, refusals, values in words.

Agents that are not the reference teacher word things their own way: they list options and ask
which ("I see two daughters on your record: Lisa (Year 9) and Brandy (Year 10). Which one?"),
offer a change as an either-or ("drop Music and enrol him in Coding instead, or leave things as
they are?"), propose more than was asked ("Shall I cancel all three alerts?"), refuse ("I'm
afraid I can't upgrade your tickets"), ask for an identifier the caller may not have, and write
dates and amounts as people do ("13 September", "$1,708.50"). The functions here find those in a
message; `toolscale.dialogue.scripted_user` decides what the caller says. They read, they do not
understand: a sentence none of their patterns names is not an option, an offer or a refusal.
"""

from __future__ import annotations

import re
from datetime import date

from toolscale.core.written import dates, numbers

# A question asking to go ahead with an action (answered before any key it names: "I am about to
# block card number 4111. Shall I proceed?" asks for a yes, not for the card number).
PROCEED = re.compile(
    r"(?:^|[,:;]\s*)(?:shall|should|can|may) (?:i|we)\b"  # "Shall I proceed?", "OK, can I ...?"
    r"(?! (?:have|get|ask|take|know|see|check|grab|confirm|just check)\b)"  # "May I have ...?"
    r"|\b(?:do you want|would you like) (?:me|us) to\b"
    r"|\b(?:proceed|go ahead)(?: (?:with|and)\b[^?]*)?\s*\?",  # "Proceed with it?", not "Go ahead:"
    re.IGNORECASE,
)
CONFIRM = re.compile(r"\b(confirm|is that (?:right|correct|ok))\b", re.IGNORECASE)
# An action the agent says it will take ("I will cancel ... Is that correct?" proposes it).
WILL = re.compile(
    r"\b(?:i will|i'll|i am about to|i'm about to|i am going to|i'm going to)\b", re.I
)
# An offer put as a question without "shall I": an either-or with leaving things as they are,
# or a request for a yes ("(yes/no)", "Please reply yes", "Please confirm you want ...", a bare
# "Please confirm.", "OK to cancel it?").
OFFER = re.compile(
    r"\bor (?:leave|keep)\b|\bor (?:not|would you rather)\b|\(yes/no\)|\byes or no\b"
    r"|\breply (?:with )?[\"']?yes\b"
    r"|\bconfirm (?:that |whether |if )?you(?:'d| would)? (?:like|want)\b"
    # "... Please confirm." / "Can you confirm?" / "OK to go ahead?" / "Is that OK?": a yes asked
    # for (not "Please confirm your email", which asks for a detail)
    r"|\b(?:please|can you|could you) confirm\s*(?:[.!?]|$|,? (?:and|so|then) )"
    r"|\b(?:ok|okay) to \w+|\bis (?:that|this) (?:ok|okay|alright|all right|fine)\b"
    # a statement that asks for the go-ahead: "... Let me know if you'd like to go ahead."
    r"|\b(?:let me know|tell me|just say) (?:if|whether|when) you(?:'d| would)? (?:like|want)"
    r"(?: me)? to (?:go ahead|proceed|do (?:it|that|this)|confirm)\b"
    r"|\bif you(?:'d| would)? like (?:me )?to (?:go ahead|proceed)\b|\bsay (?:the word|yes)\b"
    # the change made on the caller's word: "... and I'll set it up once you confirm." (not
    # "once you confirm your email", which asks for a detail)
    r"|\b(?:once|when|as soon as|after|if) you(?:'ve| have)? (?:confirm(?:ed)?|say (?:yes|so)|"
    r"give (?:me )?the go-ahead|agree)\s*(?:[.!?]|$)"
    r"|\bconfirm with (?:a |an )?[\"']?(?:yes|ok)\b",  # "please confirm with a yes and the day"
    re.IGNORECASE,
)
# An offer made as a condition: "If you'd like a replacement card, just let me know."
CONDITIONAL = re.compile(
    r"\bif you(?:'d| would)?(?: ever| still)? (?:like|want|wish|decide|choose|prefer)\b"
    r"|\bif you change your mind\b|\bwhenever you(?:'d| would)? like\b"
    r"|\blet me know if you(?:'d| would)? (?:like|want)\b",
    re.I,
)  # an offer for later, "If you decide to return it, just tell me": no question to answer
# The verbs of one change: a caller who asked to "drop" a stay asked for what "cancel" does.
VERBS = (
    ("cancel", "drop", "remove", "delete", "call", "stop", "block"),
    ("swap", "exchange", "change", "move", "switch", "shift", "reschedule", "rebook", "set",
     "raise", "lower", "increase", "decrease", "update", "adjust", "allow"),
    ("book", "reserve", "buy", "get"),
    ("return", "refund"),
)  # fmt: skip
# A proposal whose scope is several records ("all three alerts", "both tickets").
SCOPE = re.compile(
    r"\ball (?:of )?(?:the |your |my |our |these |those )?(?:\d+|two|three|four|five|six)\b"
    r"|\ball (?:of )?(?:the|your|my|our|these|those) \w+s\b|\b(?:both|every)\b|\beach of\b",
    re.IGNORECASE,
)
# People of one record ("both passengers", "all 4 guests"): a scope that names no other record.
_PEOPLE = re.compile(
    r"\s*(?:\w+\s+)?(?:passengers?|guests?|people|persons?|adults?|children|kids|travell?ers?"
    r"|members|seats?|of you)\b",
    re.IGNORECASE,
)


_ASK_ID = re.compile(
    r"\b(?:give|provide|share|send|tell|confirm)\b[^.?!]*?\b(?:ids?|numbers?|reference|code|"
    r"e-?mail|phone|name|address|date of birth)\b",
    re.IGNORECASE,
)


def asks_for_id(requests: str) -> bool:
    """Whether `requests` asks the user to give an identifier ("could you give me the order
    number, or the email on your account?"), not for a yes."""
    return _ASK_ID.search(requests) is not None


def scope(message: str) -> bool:
    """Whether `message` proposes to act on several records (`SCOPE`: "all three alerts",
    "both bookings"), not on the several people or seats of one ("both passengers")."""
    return any(
        not _PEOPLE.match(message, m.end()) and not _PEOPLE.search(m[0])
        for m in SCOPE.finditer(message)
    )


# The agent says it cannot or will not do what was asked: "I can't upgrade your tickets", "saver
# tickets can't be changed", "that isn't allowed", "it is fully booked". An apology, "I can't find
# it", "I don't have your booking id", "I won't need to look at your payees" (an assurance) or an
# order's "reason no longer needed" is no refusal.
REFUSAL = re.compile(
    r"\b(?:(?:(?:i|we) (?:can(?:no|')t|cannot|won't be able to|won't|will not)|(?:i'm|i am"
    r"|we're|we are) (?:unable|not able|not allowed) to)(?: \w+ly)? "
    r"(?!find|locate|see|look|identify|access|verify|match|tell"
    r"|confirm|pull|spot|seem|get hold|reach|read|open|check|search|give out|share|disclose"
    r"|skip|need|be needing|have to|bother|touch|\w+ (?:it |that |this |anything )?without)\w+"
    r"|(?:is|are|was|were)(?:n't| not) (?:possible|allowed|eligible|permitted|available)"
    r"|not (?:possible|eligible|permitted)|(?:can(?:no|')t|cannot) be (?:changed|done|cancel|"
    r"refund|upgrad|moved|booked|processed|swapped|exchanged|returned)|sold out|fully booked)",
    re.IGNORECASE,
)
# The agent asks for something that would identify the caller or a record.
IDENTIFIER = re.compile(
    r"\b(?:ids?|numbers?|reference|code|e-?mail|phone|name|account|address|date of birth|"
    r"birthday|post ?code|zip)\b",
    re.IGNORECASE,
)
# A choice is asked: "which one", "either", "or", "choose", "select".
CHOICE = re.compile(r"\b(?:which|either|choose|pick|select|or)\b", re.IGNORECASE)
# Another value than the one given ("another date", "a different time").
OTHER = re.compile(r"\b(?:another|different|other|alternative|else)\b", re.IGNORECASE)
ITEM = re.compile(r"^\s*(?:[-*\u2022]|\(?\w\)|\d+[.)])\s+(.+?)\s*$")
_SEPARATOR = re.compile(r",(?!\d)\s*(?:and |or )?|;\s*|\s+(?:and|or)\s+")
_STOP = {
    "the", "a", "an", "my", "your", "our", "of", "for", "to", "on", "in", "and", "or", "from",
    "with", "one", "is", "it", "i", "you", "me", "this", "that", "at", "by", "be", "do", "can",
    "would", "like", "want", "please", "need", "know", "which", "what", "so", "as",
}  # fmt: skip
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def written_forms(value: str) -> list[str]:
    """`value` and the ways people write it: an ISO date as "13 September", "September 13",
    "Sep 13", "13/09/2025"; an amount without or with its thousands separator and cents
    ("1708.5" -> "1,708.50"). Example: "2025-09-13" -> [..., "13 September", ...]."""
    forms = [value]
    try:
        day = date.fromisoformat(value)
    except ValueError:
        day = None
    if day is not None and len(value) == 10:
        month = _MONTHS[day.month - 1]
        forms += [f"{day.day} {month}", f"{month} {day.day}", f"{day.day} {month[:3]}"]
        forms += [f"{month[:3]} {day.day}", f"{day.day:02d}/{day.month:02d}/{day.year}"]
    if re.fullmatch(r"\d+(?:\.\d+)?", value):
        amount = float(value)
        whole = f"{amount:,.0f}" if amount.is_integer() else ""
        forms += [f"{amount:,.2f}", f"{amount:.2f}", whole]
    return [f for f in dict.fromkeys(forms) if f]


def holds(text: str, value: str) -> bool:
    """Whether `text` holds `value` in any of its written forms, as a whole token."""
    folded = text.casefold()
    for form in written_forms(value):
        pattern = rf"(?<![\w@.-]){re.escape(form.casefold())}(?![\w@-]|\.\w)"
        if re.search(pattern, folded):
            return True
    return False


def _split(text: str) -> list[str]:
    """`text` cut at its separators (commas, "and", "or"), not inside parentheses."""
    parts, depth, start = [], 0, 0
    for match in re.finditer(r"[()]|" + _SEPARATOR.pattern, text):
        token = match.group()
        if token == "(":
            depth += 1
        elif token == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            parts.append(text[start : match.start()])
            start = match.end()
    parts.append(text[start:])
    return [p.strip(" .?!:") for p in parts if p.strip(" .?!:")]


def options(message: str) -> list[str]:
    """The options a message lists, in order ([] when it lists fewer than two): list lines
    ("- Lisa (Year 9)"), a run after a colon ("two daughters: Lisa (Year 9) and Brandy
    (Year 10)."), a run in parentheses ("all three alerts (heat, flood and wind)"), or the
    alternatives of an either-or question ("the 14 August order or the
    2 September one?")."""
    items = [m.group(1) for line in message.splitlines() if (m := ITEM.match(line))]
    if len(items) >= 2:
        return items
    for sentence in re.split(r"(?<=[.?!])\s+", message):
        if ":" in sentence:
            found = _split(sentence.split(":", 1)[1])
            if len(found) >= 2:
                return found
    for inside in re.findall(r"\(([^()]*)\)", message):  # "all three alerts (heat, flood, wind)"
        found = _split(inside)
        if len(found) >= 2:
            return found
    for sentence in re.split(r"(?<=[.?!])\s+", message):
        if sentence.endswith("?") and re.search(r"\bor\b", sentence, re.IGNORECASE):
            asked = re.sub(r"^.*?\b(?:is it|was it|do you mean)\b", "", sentence, flags=re.I)
            found = _split(asked)
            if len(found) >= 2:
                return found
    return []


# An id as records carry it: letters and digits in one token ("BK4300", "#W5199551", "CUS-82850").
_ID = re.compile(r"#?\b[A-Za-z]{1,5}-?\d{2,}[A-Za-z0-9]*\b")
LABEL_WORDS = 3  # an option said back is at most this many of the agent's words


def is_field(option: str) -> bool:
    """Whether a listed option names a kind of detail, not a record ("your email", "the season
    pass id (like SP123)"): a listing of those asks for one of them; it offers nothing to pick."""
    bare = re.sub(r"\([^()]*\)", " ", option)
    return bool(IDENTIFIER.search(bare)) and not re.search(r"\d", bare)


def candidates(listed: list[str]) -> list[str]:
    """The options of `listed` a caller can pick from: records, not kinds of detail, and not
    whole requests ("could you give me your email address" split off an either-or question)."""
    kept = [
        o
        for o in listed
        if not is_field(o) and len(o.split()) <= 12 and not re.search(r"\byou(?:r)?\b", o, re.I)
    ]
    return kept if len(kept) >= 2 else []


def label(option: str, values: list[str]) -> str:
    """How a caller names the option they pick, in few words: its id ("BK4300"), else the option
    itself when it is short ("$1,708.50 at Delta"), else the detail of theirs it holds, else its
    first words."""
    found = _ID.search(option)
    if found:
        return found.group().lstrip("#")
    words = option.split()
    if len(words) <= LABEL_WORDS:
        return option
    held = [v for v in values if v and holds(option, v)]
    if held:
        return held[0]
    return " ".join(words[:LABEL_WORDS]).rstrip(",;:")


# What a vague request is made of: "Please type one of these.", "Just send me one.".
_VAGUE = {
    "please", "type", "send", "give", "tell", "provide", "share", "enter", "just", "me", "one",
    "these", "those", "them", "it", "that", "this", "here", "below", "above", "of", "the", "a",
    "an", "in", "to", "us", "now", "again", "so", "can", "could", "would", "you", "do", "reply",
    "write", "paste", "let", "know", "go", "on", "with", "and", "or", "either", "any", "detail",
    "details", "information", "info", "something", "anything", "i", "need", "we", "what", "is",
    "are", "there", "your", "for", "if", "when", "ready", "whenever", "back", "get", "thanks",
}  # fmt: skip


def vague(requests: str) -> bool:
    """Whether the agent's requests ask for nothing a caller can name ("Please type one of these.",
    "Just send me one."): the caller says again what they want, with their details."""
    words = re.findall(r"[a-z']+", requests.casefold())
    return bool(words) and all(w in _VAGUE for w in words)


def _content(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.casefold())
    return {w[:5] for w in words if w not in _STOP and len(w) > 1}


def _days(text: str) -> set[tuple[int, int]]:
    """The (month, day) of every date `text` names ("2 December", "2025-12-02", "Dec 2")."""
    return {(m.month, m.day) for m in dates(text)}


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_COUNTS = {word: n for n, word in enumerate(_NUMBER_WORDS)}


def _counts(text: str) -> set[float]:
    """The small counts `text` states, in digits or words ("three seats", "quantity 3")."""
    words = {float(_COUNTS[w]) for w in re.findall(r"[a-z]+", text.casefold()) if w in _COUNTS}
    return words | {n for n in numbers(text) if n.is_integer() and 0 < n < len(_NUMBER_WORDS)}


def each_asked(listed: list[str], words: str) -> bool:
    """Whether every option of `listed` (two or more) is one the caller's own `words` ask for:
    each shares with them a date or a word that no other option has ("Copper Lantern, 20 July
    ... RS39054" and "Harbour Spoon, 16 July ... RS39053" for a caller who asked about both)."""
    if len(listed) < 2:
        return False
    mine = _content(words) | {str(d) for d in _days(words)}
    marks = [_content(o) | {str(d) for d in _days(o)} for o in listed]
    return all(
        (own - set().union(*(m for j, m in enumerate(marks) if j != i))) & mine
        for i, own in enumerate(marks)
    )


def choose(listed: list[str], values: list[str], words: str) -> int | None:
    """The index of the one option of `listed` that the caller's details pick out: the most of
    `values` (their ids, names, dates, amounts) held in it, then the most dates of the caller's
    own `words` (what they asked for: "the game on Tuesday 2 December") it names, then the
    most words and counts ("three seats") shared with `words` that not every option has; None
    on a tie or when nothing picks one. Example: (["Lisa (Year 9)", "Brandy (Year 10)"],
    ["Lisa"], "") -> 0."""
    shared = set.intersection(*(_content(o) for o in listed)) if listed else set()
    mine = _content(words) - shared
    every = set.intersection(*(_days(o) for o in listed)) if listed else set()
    days = _days(words) - every
    counted = set.intersection(*(_counts(o) for o in listed)) if listed else set()
    counts = _counts(words) - counted
    scores = [
        (
            sum(holds(o, v) for v in values),
            len(_days(o) & days),
            len((_content(o) - shared) & mine) + len(_counts(o) & counts),
        )
        for o in listed
    ]
    best = max(scores, default=(0, 0, 0))
    if best == (0, 0, 0) or scores.count(best) > 1:
        return None
    return scores.index(best)


def questions(message: str) -> list[str]:
    """The sentences of `message` that end with a question mark."""
    sentences = (s.strip() for s in re.split(r"(?<=[.?!])\s+", message))
    return [s for s in sentences if s.endswith("?")]


def asks_yes(message: str) -> bool:
    """Whether the agent's message asks the caller for a yes to something it will do: a
    question to go ahead ("Shall I cancel it?", "Would you like me to ...?"), an action it says
    it will take and asks to confirm ("I will cancel BK1. Is that correct?"), or an offer
    (`OFFER`: "(yes/no)", "Please confirm.", "OK to cancel it?", "... or leave things as they
    are?"). A detail read back ("Your booking id is BK1. Is that right?") asks for no yes to a
    change."""
    asked = questions(message)
    if any(PROCEED.search(q) for q in asked) or OFFER.search(message):
        return True
    return bool(WILL.search(message)) and any(CONFIRM.search(q) for q in asked)
