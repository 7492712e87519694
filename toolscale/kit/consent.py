"""The caller's yes before a change: a write in a conversation must follow the caller's agreement.

The policies of the kit's domains say to confirm every change with the caller and go ahead only
once they say yes. So, in a task with a user scenario (a conversation), every call of a WRITE
tool must follow a yes, read as a careful grader reads one: the caller's latest message before
it answers the agent's latest message, which asked for a yes to something it would do
(`toolscale.dialogue.user_reading.asks_yes`: "Shall I cancel it?", "I will cancel BK1. Please
confirm.", "OK to go ahead?"), and the answer agrees ("Yes.", "Go ahead", "Sure, do it",
"That's right, please proceed") in a sentence that asks nothing, with no agreeing word under a
negation ("That's not right", "I'm not sure") and no opening no ("No, leave it", "Don't",
"Wait"). A "Yes, of course: BK1234." that gives a detail, or "That's right" to a detail read
back, agrees to no change. How the agent asked is free; that it asked and heard yes is not. A
single-instruction task (no scenario) has no one to ask, and a scenario whose policy does not
ask for confirmation (`confirm_writes` False) needs none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolscale.core.contract import ToolKind, ToolSpec, UserScenario
from toolscale.dialogue.user_reading import asks_yes

AGREES = re.compile(
    r"\b(yes|yeah|yep|yup|sure|ok|okay|alright|all right|go ahead|go for it|"
    r"please do(?!\s*(?:not|n't))|do it|do that|proceed|confirm|confirmed|correct|"
    r"that's right|that is right|right|sounds good|"
    r"fine|perfect|absolutely|definitely|of course|agreed|i agree|that works|works for me)\b",
    re.IGNORECASE,
)
# The change asked for in so many words, as the answer to a proposal of it: "In that case,
# please cancel the booking instead." (a request for a look-up, "please check", is no yes).
ASKS_CHANGE = re.compile(
    r"\bplease (?:(?:go ahead and|just|do) )?(?:cancel|book|move|change|switch|upgrade|add|send|"
    r"order|block|close|refund|rebook|reschedule|transfer|dispute|replace|exchange|reserve)\b"
    r"|\b(?:cancel|book|move|change|switch|upgrade|add|send|order|block|close|refund|rebook|"
    r"reschedule|transfer|dispute|replace|exchange|reserve) (?:it|them|that|this)(?:,)? please\b",
    re.IGNORECASE,
)
DECLINES = re.compile(r"^\W*(no|nope|nah|don't|do not|wait|hold on|stop|never mind)\b", re.I)
# A negation before an agreeing word ("not right", "isn't correct", "not sure", "never ok").
NEGATED = re.compile(r"(?:\b(?:not|never|no)|n't)\W+(?:\w+\W+){0,2}$", re.I)
_SENTENCE = re.compile(r"(?<=[.?!])\s+")

Turn = tuple[str, str, Sequence[str]]  # (role, text, names of the tools it calls)


def agrees(text: str) -> bool:
    """Whether a caller's message says yes: it does not open with a no, and one of its
    sentences that asks nothing holds an agreeing word, or asks for a change in so many words
    ("please cancel the booking"), that no negation comes just before ("Yes, go ahead.", "OK."
    and "Then please cancel it instead." do; "That's not right.", "I'm not sure.", "Please
    don't cancel it." and "OK, but how much is it?" do not)."""
    if DECLINES.search(text):
        return False
    for sentence in _SENTENCE.split(text.strip()):
        if sentence.rstrip().endswith("?"):
            continue
        said = [*AGREES.finditer(sentence), *ASKS_CHANGE.finditer(sentence)]
        if any(not NEGATED.search(sentence[: m.start()]) for m in said):
            return True
    return False


def consent_problems(
    specs: dict[str, ToolSpec], scenario: UserScenario | None, turns: Sequence[Turn]
) -> list[str]:
    """One line per WRITE call made before the caller agreed to it (nothing for a task with
    no user scenario)."""
    if scenario is None or not scenario.confirm_writes:
        return []
    problems = []
    said: list[str] = []  # the caller's messages so far, the opening request first
    asked = False  # whether the agent's message before the caller's latest asked for a yes
    last = ""  # the agent's latest text to the caller
    for role, text, calls in turns:
        if role == "user":
            said.append(text)
            asked = bool(last) and asks_yes(last)
            continue
        if role != "assistant":
            continue
        last = text or last
        for name in calls:
            spec = specs.get(name)
            if spec is None or spec.kind is not ToolKind.WRITE:
                continue
            if len(said) < 2 or not agrees(said[-1]):
                heard = f"the caller last said {said[-1]!r}" if said else "the caller said nothing"
                problems.append(f"{name} was called before the caller agreed to it ({heard})")
            elif not asked:
                problems.append(
                    f"{name} was called without asking the caller for a yes to it (the caller's "
                    f"{said[-1]!r} answered {last!r})"
                )
    return problems
