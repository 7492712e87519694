"""The reference agent's words: pools of questions, read-backs, proposals and offers.

The reference teacher's gold conversations (toolscale.dialogue.conversation) draw one wording per
turn from an RNG seeded by the scenario, so agents' turns vary as much as users' do and a
conversation replays word for word. Every wording keeps what the scripted user listens for: a
question names the details it asks for, a proposal asks "shall I / would you like me to /
proceed?", a read-back repeats the value with a question, an explanation says why ("I need it
to ...", "so I can ..."), and no plain question says why (a user who asks back must be told).
Placeholders: {wanted} ("your booking id and your email"), {key}, {value}, {what} (an action
described with its arguments).
"""

from __future__ import annotations

import random

from toolscale.core.contract import Action, canonical_json

ASK = (
    "Could you please tell me {wanted}?",
    "May I have {wanted}, please?",
    "Can you give me {wanted}?",
    "Please share {wanted}.",
    "I can help with that. Could you give me {wanted}?",
    "Sure. Could you let me know {wanted}?",
    "Happy to help. What is {wanted}?",
    "First, could you tell me {wanted}?",
    "Would you mind telling me {wanted}?",
    "Certainly. Could I have {wanted}?",
    "Of course. Please tell me {wanted}.",
    "Let's get started: could you provide {wanted}?",
)
ASK_REST = (
    "Thanks. And {wanted}?",
    "Take your time. What is {wanted}?",
    "Got it, thank you. Could you also give me {wanted}?",
    "Thank you. Could you tell me {wanted} as well?",
    "No rush. When you have it, please tell me {wanted}.",
)
EXPLAIN = (
    "I need it to find the right records in our system. Could you tell me {wanted}?",
    "It's so I can look up your details and make no mistake. Could you share {wanted}?",
    "I use it to make sure I'm looking at the right account; it's on anything we've sent "
    "you. What is {wanted}?",
    "Good question: I need it to identify you before I change or tell you anything. Could "
    "you give me {wanted}?",
    "We ask for it so we can verify who we're talking to. Could you please tell me {wanted}?",
)
READ_BACK = (
    "Just to check: your {key} is {value}, is that right?",
    "Let me repeat that: {value}. Is that correct?",
    "So that's {value}. Did I get that right?",
    "I have {value} as your {key}. Is that correct?",
    "Thanks. {value}, is that right?",
)
CONFIRM = (
    "Before I go ahead: I am about to {what}. Shall I proceed?",
    "I'm ready to {what}. Would you like me to go ahead?",
    "To confirm, I will {what}. Is that correct?",
    "Shall I {what} now?",
    "Here's what I'll do: {what}. Do you want me to go ahead?",
    "Everything checks out. Can I go ahead and {what}?",
    "I can {what} for you now. Should I do that?",
    "All set to {what}. OK to proceed?",
)
OFFER = (
    "While I'm here, I could also {what}. Would you like me to do that?",
    "I can also {what} if you like. Shall I?",
    "Would you like me to {what} as well?",
    "One more thing I can do: {what}. Do you want me to go ahead with that?",
)
LACKING = (
    "Do you have your {key} to hand?",
    "Could you tell me the {key}?",
    "Do you know the {key}?",
    "Is the {key} something you have with you?",
)
INSTEAD = (
    "No problem, I can find it another way. Could you tell me {wanted}?",
    "That's fine. Then could I have {wanted}?",
    "Not to worry. Could you give me {wanted} instead?",
    "That's okay, I can look it up. What is {wanted}?",
)
HOLD_ON = (
    "Sure, I can help with that. Let me take a look.",
    "Of course. One moment while I look into it.",
    "Happy to help with that.",
    "Certainly, I'll see what I can do.",
)
AGREED = ("No problem.", "Of course, let's do that instead.", "Sure, no worries.", "Understood.")
# How some wordings begin, left out after another reply has begun the turn ("Sure, no worries.
# Could you ..." rather than "Sure, no worries. Sure. Could you ...").
OPENERS = (
    "Sure, I can help with that. ",
    "I can help with that. ",
    "Happy to help. ",
    "Sure. ",
    "Certainly. ",
    "Of course. ",
    "Okay. ",
)


def without_opener(text: str) -> str:
    """`text` without the opener it begins with, if any: "Sure. Could you ...?" -> "Could you
    ...?"."""
    opener = next((o for o in OPENERS if text.startswith(o)), "")
    rest = text[len(opener) :]
    return rest[:1].upper() + rest[1:] if opener else text


def wanted(keys: list[str]) -> str:
    """The details asked for, as the agent says them: "your booking id and your email"."""
    return " and ".join(f"your {key}" for key in keys)


def _text(value: object) -> str:
    return value if isinstance(value, str) else canonical_json(value)


def describe(action: Action) -> str:
    """An action as the agent states it before asking for confirmation, its arguments as a
    person reads them: cancel_stay(stay_id="ST1") -> "cancel stay (stay ST1)"."""
    what = action.name.replace("_", " ")
    arguments = ", ".join(
        f"{k.removesuffix('_id').replace('_', ' ')} {_text(v)}" for k, v in action.arguments.items()
    )
    return f"{what} ({arguments})" if arguments else what


class Voice:
    """One conversation's agent wording, drawn from an RNG seeded by `seed`."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(f"agent:{seed}")

    def ask(self, keys: list[str]) -> str:
        return self.rng.choice(ASK).format(wanted=wanted(keys))

    def ask_rest(self, keys: list[str]) -> str:
        return self.rng.choice(ASK_REST).format(wanted=wanted(keys))

    def explain(self, keys: list[str]) -> str:
        return self.rng.choice(EXPLAIN).format(wanted=wanted(keys))

    def read_back(self, key: str, value: str) -> str:
        return self.rng.choice(READ_BACK).format(key=key, value=value)

    def confirm(self, action: Action) -> str:
        return self.rng.choice(CONFIRM).format(what=describe(action))

    def offer(self, action: Action) -> str:
        return self.rng.choice(OFFER).format(what=describe(action))

    def lacking(self, key: str) -> str:
        return self.rng.choice(LACKING).format(key=key)

    def instead(self, keys: list[str]) -> str:
        return self.rng.choice(INSTEAD).format(wanted=wanted(keys))

    def hold_on(self) -> str:
        return self.rng.choice(HOLD_ON)

    def agreed(self) -> str:
        return self.rng.choice(AGREED)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p
