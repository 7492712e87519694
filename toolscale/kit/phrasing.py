"""How callers open a conversation: a request worded in one of many ways and manners.

The opening is composed from independent parts drawn from the task's RNG (greeting, motive,
the goal in one of its wordings, a lead that frames it as a wish or a question, conditions,
closing), shaped by a persona (terse, polite, chatty, hurried, unsure). The parts are short
and many, so two tasks of one template rarely open alike; the diversity benchmark
(benchmarks/task_diversity.py) measures it.
"""

from __future__ import annotations

import random
import re

from toolscale.kit.draft import Request

PERSONAS = {
    "terse": "You write short messages and answer only what is asked.",
    "polite": "You are polite and patient.",
    "chatty": "You are friendly and talkative, and explain why you call.",
    "hurried": "You are in a hurry and want this done quickly.",
    "unsure": "You are not very confident with these things and ask the agent to check.",
}
GREETINGS = {
    "terse": ("", "", "Hi.", "Hello."),
    "polite": (
        "Hello.",
        "Good morning.",
        "Good afternoon.",
        "Good evening.",
        "Hello there.",
        "Hi, good day.",
        "Dear support team,",
        "Hello, I hope you are well.",
        "",
    ),
    "chatty": (
        "Hi there!",
        "Hello!",
        "Hey, hi!",
        "Hi, hope you're well.",
        "Hello, how are you?",
        "Hiya!",
        "Hey there, hope your day is going well!",
        "Morning!",
        "Hi hi!",
    ),
    "hurried": ("Hi, quick one.", "Quick question.", "Hi, I'm short on time.", "", "Hey.", "Hi -"),
    "unsure": (
        "Hi, I hope I'm in the right place.",
        "Hello, I'm not sure who to ask.",
        "Hi.",
        "Um, hello.",
        "Hello, sorry to bother you.",
        "Hi, I hope you can help me.",
    ),
}
DO_LEADS = {
    "terse": ("{Goal}.", "Need to {goal}.", "Want to {goal}.", "{Goal}, please.", "Please {goal}."),
    "polite": (
        "I would like to {goal}, please.",
        "Could you please help me {goal}?",
        "Would it be possible to {goal}?",
        "May I ask you to help me {goal}?",
        "I am writing because I would like to {goal}.",
        "Could I kindly ask you to {goal}?",
        "I'd be grateful if you could help me {goal}.",
    ),
    "chatty": (
        "I'd love some help to {goal}.",
        "So I was hoping you could help me {goal}.",
        "I've been meaning to {goal}, can you sort that out?",
        "I think I need to {goal}.",
        "Long story short, I want to {goal}.",
        "Could you be a star and help me {goal}?",
        "Basically I'm looking to {goal}.",
    ),
    "hurried": (
        "I need to {goal}, fast.",
        "Please {goal} right away.",
        "Can you {goal} now?",
        "Need you to {goal} asap.",
        "Got to {goal} quickly.",
    ),
    "unsure": (
        "I think I need to {goal}, if that's possible?",
        "Is it possible to {goal}? I've never done this.",
        "Someone told me you could help me {goal}.",
        "I'm not sure how this works, but I'd like to {goal}.",
        "Could you walk me through how to {goal}?",
    ),
}
KNOW_LEADS = {
    "terse": ("Tell me {goal}.", "Need to know {goal}.", "Checking {goal}.", "Asking {goal}."),
    "polite": (
        "Could you please tell me {goal}?",
        "I would like to know {goal}, please.",
        "Would you be able to check {goal}?",
        "May I ask {goal}?",
        "I'd appreciate it if you could find out {goal}.",
    ),
    "chatty": (
        "I was wondering {goal}.",
        "I can't remember {goal}, could you look it up?",
        "Could you find out {goal} for me?",
        "Random question, but I'd like to know {goal}.",
        "Help me out here: I need to figure out {goal}.",
    ),
    "hurried": (
        "Just need to know {goal}.",
        "Can you check {goal}? Quickly please.",
        "Quickly: {goal}?",
        "What I need is {goal}, fast.",
    ),
    "unsure": (
        "I'm a bit confused about {goal}, could you check?",
        "I'm not sure {goal}, can you help?",
        "I tried to work out {goal} myself but got lost.",
        "Could you check {goal}? I might have misread something.",
    ),
}
CLOSINGS = {
    "terse": ("", "", "Thanks."),
    "polite": (
        "Thank you.",
        "Many thanks.",
        "Thank you for your help.",
        "",
        "Kind regards.",
        "Thank you in advance.",
        "I appreciate your help.",
    ),
    "chatty": (
        "Thanks so much!",
        "Appreciate it!",
        "Thanks a lot!",
        "Cheers!",
        "You're a lifesaver!",
        "Thanks a million!",
        "",
    ),
    "hurried": ("Thanks.", "", "Thx.", "Cheers."),
    "unsure": (
        "Thank you, I hope that makes sense.",
        "Thanks for your patience.",
        "",
        "Sorry if this is a silly question.",
        "Thank you so much.",
    ),
}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def opening(rng: random.Random, request: Request, persona: str) -> str:
    """The caller's first message for `request`, in the manner of `persona`."""
    goal = rng.choice(request.goals)
    leads = (DO_LEADS if request.kind == "do" else KNOW_LEADS)[persona]
    lead = rng.choice(leads).format(goal=goal, Goal=_capital(goal))
    parts = [rng.choice(GREETINGS[persona])]
    if request.motives and persona in ("chatty", "unsure", "polite") and rng.random() < 0.7:
        parts.append(rng.choice(request.motives))
    parts.append(lead)
    parts += [c if isinstance(c, str) else rng.choice(c) for c in request.conditions]
    parts.append(rng.choice(CLOSINGS[persona]))
    return " ".join(p for p in parts if p)


_PERSON = {
    "i": "you",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "i'm": "you're",
    "i've": "you've",
    "i'd": "you'd",
    "we": "you",
    "us": "you",
    "our": "your",
    "we're": "you're",
    "myself": "yourself",
}


def _same_case(word: str, replacement: str) -> str:
    return replacement.capitalize() if word[0].isupper() and word != "I" else replacement


def second_person(text: str) -> str:
    """A caller's words as the scenario tells them to the user: "cancel my trip" -> "cancel
    your trip"."""
    return re.sub(
        r"\b(i'm|i've|i'd|myself|mine|my|me|i|we're|we|us|our)\b",
        lambda m: _same_case(m.group(0), _PERSON[m.group(0).casefold()]),
        text,
        flags=re.IGNORECASE,
    )


def reason_for_call(request: Request) -> str:
    want = "You want to " if request.kind == "do" else "You want to know "
    conditions = [c if isinstance(c, str) else c[0] for c in request.conditions]
    return second_person(" ".join([f"{want}{request.goals[0]}.", *conditions]))
