"""The caller of a stateful task, told to a user: the reason for the call and how to behave.

tau2's user scenario has two texts a simulated user plays from: `reason_for_call` (why they
call) and `task_instructions` (how to go about it). Both are written here from the task's own
parts, in the second person: the reason from the caller's situation and motive, the goal in the
wording their opening used, the conditions they set and, for a caller who changes their mind,
both requests; the instructions from the details they hold (the values included), the
behaviour drawn for them (which detail they misread, which they hold back or lack, what they
decline) and what they agree to. So two tasks of one template rarely share either text, and an
LLM user simulator can play every behaviour the scripted user plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from toolscale.kit.behaviours import Shown
from toolscale.kit.draft import Request
from toolscale.kit.phrasing import leads_for, second_person

DO_FRAMES = (
    "You want to {goal}.",
    "You are calling to {goal}.",
    "You would like the agent to help you {goal}.",
    "You need to {goal}.",
    "You got in touch to {goal}.",
    "Your aim is to {goal}.",
    "You hope to {goal} today.",
    "You have decided to {goal}.",
)
KNOW_FRAMES = (
    "You want to know {goal}.",
    "You are calling to find out {goal}.",
    "You need to know {goal}.",
    "You would like the agent to tell you {goal}.",
    "You got in touch to learn {goal}.",
    "You are trying to work out {goal}.",
    "You want the agent to check {goal}.",
    "You wonder {goal}.",
)
GIVE = (
    "Give your {keys} only when the agent asks for {them}.",
    "Do not volunteer your {keys}; wait until the agent asks.",
    "Share your {keys} when the agent asks for {them}.",
    "Tell the agent your {keys} once it asks for {them}, not before.",
)
AGREE = (
    "Agree when the agent proposes to {wants}, and to no other change.",
    "Say yes when the agent offers to {wants}; turn down any other change.",
    "Confirm once the agent proposes to {wants}, and agree to nothing else.",
)
# A caller who only asks turns any change down; one whose change the policy refuses takes the
# reason and agrees to nothing else in its place (never told to turn down its own change).
KEEP = (
    "Do not agree to any change: you only want to {wants}.",
    "Turn down any change the agent proposes; all you want is to {wants}.",
)
REFUSED = (
    "If the agent says it cannot {wants}, accept the reason it gives; agree to no other "
    "change instead.",
    "Should the agent explain that it cannot {wants}, take its reason and agree to no other "
    "change in its place.",
)
END = (
    "End the conversation once the agent has done it or explained why it cannot.",
    "Stop once the agent has helped you or said it cannot.",
    "Once you have what you came for, or a reason why not, say goodbye.",
)


@dataclass(frozen=True)
class Wording:
    """The words a caller's opening used: the goal, one wording of each condition, the motive
    and the situation ("" when not said); `wants` is the goal as a verb phrase ("know what my
    balance is" for a question)."""

    goal: str
    conditions: list[str]
    motive: str
    situation: str

    def wants(self, request: Request) -> str:
        return self.goal if request.kind == "do" else f"know {self.goal}"


def _goal(rng: random.Random, request: Request, goal: str) -> str:
    frames = DO_FRAMES if request.kind == "do" else KNOW_FRAMES
    return rng.choice(leads_for(frames, goal)).format(goal=goal)


def reason_for_call(
    rng: random.Random,
    request: Request,
    said: Wording,
    first: tuple[Request, Wording] | None = None,
) -> str:
    """Why the caller calls: situation, motive, goal, conditions (or, after the situation, the
    reason the domain wrote for the task, `Request.reason`, which holds them); with `first` (a
    caller who changes their mind), the request they open with and the one they change it for."""
    parts = [said.situation]
    if first is not None:
        opened, opening = first
        parts += [
            f"Your first message asks to {opening.wants(opened)}.",
            "As soon as the agent has replied to it, you change your mind.",
        ]
    if second_person(said.motive) not in request.reason:  # one motive per request, said once
        parts.append(said.motive)  # the opening's own motive
    if request.reason:
        return second_person(" ".join([*filter(None, parts), request.reason]))
    parts.append(_goal(rng, request, said.goal))
    told = second_person(" ".join(p for p in parts if p))
    if said.conditions:  # the caller's own words, which decide the outcome
        told += f' You add: "{" ".join(said.conditions)}"'
    return told


def _listed(words: list[str]) -> str:
    return " and ".join([", ".join(words[:-1]), words[-1]] if words[1:] else words)


def task_instructions(
    rng: random.Random,
    request: Request,
    said: Wording,
    shown: Shown,
    writes: bool,
    change: str = "",
) -> str:
    """How the caller goes about it: which details they give and when, their behaviour, what
    they agree to or turn down, the template's notes, and when to stop."""
    details = {**request.stated, **request.known}
    parts = []
    if request.known:
        keys = _listed([f"{k} ({v})" for k, v in request.known.items()])
        them = "them" if len(request.known) > 1 else "it"
        parts.append(rng.choice(GIVE).format(keys=keys, them=them))
    behaviour = shown.behaviour
    if behaviour == "correct":
        ((key, wrong),) = shown.wrong.items()
        parts.append(
            f"The first time you are asked for your {key}, you misread it and say {wrong}; as "
            f"soon as the agent repeats it, uses it or asks again, correct it to {details[key]}."
        )
    elif behaviour == "pieces":
        first, *rest = request.known
        parts.append(
            f"When the agent asks for several details at once, give only your {first} and say "
            f"you need a moment for your {_listed(rest)}; give the rest at its next message."
        )
    elif behaviour == "ask_back":
        key = next(iter(request.known))
        parts.append(
            f"Before you give your {key}, ask the agent why it needs it or where to find it; "
            "give it once the agent says why."
        )
    elif behaviour == "dont_know":
        parts.append(
            f"You do not have your {' or your '.join(shown.lacks)}; if the agent asks for "
            f"{'them' if shown.lacks[1:] else 'it'}, say so and offer your "
            f"{next(iter(request.known))} instead."
        )
    elif behaviour == "change":
        parts.append(
            "As soon as the agent has replied to your first message (with a question, a proposal "
            "or an answer), change your mind: say your change of mind (below), then go on with "
            "the new request only, and turn down anything the agent proposes for the old one."
        )
    elif behaviour == "decline" and writes:  # a caller who only asks turns any change down
        parts.append(
            "If the agent offers to change anything beyond what you asked for, turn it down "
            "and say it is not what you called about."
        )
    closing = AGREE if writes else KEEP if request.kind != "do" else REFUSED
    parts.append(rng.choice(closing).format(wants=said.wants(request)))
    parts += [request.notes, rng.choice(END)]
    told = second_person(" ".join(p for p in parts if p))
    return f'{told} Your change of mind: "{change}"' if change else told
