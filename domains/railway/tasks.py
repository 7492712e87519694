"""The railway sampler: build a seeded state, pick a template, return its TaskSpec.

Templates live in `templates` (one to three gold actions) and `composite` (multi-step, with
conditions). A template that finds nothing to work on returns None and the next one is tried, so
every (seed, index) yields a task. Difficulty is set by the number of gold actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from domains.railway import composite, templates
from domains.railway.runner import Draft, Record
from domains.railway.state import build_state
from toolscale.contract import Difficulty, TaskSpec

Template = Callable[[random.Random, Record], Draft | None]

# name -> (template, weight); composite templates weigh more so hard tasks are not rare
TEMPLATES: dict[str, tuple[Template, int]] = {
    "departure_time": (templates.departure_time, 2),
    "refund_quote": (templates.refund_quote, 2),
    "fare_lookup": (templates.fare_lookup, 2),
    "add_luggage": (templates.add_luggage, 2),
    "cancel_by_email": (templates.cancel_by_email, 3),
    "book_earliest": (templates.book_earliest, 3),
    "upgrade_or_luggage": (composite.upgrade_or_luggage, 3),
    "cancel_or_change": (composite.cancel_or_change, 3),
    "cancel_upcoming": (composite.cancel_upcoming, 3),
    "change_and_luggage": (composite.change_and_luggage, 4),
    "rebook_cancelled": (composite.rebook_cancelled, 4),
}


def difficulty(actions: int) -> Difficulty:
    return "easy" if actions <= 2 else "medium" if actions <= 4 else "hard"


def sample_task(rng: random.Random) -> TaskSpec:
    """One railway task drawn from `rng` alone."""
    state = build_state(rng)
    names = list(TEMPLATES)
    first = rng.choices(range(len(names)), weights=[w for _, w in TEMPLATES.values()])[0]
    for name in names[first:] + names[:first]:
        draft = TEMPLATES[name][0](rng, state)
        if draft is not None:
            return TaskSpec(
                template=name,
                difficulty=difficulty(len(draft.actions)),
                instruction=draft.instruction,
                initial_state=state,
                gold_actions=draft.actions,
                final_message=draft.final_message,
                required_facts=draft.facts,
            )
    raise RuntimeError("no railway template applies to this state")  # a bug in build_state
