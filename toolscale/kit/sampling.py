"""The sampling loop of a stateful domain, with the rules every domain's tasks must keep.

`sample_task` draws a template by weight (trying the next one when a template finds nothing
to work on in the world), then checks its draft: no value the user must be asked for, and no
required fact, appears in what the user says first; a request that implies a write has a gold
path that changes the state, and a read-only one leaves it as it is and states a fact only a
look-up gives (`toolscale.kit.evidence.check_evidence`). A broken rule is a bug in
the template (`KitError`), reported by `generate` and `check-domain` with its traceback, except a
chance collision (the opening happens to say an amount the agent must find), which is drawn again
(`sample_named`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from toolscale.core.contract import (
    Difficulty,
    TaskSpec,
    Toolkit,
    UserScenario,
    fact_stated,
    normalize_text,
    tool_text,
)
from toolscale.kit.draft import Draft, Request
from toolscale.kit.evidence import check_evidence
from toolscale.kit.phrasing import PERSONAS, opening, reason_for_call
from toolscale.sample import worlds

Template = Callable[[random.Random, dict[str, Any]], Draft | None]
INSTRUCTIONS = (
    "Give the details you know only when the agent asks for them, exactly as written. Confirm an "
    "action the agent proposes only if it is what you asked for."
)


REDRAWS = 12  # draws of one template whose opening said a value it must not (`Collision`)


class KitError(Exception):
    """A template broke one of the kit's rules: a bug in the domain."""


class Collision(KitError):
    """A draft's opening says a value the agent must ask for or find: drawn again."""


def difficulty(actions: int) -> Difficulty:
    return "easy" if actions <= 2 else "medium" if actions <= 4 else "hard"


def sample_task(
    rng: random.Random,
    world: dict[str, Any],
    templates: dict[str, tuple[Template, int]],
    toolkit: type[Toolkit],
    policy: str = "",
) -> TaskSpec:
    """One task: a template drawn by weight from `templates` (name -> (template, weight));
    `policy` is the domain's policy text (a fact it states is no evidence, `evidence`)."""
    worlds.MEMO.remember(world)  # the world's copies come from a pickle after this
    names = list(templates)
    first = rng.choices(range(len(names)), weights=[w for _, w in templates.values()])[0]
    for name in names[first:] + names[:first]:
        spec = sample_named(rng, world, name, templates[name][0], toolkit, policy)
        if spec is not None:
            return spec
    raise KitError("no template applies to this world")


def sample_named(
    rng: random.Random,
    world: dict[str, Any],
    name: str,
    template: Template,
    toolkit: type[Toolkit],
    policy: str = "",
) -> TaskSpec | None:
    """A task of template `name`, or None when it finds nothing to work on in `world`. A draft
    whose opening happens to say a value the agent must find or ask for (`Collision`: an amount
    equal to a fee, a party size inside a date) is drawn again, up to REDRAWS times; a template
    that collides every time is broken and its last collision is raised."""
    worlds.MEMO.remember(world)
    with of_template(name):
        for attempt in range(REDRAWS):
            draft = template(rng, world)
            if draft is None:
                return None
            try:
                return task_spec(rng, name, draft, world, toolkit, policy)
            except Collision:
                if attempt == REDRAWS - 1:
                    raise
    raise AssertionError("unreachable")


@contextmanager
def of_template(name: str) -> Iterator[None]:
    """Tag any exception raised inside with the template it came from (`template`: the sandbox
    worker's `Failure` keeps it, so check-domain reports a template's problems together)."""
    try:
        yield
    except Exception as exc:
        exc.template = name  # type: ignore[attr-defined]  (any exception type)
        raise


def task_spec(
    rng: random.Random,
    name: str,
    draft: Draft,
    world: dict[str, Any],
    toolkit: type[Toolkit],
    policy: str = "",
) -> TaskSpec:
    state = world if draft.state is None else draft.state
    outputs = check_writes(name, draft, state, toolkit)
    persona = rng.choice(sorted(PERSONAS))
    request = draft.request
    first = opening(rng, request, persona)
    check_opening(name, request, first, draft.facts)
    scenario = UserScenario(
        reason_for_call=request.reason or reason_for_call(request),
        opening=first,
        known=dict(request.known),
        stated=dict(request.stated),
        unknown_info=request.unknown,
        task_instructions=" ".join(filter(None, [INSTRUCTIONS, request.notes])),
        nl_assertions=list(draft.nl_assertions),
        persona=PERSONAS[persona],
        accepts_changes=draft.writes,
    )
    check_evidence(name, draft.facts, scenario, outputs, draft.writes, policy, KitError)
    return TaskSpec(
        template=name,
        difficulty=difficulty(len(draft.actions)),
        instruction=first,
        initial_state=state,
        gold_actions=list(draft.actions),
        final_message=draft.final_message,
        required_facts=list(draft.facts),
        alternatives=list(draft.alternatives),
        scenario=scenario,
    )


def check_opening(name: str, request: Request, first: str, facts: list[str]) -> None:
    said = normalize_text(" ".join([first, *request.goals, *request.motives]))
    for key, value in request.known.items():
        if normalize_text(value) in said:
            raise Collision(f"template {name}: the request gives away the {key} ({value!r})")
    for fact in facts:
        if fact_stated(fact, first):
            raise Collision(f"template {name}: the opening states the required fact {fact!r}")


def check_writes(
    name: str, draft: Draft, state: dict[str, Any], toolkit: type[Toolkit]
) -> list[str]:
    """Check that the gold path writes exactly when the request implies a write; return the
    results of its calls (what its facts may come from)."""
    kit = toolkit(worlds.MEMO.copy(state))
    outputs = [tool_text(getattr(kit, a.name)(**a.arguments)) for a in draft.actions]
    changed = kit.state != state  # a deep comparison: cheaper than hashing the world twice
    if draft.writes and not changed:
        raise KitError(
            f"template {name}: the request implies a write, but its gold path "
            "leaves the state as it is"
        )
    if changed and not draft.writes:
        raise KitError(f"template {name}: a read-only request whose gold path changes the state")
    return outputs
