"""How callers talk on their own: the opening, a change of mind, and the agent's last word.

The opening is composed from independent parts drawn from the task's RNG (greeting, the caller's
situation, motive, the goal in one of its wordings, a lead that frames it as a wish or a
question, conditions, closing), shaped by a persona (terse, polite, chatty, hurried, unsure).
The parts are short and many, so two tasks of one template rarely open alike; the diversity
benchmark (benchmarks/task_diversity.py) measures it. A caller who changes their mind says so in
the same manner (`change`); the reference agent's final message opens with one of a few leads
(`summary`). `second_person` turns a caller's words into what the scenario tells the user.
"""

from __future__ import annotations

import random
import re

from toolscale.kit.daytime import fits
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
    "terse": (
        "{Goal}.",
        "Need to {goal}.",
        "Want to {goal}.",
        "{Goal}, please.",
        "Please {goal}.",
        "Looking to {goal}.",
        "Calling to {goal}.",
    ),
    "polite": (
        "I would like to {goal}, please.",
        "Could you please help me {goal}?",
        "Would it be possible to {goal}?",
        "May I ask you to help me {goal}?",
        "I am writing because I would like to {goal}.",
        "Could I kindly ask you to {goal}?",
        "I'd be grateful if you could help me {goal}.",
        "I wonder if you could help me {goal}.",
        "I'm calling to ask whether you could {goal}.",
    ),
    "chatty": (
        "I'd love some help to {goal}.",
        "So I was hoping you could help me {goal}.",
        "I've been meaning to {goal}, can you sort that out?",
        "I think I need to {goal}.",
        "Long story short, I want to {goal}.",
        "Could you be a star and help me {goal}?",
        "Basically I'm looking to {goal}.",
        "Okay, so here's the thing: I want to {goal}.",
        "Right, so I'm hoping to {goal} today.",
    ),
    "hurried": (
        "I need to {goal}, fast.",
        "Please {goal} right away.",
        "Can you {goal} now?",
        "Need you to {goal} asap.",
        "Got to {goal} quickly.",
        "Just {goal}, please, I'm in a rush.",
        "Straight to it: I need to {goal}.",
    ),
    "unsure": (
        "I think I need to {goal}, if that's possible?",
        "Is it possible to {goal}? I've never done this.",
        "Someone told me you could help me {goal}.",
        "I'm not sure how this works, but I'd like to {goal}.",
        "Could you walk me through how to {goal}?",
        "I was hoping you might help me {goal}, if it's not too much trouble.",
        "I'm sorry if this is obvious, but I need to {goal}.",
    ),
}
KNOW_LEADS = {
    "terse": (
        "Tell me {goal}.",
        "Need to know {goal}.",
        "Checking {goal}.",
        "Asking {goal}.",
        "Question: {goal}?",
        "Want to know {goal}.",
    ),
    "polite": (
        "Could you please tell me {goal}?",
        "I would like to know {goal}, please.",
        "Would you be able to check {goal}?",
        "May I ask {goal}?",
        "I'd appreciate it if you could find out {goal}.",
        "I'm calling to find out {goal}.",
        "Might you be able to tell me {goal}?",
    ),
    "chatty": (
        "I was wondering {goal}.",
        "I can't remember {goal}, could you look it up?",
        "Could you find out {goal} for me?",
        "Random question, but I'd like to know {goal}.",
        "Help me out here: I need to figure out {goal}.",
        "So I've been trying to work out {goal}.",
        "Quick one for you: I'd love to know {goal}.",
    ),
    "hurried": (
        "Just need to know {goal}.",
        "Can you check {goal}? Quickly please.",
        "Quickly: {goal}?",
        "What I need is {goal}, fast.",
        "Tell me {goal}, please, I'm in a rush.",
        "Need to know {goal} right now.",
    ),
    "unsure": (
        "I'm a bit confused about {goal}, could you check?",
        "I'm not sure {goal}, can you help?",
        "I tried to work out {goal} myself but got lost.",
        "Could you check {goal}? I might have misread something.",
        "I don't really understand {goal}; could you look?",
        "Sorry to ask, but could you find out {goal}?",
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


# Where the caller is and how their day goes, by persona: said in some openings, and always in
# the reason for the call (in the second person), so that a task's caller is a person.
SITUATIONS = {
    "terse": (
        "I'm at work.",
        "I'm on my phone.",
        "I'm on a short break.",
        "I'm on the train.",
        "I've got a few minutes.",
        "I'm at my desk.",
        "I'm calling from the car park.",
        "I'm at the shops.",
    ),
    "polite": (
        "I'm calling on my lunch break.",
        "I hope it's not too late to call.",
        "I've been meaning to call for a few days.",
        "My daughter suggested I call.",
        "I'm sorting out my paperwork this morning.",
        "I'm calling from home.",
        "I read the help pages first.",
        "I'd rather talk this through than use the website.",
    ),
    "chatty": (
        "I've just got back from a long weekend away.",
        "My sister said this was the place to ask.",
        "I'm having a bit of an admin day.",
        "I'm finally getting round to a few things.",
        "I'm on my second coffee already.",
        "It's been a hectic week.",
        "I've got the kids at home today.",
        "I'm sitting in the garden with my laptop.",
    ),
    "hurried": (
        "I'm between meetings.",
        "My battery is about to die.",
        "I only have five minutes.",
        "I'm about to board.",
        "I'm running late.",
        "I'm on my way out.",
        "I've got a call in ten minutes.",
        "I'm in the middle of something.",
    ),
    "unsure": (
        "I don't do this very often.",
        "My son usually helps me with these things.",
        "I'm not very good with this kind of thing.",
        "I've never called before.",
        "I hope I'm doing this right.",
        "The website confused me.",
        "I'm a bit nervous about getting this wrong.",
        "I wasn't sure whether to call.",
    ),
}
SAYS_SITUATION = {"terse": 0.3, "polite": 0.5, "chatty": 0.75, "hurried": 0.55, "unsure": 0.65}
SAYS_MOTIVE = {"terse": 0.3, "polite": 0.75, "chatty": 0.85, "hurried": 0.4, "unsure": 0.75}
# A caller who changes their mind after the agent's first reply ({goal}: the new request).
CHANGE_DO = {
    "terse": ("Actually, change of plan. {Goal} instead.", "Scratch that. I need to {goal}."),
    "polite": (
        "I'm sorry, I've changed my mind. Could you please {goal} instead?",
        "Actually, before you start: I would rather {goal}, if that's all right.",
    ),
    "chatty": (
        "Oh wait, sorry, change of plan! Could you {goal} instead?",
        "Actually, you know what, forget that. I'd like to {goal}.",
    ),
    "hurried": ("No wait, different thing. {Goal}.", "Change of plan: {goal}, quickly."),
    "unsure": (
        "Hmm, sorry, I think I got confused. What I actually need is to {goal}.",
        "Sorry, I've thought again. Can you {goal} instead?",
    ),
}
CHANGE_KNOW = {
    "terse": ("Actually, forget that. Tell me {goal}.", "Scratch that. I need to know {goal}."),
    "polite": (
        "I'm sorry, I've changed my mind. Could you tell me {goal} instead?",
        "Actually, what I would really like to know is {goal}.",
    ),
    "chatty": (
        "Oh wait, sorry, forget that! What I really want to know is {goal}.",
        "Actually, never mind that. Could you find out {goal}?",
    ),
    "hurried": ("No wait. Just tell me {goal}.", "Forget that. I need {goal}."),
    "unsure": (
        "Sorry, I think I asked the wrong thing. I meant to ask {goal}.",
        "Oh dear, that's not it. Could you tell me {goal} instead?",
    ),
}
# How the reference agent opens its final message (what it says stays the template's).
SUMMARY_LEADS = (
    "",
    "",
    "Thanks for waiting.",
    "Thank you for your patience.",
    "Okay, I've looked into it.",
    "Right, here's where things stand.",
    "Thanks for holding.",
    "I've checked for you.",
    "All right.",
)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def situation(rng: random.Random, persona: str, hour: int | None = None) -> str:
    """A situation of `persona` that fits the clock's `hour` (`toolscale.kit.daytime`)."""
    return rng.choice([s for s in SITUATIONS[persona] if fits(s, hour)])


_DATED = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|"
    r"may|june|july|august|september|october|november|december|tomorrow|tonight)\b|\d{4}-\d\d-\d\d",
    re.IGNORECASE,
)


def leads_for(pool: tuple[str, ...], goal: str) -> list[str]:
    """The leads that fit `goal`: none that adds "today" to a goal that names its own day."""
    return [lead for lead in pool if not (_DATED.search(goal) and "today" in lead)]


def opening(
    rng: random.Random,
    request: Request,
    persona: str,
    goal: str,
    conditions: list[str],
    motive: str = "",
    where: str = "",
    hour: int | None = None,
) -> str:
    """The caller's first message for `request`, in the manner of `persona`: its `goal` (one of
    its wordings), the `conditions` (one wording of each), and the `motive` and situation
    (`where`) when the caller gives them; its greeting fits the clock's `hour`."""
    leads = leads_for((DO_LEADS if request.kind == "do" else KNOW_LEADS)[persona], goal)
    lead = rng.choice(leads).format(goal=goal, Goal=_capital(goal))
    greetings = [g for g in GREETINGS[persona] if fits(g, hour)]
    parts = [rng.choice(greetings), where, motive, lead, *conditions]
    parts.append(rng.choice(CLOSINGS[persona]))
    return " ".join(p for p in parts if p)


def change(
    rng: random.Random, request: Request, persona: str, goal: str, conditions: list[str]
) -> str:
    """What a caller says when they drop their first request for `request` (worded `goal`)."""
    pool = (CHANGE_DO if request.kind == "do" else CHANGE_KNOW)[persona]
    said = rng.choice(pool).format(goal=goal, Goal=_capital(goal))
    return " ".join([said, *conditions])


def summary(rng: random.Random, final_message: str) -> str:
    """The reference agent's final message: the template's, after a lead drawn from a pool."""
    lead = rng.choice(SUMMARY_LEADS)
    return f"{lead} {final_message}" if lead else final_message


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


_VERB = {"was": "were", "wasn't": "weren't", "am": "are"}  # "I was" -> "you were"


def _same_case(match: re.Match[str]) -> str:
    """The second-person word for a first-person one, capitalised at a sentence's start (or
    where the word was capitalised, except "I", which always is)."""
    word, text = match.group(0), match.string[: match.start()].rstrip()
    replacement = _PERSON[word.casefold()]
    starts = not text or text[-1] in '.!?"'
    pronoun = word.casefold().startswith("i") and word[0] == "I"
    return (
        replacement.capitalize() if starts or (word[0].isupper() and not pronoun) else replacement
    )


def _verb(word: str) -> str:
    verb = _VERB[word.lower()]
    return verb.capitalize() if word[0].isupper() else verb


def second_person(text: str) -> str:
    """A caller's words as the scenario tells them to the user: "cancel my trip" -> "cancel
    your trip", "I'm late." -> "You're late."."""
    text = re.sub(
        r"\b(I|we) (was|wasn't|am)\b|\b(was|wasn't|am) (I)\b",  # "Am I" -> "Are you" too
        lambda m: f"{m[1]} {_VERB[m[2].lower()]}" if m[1] else f"{_verb(m[3])} {m[4]}",
        text,
        flags=re.IGNORECASE,
    )
    return re.sub(
        r"\b(i'm|i've|i'd|myself|mine|my|me|i|we're|we|us|our)\b",
        _same_case,
        text,
        flags=re.IGNORECASE,
    )
