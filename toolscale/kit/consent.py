"""The caller's yes before a change: a write in a conversation must follow the caller's agreement.

The policies of the kit's domains say to confirm every change with the caller and go ahead only
once they say yes. So, in a task with a user scenario (a conversation), every call of a WRITE
tool must come after a caller's message other than the opening request, and the caller's latest
message before it must agree ("Yes.", "Go ahead", "Sure, do it", "That's right, please proceed")
and not decline ("No, leave it", "Don't", "Wait"). How the agent asked is free; that it asked and
heard yes is not. A single-instruction task (no scenario) has no one to ask, and a scenario whose
policy does not ask for confirmation (`confirm_writes` False) needs none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolscale.core.contract import ToolKind, ToolSpec, UserScenario

AGREES = re.compile(
    r"\b(yes|yeah|yep|yup|sure|ok|okay|alright|all right|go ahead|go for it|please do|do it|"
    r"do that|proceed|confirm|confirmed|correct|that's right|that is right|right|sounds good|"
    r"fine|perfect|absolutely|definitely|of course|agreed|i agree|that works|works for me)\b",
    re.IGNORECASE,
)
DECLINES = re.compile(r"^\W*(no|nope|nah|don't|do not|wait|hold on|stop|never mind)\b", re.I)

Turn = tuple[str, str, Sequence[str]]  # (role, text, names of the tools it calls)


def agrees(text: str) -> bool:
    """Whether a caller's message says yes (and does not open with a no)."""
    return bool(AGREES.search(text)) and not DECLINES.search(text)


def consent_problems(
    specs: dict[str, ToolSpec], scenario: UserScenario | None, turns: Sequence[Turn]
) -> list[str]:
    """One line per WRITE call made before the caller agreed to it (nothing for a task with
    no user scenario)."""
    if scenario is None or not scenario.confirm_writes:
        return []
    problems = []
    said: list[str] = []  # the caller's messages so far, the opening request first
    for role, text, calls in turns:
        if role == "user":
            said.append(text)
            continue
        if role != "assistant":
            continue
        for name in calls:
            spec = specs.get(name)
            if spec is None or spec.kind is not ToolKind.WRITE:
                continue
            if len(said) < 2 or not agrees(said[-1]):
                heard = f"the caller last said {said[-1]!r}" if said else "the caller said nothing"
                problems.append(f"{name} was called before the caller agreed to it ({heard})")
    return problems
