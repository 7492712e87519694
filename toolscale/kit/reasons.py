"""The required facts of a refusal: the reason it gives, as a careful grader reads it (a hand-off,
of a rule or of a goal, requires none: transferring the caller is what it is judged on).

A refusal must tell the caller why: the values that prove its rule applies. They are, in order,
the first of these that is not empty, each without what the caller says or can say (a party of
"seven" says 7) and without the id of any record the world holds (`toolscale.kit.shots.held`:
the caller's own customer id, a booking, a doctor, a plan, a train found by a look-up):

1. the rule's `shows` that a look-up result shows ("refunded", "3991.09", "2025-09-15");
2. the values of the looked-up records that the policy error's message states, one word each
   and not denied there ("blocked" in "card CARD-52B6BE is blocked, not active", a class size,
   a points balance; not a name, nor "returned" in "cannot be returned");
3. the numbers of the message: the policy's limits ("older than 60 days", "at most 8 seats").

A rule whose reason the caller already said, or which no value states (a trip that "already
began" on the date the caller gives), has no fact: its refusal is judged on the state and on
the look-up that establishes it (`toolscale.kit.evidence.missing_evidence`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolscale.core.contract import fact_stated, tool_text
from toolscale.core.written import numbers
from toolscale.kit.declare import PolicyError, Record
from toolscale.kit.shots import held
from toolscale.kit.words import NUMBERS, fact


def leaves(value: Any) -> Iterator[str]:
    """The facts of every scalar inside a tool result (dict values and list items, in order)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        found = fact(value)
        if found is not None:
            yield found


def _whole(value: str, message: str) -> bool:
    """Whether `value` is a whole word (or number) of `message`: "3" is not in "30 days"."""
    return re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w-]|\.\d)", message) is not None


def reason_facts(error: PolicyError, outputs: list[Any], world: Record, said: str) -> list[str]:
    """The refusal's facts (module docstring): `outputs` are its gold look-ups' results,
    `world` the world before the task, `said` everything the caller says or can say."""
    texts = [tool_text(o) for o in outputs]

    def fits(value: str) -> bool:
        words = [value, NUMBERS[int(value)]] if value.isdigit() and int(value) < 21 else [value]
        return not held(world, value) and not any(fact_stated(w, said) for w in words)

    message = str(error)
    shown = [v for v in error.shows if any(fact_stated(v, t) for t in texts) and fits(v)]
    if not shown:
        values = dict.fromkeys(v for o in outputs for v in leaves(o))
        stated = [v for v in values if " " not in v and _whole(v, message)]
        shown = [v for v in stated if fact_stated(v, message) and fits(v)]
    if not shown:
        shown = [f"{n:g}" for n in numbers(message) if fits(f"{n:g}")]
    return list(dict.fromkeys(shown))
