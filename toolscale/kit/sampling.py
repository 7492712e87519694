"""The sampling loop of a stateful domain, with the rules every domain's tasks must keep.

`sample_task` draws a template by weight (trying the next one when a template finds nothing
to work on in the world), then checks its draft: no value the user must be asked for, and no
required fact, appears in what the user says first; a request that implies a write has a gold
path that changes the state, and a read-only one leaves it as it is and states a fact only a
look-up gives (`toolscale.kit.evidence.check_evidence`). A broken rule is a bug in
the template (`KitError`), reported by `generate` and `check-domain` with its traceback, except a
chance collision (the opening happens to say an amount the agent must find), which is drawn again
(`sample_named`).
The caller gets a behaviour drawn from the task's RNG (`toolscale.kit.behaviours`: one that
changes their mind opens with another template's request), and a reason for the call and
task instructions written from the task (`toolscale.kit.caller`).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from toolscale.core.contract import (
    Action,
    Behaviour,
    Difficulty,
    TaskSpec,
    ToolKind,
    Toolkit,
    UserScenario,
    fact_stated,
    normalize_text,
    tool_text,
)
from toolscale.kit import behaviours
from toolscale.kit.behaviours import Shown
from toolscale.kit.caller import Wording, reason_for_call, task_instructions
from toolscale.kit.daytime import hour_of
from toolscale.kit.draft import Draft, Request
from toolscale.kit.evidence import check_evidence
from toolscale.kit.phrasing import (
    PERSONAS,
    SAYS_MOTIVE,
    SAYS_SITUATION,
    change,
    opening,
    second_person,
    situation,
    summary,
)
from toolscale.sample import worlds

Template = Callable[[random.Random, dict[str, Any]], Draft | None]
# A draw of another template's draft for the caller of the draft given: what a caller who
# changes their mind opens with.
Opener = Callable[[Draft], Draft | None]


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
        opener = opener_of(rng, world, templates, name) if len(names) > 1 else None
        spec = sample_named(rng, world, name, templates[name][0], toolkit, policy, opener)
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
    opener: Opener | None = None,
) -> TaskSpec | None:
    """A task of template `name`, or None when it finds nothing to work on in `world`. A draft
    whose opening happens to say a value the agent must find or ask for (`Collision`: an amount
    equal to a fee, a party size inside a date), or a read-only one without evidence, is drawn
    again, up to REDRAWS times; a template that collides every time is broken and its last
    collision is raised. `opener` draws the request a caller who changes their mind opens with
    (`_opener`; None: no change of mind)."""
    worlds.MEMO.remember(world)
    with of_template(name):
        for attempt in range(REDRAWS):
            draft = template(rng, world)
            if draft is None:
                return None
            try:
                return task_spec(rng, name, draft, world, toolkit, policy, opener)
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
        exc.template = name  # type: ignore[attr-defined]  # any exception type
        raise


def _for_caller(template: Template) -> bool:
    """Whether `template` draws for a given caller (a composed intent takes `caller`)."""
    try:
        return "caller" in inspect.signature(template).parameters
    except (TypeError, ValueError):
        return False


def opener_of(
    rng: random.Random, world: dict[str, Any], templates: dict[str, tuple[Template, int]], name: str
) -> Opener:
    def draw(kept: Draft) -> Draft | None:
        # A refusal is no request to drop unanswered: its records (a train that has left, a
        # charge too old) would have the caller open with a past date for nothing. The first
        # request is the caller's own: drawn for them (`Draft.caller`) where the template can.
        others = [n for n in templates if n != name and not refusal(n)]
        if kept.caller is not None:
            others = [n for n in others if _for_caller(templates[n][0])]
        if not others:
            return None
        start = rng.choices(range(len(others)), weights=[templates[n][1] for n in others])[0]
        for other in others[start:] + others[:start]:
            make = templates[other][0]
            mine: Any = make  # a composed intent: it takes `caller` (`_for_caller`)
            draft = mine(rng, world, caller=kept.caller) if kept.caller else make(rng, world)
            if draft is not None and draft.caller == kept.caller:
                return draft
        return None

    return draw


def refusal(template: str) -> bool:
    """Whether a composed template's name says its request is refused or handed off."""
    return ".no." in template or ".handoff." in template


def _wording(rng: random.Random, request: Request, persona: str, hour: int | None) -> Wording:
    conditions = [c if isinstance(c, str) else rng.choice(c) for c in request.conditions]
    motive = rng.choice(request.motives) if request.motives else ""
    return Wording(rng.choice(request.goals), conditions, motive, situation(rng, persona, hour))


def _said(
    rng: random.Random, request: Request, said: Wording, persona: str, hour: int | None
) -> str:
    """The opening of a caller who says `said`, with its motive and situation now and then."""
    motive = said.motive if rng.random() < SAYS_MOTIVE[persona] else ""
    where = said.situation if rng.random() < SAYS_SITUATION[persona] else ""
    return opening(rng, request, persona, said.goal, said.conditions, motive, where, hour)


def _gives_away(text: str, request: Request, facts: list[str]) -> bool:
    said = normalize_text(text)
    return any(normalize_text(v) in said for v in request.known.values()) or any(
        fact_stated(f, text) for f in facts
    )


def task_spec(
    rng: random.Random,
    name: str,
    draft: Draft,
    world: dict[str, Any],
    toolkit: type[Toolkit],
    policy: str = "",
    opener: Opener | None = None,
) -> TaskSpec:
    state = world if draft.state is None else draft.state
    outputs, kit = check_writes(name, draft, state, toolkit)
    persona = rng.choice(sorted(PERSONAS))
    request = draft.request
    hour = hour_of(world)
    said = _wording(rng, request, persona, hour)
    first = _said(rng, request, said, persona, hour)
    check_opening(name, request, first, draft.facts)
    plain_first = first
    names = behaviours.allowed(draft, opener is not None)
    shown, opened, change_said = Shown(), None, ""
    while names and not shown.behaviour:  # a behaviour the task cannot show: draw another
        behaviour = behaviours.draw(rng, names)
        names.remove(behaviour)
        if behaviour == "change" and opener is not None:
            found = _changed_mind(rng, request, said, persona, draft, opener, toolkit, hour)
            if found is not None:
                shown, first, opened, change_said = found
        elif behaviour:
            shown = _shown(rng, behaviour, draft, kit, toolkit)
        else:
            break

    def scenario_of(shown: Shown, first: str, opened: Any, change_said: str) -> UserScenario:
        return UserScenario(
            reason_for_call=reason_for_call(rng, request, said, opened),
            opening=first,
            known=dict(request.known),
            stated=dict(request.stated),
            unknown_info=_unknown(request, shown),
            task_instructions=task_instructions(
                rng, request, said, shown, draft.writes, change_said if opened else ""
            ),
            nl_assertions=list(draft.nl_assertions),
            persona=PERSONAS[persona],
            accepts_changes=draft.writes,
            behaviour=shown.behaviour,
            manner=persona,
            wants=said.wants(request),
            declines=shown.declines,
            unwanted=shown.unwanted,
            wrong=shown.wrong,
            lacks=shown.lacks,
            first_request=second_person(opened[1].wants(opened[0])) if opened else "",
            change=change_said if opened else "",
        )

    scenario = scenario_of(shown, first, opened, change_said)
    if shown.behaviour and not playable(scenario, draft.actions, toolkit):
        # the reference agent cannot play the gold conversation through this caller's
        # behaviour (a rare clash of the behaviour with the domain's wording): a plain caller
        scenario = scenario_of(Shown(), plain_first, None, "")
        first = plain_first
    # A draw without evidence (the only fact a word the policy says, as a booking's status "used"
    # when the caller gave its id) is drawn again; a template that never has any is raised.
    asks = request.kind == "know"
    check_evidence(name, draft.facts, scenario, outputs, draft.writes, policy, Collision, asks)
    check_looks_up(name, draft, toolkit)
    return TaskSpec(
        template=name,
        difficulty=difficulty(len(draft.actions)),
        instruction=first,
        initial_state=state,
        gold_actions=list(draft.actions),
        final_message=summary(rng, draft.final_message),
        required_facts=list(draft.facts),
        alternatives=list(draft.alternatives),
        scenario=scenario,
        refused=draft.refused,
    )


def _shown(
    rng: random.Random, behaviour: Behaviour, draft: Draft, kit: Toolkit, toolkit: type[Toolkit]
) -> Shown:
    """What `behaviour` (not `change`) adds to the scenario; plain when the task cannot show
    it."""
    if behaviour == "decline":
        return behaviours.offer(rng, draft, kit, toolkit.schemas())
    if behaviour == "correct":
        wrong = behaviours.wrong_detail(rng, draft, draft.facts)
        return Shown(behaviour, wrong=wrong) if wrong else Shown()
    if behaviour == "dont_know":
        return Shown(behaviour, lacks=behaviours.lacks(draft))
    return Shown(behaviour)


def _changed_mind(
    rng: random.Random,
    request: Request,
    said: Wording,
    persona: str,
    draft: Draft,
    opener: Opener,
    toolkit: type[Toolkit],
    hour: int | None,
) -> tuple[Shown, str, tuple[Request, Wording], str] | None:
    """A caller who opens with another template's request and changes it for this one: (the
    scenario part, the opening, the first request and its wording, what they say to change
    it), or None when no other request fits (one whose words give away this one's details)."""
    other = opener(draft)
    if other is None:
        return None
    old = replace(_wording(rng, other.request, persona, hour), situation=said.situation)
    then = _said(rng, other.request, old, persona, hour)
    change_said = change(rng, request, persona, said.goal, said.conditions)
    if _gives_away(f"{then} {change_said}", request, draft.facts):
        return None
    shown = Shown("change", declines=_dropped(other, draft, toolkit))
    return shown, then, (other.request, old), change_said


def _unknown(request: Request, shown: Shown) -> str:
    lacking = f"You do not have your {' or your '.join(shown.lacks)}." if shown.lacks else ""
    return " ".join(filter(None, [request.unknown, lacking]))


def _dropped(first: Draft, draft: Draft, toolkit: type[Toolkit]) -> list[str]:
    """The words that name the changes of the request a caller dropped (`first`) and not those
    of the one they kept: what they turn down when the agent proposes it."""
    specs = toolkit.specs()
    kept = {w for a in draft.actions for w in a.name.split("_")}
    dropped = []
    for action in first.actions:
        if specs[action.name].kind is ToolKind.WRITE:
            words = " ".join(w for w in action.name.split("_") if w not in kept and len(w) > 2)
            if words and words not in dropped:
                dropped.append(words)
    return dropped


def check_opening(name: str, request: Request, first: str, facts: list[str]) -> None:
    said = normalize_text(" ".join([first, *request.goals, *request.motives]))
    for key, value in request.known.items():
        if normalize_text(value) in said:
            raise Collision(f"template {name}: the request gives away the {key} ({value!r})")
    for fact in facts:
        if fact_stated(fact, first):
            raise Collision(f"template {name}: the opening states the required fact {fact!r}")


def check_looks_up(name: str, draft: Draft, toolkit: type[Toolkit]) -> None:
    """A read-only draft's gold route makes a look-up: the verifier requires an attempt to make
    one of them (`toolscale.kit.evidence.missing_evidence`), so a refusal whose reason is a word
    the policy holds is not passed by an agent that looked nothing up."""
    specs = toolkit.specs()
    if not draft.writes and not any(specs[a.name].kind is ToolKind.READ for a in draft.actions):
        raise KitError(f"template {name}: a read-only request whose gold route looks nothing up")


def check_writes(
    name: str, draft: Draft, state: dict[str, Any], toolkit: type[Toolkit]
) -> tuple[list[str], Toolkit]:
    """Check that the gold path writes exactly when the request implies a write; return the
    results of its calls (what its facts may come from) and the toolkit after them."""
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
    return outputs, kit


def playable(scenario: UserScenario, actions: list[Action], toolkit: type[Toolkit]) -> bool:
    """Whether the reference agent can play the gold conversation with this caller."""
    from toolscale.dialogue.conversation import Stuck, converse

    try:
        converse(scenario, actions, toolkit.specs())
    except Stuck:
        return False
    return True
