"""Why a composed template found nothing to work on: the cause, named in the domain's own terms.

`KitDomain.sample_named` gives up on a template after `NAMED_DRAWS` draws that found nothing.
`explain` then walks the template's goal again, step by step as the composer does
(`toolscale.kit.compose`), on `DRAWS` fresh draws, and counts where each draw stopped: an empty
table, an owner with no such record, the goal's `when`, its policy check, identification (no
finder, an owner's lister that cannot single the record out), a `before` call or the tool
raising, a write that changes nothing, a gold path too long, or a read-only answer whose facts
the caller or the policy already state (a question the policy answers needs no look-up). The
answer names the entity, record, condition or table, so a model repairing a domain can act on
it. It only reads the world and runs tools on scratch copies; it decides nothing the composer
uses.
"""

from __future__ import annotations

import inspect
import random
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from toolscale.core.contract import ToolError, ToolKind, UserScenario, fact_stated, tool_text
from toolscale.kit.broken_rules import reasons
from toolscale.kit.compose import Composer
from toolscale.kit.declare import Draw, Goal, PolicyError, Record
from toolscale.kit.draws import records_for
from toolscale.kit.evidence import evidence_facts
from toolscale.kit.identify import Plan, children, identify, twins
from toolscale.kit.shots import MAX_ACTIONS, output_fields, shot_of

DRAWS = 60  # draws walked to find the causes
SHOWN = 3  # causes named, commonest first
EXAMPLE = "\x00"  # parts a cause from its example, which differs from draw to draw


def explain(composer: Composer, template: Any, world: Record, seed: str) -> str:
    """The commonest reasons `template` (one of `composer`'s) found nothing in `world`, e.g.
    "60 of 60 draws: no appointment fits goal open_slot's `when` (...)"; "" when the walk finds
    no cause (a hand-written template, or draws that now succeed)."""
    if not isinstance(template, partial) or not template.args:
        return ""
    kind = getattr(template.func, "__name__", "")
    goal: Goal = template.args[0]
    rule: type[PolicyError] | None = template.args[1] if kind == "refusal" else None
    rng = random.Random(f"{seed}:misses")
    causes: Counter[str] = Counter()
    examples: dict[str, str] = {}  # a cause's first example record, shown once
    for _ in range(DRAWS):
        try:
            cause = _walk(composer, goal, kind, rule, world, rng)
        except Exception as exc:  # the composer raises these itself, with their traceback
            cause = f"{type(exc).__name__}: {exc}"
        cause, _, example = cause.partition(EXAMPLE)
        if cause:
            causes[cause] += 1
            examples.setdefault(cause, example)
    return "; ".join(
        f"{n} of {DRAWS} draws: {c}{examples[c]}" for c, n in causes.most_common(SHOWN)
    )


def _source(function: Callable[..., Any]) -> str:
    """A function's source in one line (a lambda's own text), for naming a condition."""
    try:
        text = " ".join(inspect.getsource(function).split())
    except (OSError, TypeError):
        return getattr(function, "__name__", "?")
    if "lambda" in text:
        text = text[text.index("lambda") :].rstrip(",)")
    return text[:160]


def _shown(record: Record) -> str:
    return str({k: v for k, v in list(record.items())[:6]})[:200]


def _no_records(composer: Composer, goal: Goal, world: Record) -> str:
    """Why no records could be drawn: the first needed entity whose table is empty, or whose
    drawn owner owns none."""
    graph = composer.graph
    for need in goal.needed:
        entity = graph.entities[need]
        if not world.get(entity.table):
            return f"the world has no {need} records (world[{entity.table!r}] is empty or missing)"
    for need in goal.needed:
        entity = graph.entities[need]
        if entity.owner:
            owners = list(world[graph.entities[entity.owner].table].values())
            key = graph.entities[entity.owner].key
            owning = sum(bool(children(world, entity, o[key])) for o in owners)
            if owning < len(owners):
                return (
                    f"a drawn {entity.owner} owns no {need} (only {owning} of {len(owners)} "
                    f"{entity.owner} records own one through {need}.{entity.owner_key})"
                )
    return f"no records fit goal {goal.name}'s needs {goal.needed}"


def _unidentified(composer: Composer, world: Record, need: str, record: Record) -> str:
    """Why the caller cannot single `record` out (`toolscale.kit.identify`'s routes)."""
    graph, entity = composer.graph, composer.graph.entities[need]
    rid = record[entity.key]
    lister = graph.listers.get(need)
    finders = graph.finders.get(need, [])
    if not finders and lister is not None:
        if entity.alike is None:
            return (
                f"{need} has no finder, and its owner's lister {lister.tool} cannot single one "
                f"out: Entity {need!r} declares no `alike` (and `tell`), which picking a record "
                "from an owner's list needs; add a finder (e.g. by its id) or declare them"
            )
        return (
            f"{need} has no finder, and among its {entity.owner}'s records listed by "
            f"{lister.tool} another has the same `alike` and {entity.tell}: the caller cannot "
            f"say which{EXAMPLE} (e.g. {need} {rid})"
        )
    for finder in finders:
        table = world[entity.table].values()
        others = [r for r in table if r.get(finder.by) == record[finder.by]]
        if len(others) > 1:
            return (
                f"{finder.tool} finds {need} by {finder.by}, which some {need} records share: "
                f"it returns another one{EXAMPLE} (e.g. {len(others)} share "
                f"{finder.by}={record[finder.by]!r})"
            )
    if entity.owner:
        return f"a {need}'s {entity.owner} could not be identified{EXAMPLE} (e.g. {need} {rid})"
    tools = [f.tool for f in finders]
    return f"{need} could not be identified through {tools}{EXAMPLE} (e.g. {need} {rid})"


def _check(goal: Goal, draw: Draw, rule: type[PolicyError] | None) -> str:
    """Why the goal's policy check does not classify the draw as the template wants."""
    if goal.check is None:
        return ""
    check = goal.check
    try:
        check(draw.world, **draw.args)
    except PolicyError as exc:
        error: PolicyError | None = exc
    else:
        error = None
    if rule is None:
        if error is None:
            return ""
        return f"its check refuses the draws with {type(error).__name__}{EXAMPLE} (e.g. {error})"
    if error is None:
        return f"its check passes: the drawn records break no rule, not {rule.__name__}"
    if type(error) is not rule:
        return f"its check raises {type(error).__name__} before {rule.__name__}{EXAMPLE} ({error})"
    found = reasons(lambda: check(draw.world, **draw.args))
    if found.only() is None:
        return f"the drawn records break {rule.__name__} and also {found.described()}"
    return ""


def _walk(
    composer: Composer,
    goal: Goal,
    kind: str,
    rule: type[PolicyError] | None,
    world: Record,
    rng: random.Random,
) -> str:
    """Where one draw of the template stops ("" when it gets through)."""
    graph = composer.graph
    records = records_for(graph, goal, rng, world, {})
    if records is None:
        return _no_records(composer, goal, world)
    draw = Draw(rng, world, records)
    first = goal.needed[0] if goal.needed else ""
    if goal.when and not goal.when(draw):
        example = f" (one drawn {first}: {_shown(draw[first])})" if first else ""
        return f"no drawn record fits goal {goal.name}'s `when` {_source(goal.when)}" + (
            EXAMPLE + example
        )
    if kind == "which" and not twins(world, graph.entities[first], draw[first]):
        entity = graph.entities[first]
        return (
            f"no drawn {first} has a twin: another {first} of the same {entity.owner} with the "
            f"same `alike` and a different {entity.tell}"
        )
    draw.extra = goal.extra(draw) if goal.extra else {}
    draw.args = goal.args(draw) if goal.args else graph.arguments(goal, goal.tool, draw)
    refused = _check(goal, draw, rule)
    if refused:
        return refused
    plan = Plan.on(graph.toolkit, world)
    for need in goal.needed:
        if not identify(plan, graph, rng, need, draw[need]):
            return _unidentified(composer, world, need, draw[need])
    return _act(composer, goal, kind, rule, plan, draw)


def _act(
    composer: Composer,
    goal: Goal,
    kind: str,
    rule: type[PolicyError] | None,
    plan: Plan,
    draw: Draw,
) -> str:
    graph = composer.graph
    last = None
    for step in goal.before:
        tool, arguments = (step, None) if isinstance(step, str) else step
        values = arguments(draw) if arguments else graph.arguments(goal, tool, draw, True)
        try:
            last = plan.call(tool, **values)
        except ToolError as exc:
            if rule is None:
                return (
                    f"its before-call {tool} raises {type(exc).__name__}{EXAMPLE} (e.g. "
                    f"{tool}({values}): {exc})"
                )
    if kind == "conditional":
        price = output_fields(last).get(goal.price or "") if last is not None else None
        if not isinstance(price, int | float) or isinstance(price, bool) or price <= 0:
            return (
                f"its price field {goal.price!r} in the result of its last before-call is "
                f"{price!r}, not an amount above zero"
            )
    writes = graph.kind(goal.tool) is ToolKind.WRITE and rule is None
    call = f"{goal.tool}({draw.args})"
    try:
        output = composer._run(plan, goal, draw)
    except ToolError as exc:
        if rule is None or type(exc) is not rule:
            return f"{goal.tool} raises {type(exc).__name__}{EXAMPLE} (e.g. {call}: {exc})"
    else:
        if rule is not None and goal.check is None:
            return f"{goal.tool} accepts the request (no check: the tool decides){EXAMPLE} ({call})"
        if rule is not None:
            return f"{goal.tool} accepts the draws its check refuses{EXAMPLE} (e.g. {call})"
    if rule is not None:
        return _length(plan)
    if writes and plan.run.state == draw.world:
        return f"{goal.tool} changes nothing in the state (a write must){EXAMPLE} (e.g. {call})"
    if writes or not 1 <= plan.actions <= MAX_ACTIONS:
        return _length(plan)
    shot = shot_of(graph, goal, plan, draw, output, last)
    return _unevidenced(goal, plan, shot.words, shot.facts, composer.policy)


def _length(plan: Plan) -> str:
    if 1 <= plan.actions <= MAX_ACTIONS:
        return ""
    return f"its gold path is too long (1 to {MAX_ACTIONS} actions){EXAMPLE}: {plan.actions}"


def _unevidenced(
    goal: Goal, plan: Plan, words: tuple[str, ...], facts: list[str], policy: str
) -> str:
    """Why a read-only draft has no fact only a look-up shows ("" when it has one)."""
    said = " ".join([*words, *goal.motives, *plan.known.values(), *plan.stated.values()])
    outputs = [tool_text(o) for o in plan.outputs]
    scenario = UserScenario(reason_for_call=said, opening="", known={}, stated={})
    why = []
    for fact in facts:
        if fact_stated(fact, said) or not evidence_facts([fact], scenario):
            why.append(f"{fact!r} is said by the caller")
        elif fact_stated(fact, policy) and not _number(fact):
            why.append(f"{fact!r} is stated in the policy")
        elif not any(fact_stated(fact, out) for out in outputs):
            why.append(f"{fact!r} is in no result of its gold path")
        else:
            return ""
    if not facts:
        return (
            f"goal {goal.name} is read-only and reports no fact (its `done` names no field of "
            f"{goal.tool}'s result, nor does `report`): nothing only a look-up shows"
        )
    return (
        f"goal {goal.name} is read-only and every fact it reports is known without a look-up: "
        f"{'; '.join(why)} (a question the policy answers needs no tool; report a value only "
        "a look-up gives)"
    )


def _number(fact: str) -> bool:
    try:
        float(fact.replace(",", ""))
    except ValueError:
        return False
    return True
