"""The composer: intent kinds built from a domain's goals and tool graph, each a kit `Template`.

For every `Goal` (toolscale.kit.declare) it makes, by name:

- `NAME`: identify the records from what the caller knows (`toolscale.kit.identify`), make the
  goal's READ calls, then its tool; the agent reports the goal's facts;
- `NAME.if` (a goal with a `price`): "only if the fee is under $X": the quote decides whether
  the write is made; a refused limit leaves the state as it is and states the quoted amount;
- `NAME.which` (its first record has an owner, a `tell` field and an `alike` key): the caller
  has two records a description fits and says which only when asked;
- `NAME.no.RULE` / `NAME.handoff.RULE`, one per `PolicyError` its tool raises: records the
  policy check refuses; the agent looks them up, makes no write and explains (or transfers the
  caller to a human agent), stating the values that prove the rule applies;
- `multi`: two goals of one caller (sharing the owner at the top of their records) in one call,
  the second on another record than the one the first acts on (the last of its `needs`); it
  requires the first goal's facts only where the second left them true (`toolscale.kit.stale`).

Every draft states its reason for the call and its task instructions from its own records and
wording; a draw that does not fit (no such record, a gold path over `MAX_ACTIONS`, no fact only a
look-up gives) is drawn again, `TRIES` times, before the intent returns None; a refusal's records
are drawn `REFUSAL_DRAWS` times a try, since it must break its rule and no other
(`toolscale.kit.draws`).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from toolscale.core.contract import Action, ToolError, ToolKind
from toolscale.kit.broken_rules import tool_reasons
from toolscale.kit.declare import Draw, Goal, PolicyError, Record
from toolscale.kit.draft import Draft
from toolscale.kit.draws import draw_for
from toolscale.kit.graph import HANDOFF, ToolGraph
from toolscale.kit.identify import Identification, Plan, identify, twins, unique
from toolscale.kit.reasons import reason_facts
from toolscale.kit.sampling import KitError, Template
from toolscale.kit.shots import (
    Shot,
    assemble,
    fitting,
    output_fields,
    placeholders,
    shot_of,
    with_facts,
    wordings,
    you,
)
from toolscale.kit.stale import fresh_facts
from toolscale.kit.words import as_written

TRIES = 60
# Records a refusal draws per try: a draw is cheap, and one that breaks its rule alone is rare
# where rules go together (a used ticket is mostly for a game that is over).
REFUSAL_DRAWS = 10
# The person a draft is drawn for: (entity, id), or None for anyone (`Draft.caller`).
Caller = tuple[str, str] | None
ACCEPT = "If the agent explains that the policy does not allow it, accept that and end the call."


class Composer:
    """The intent kinds of one domain (see the module docstring)."""

    def __init__(
        self,
        graph: ToolGraph,
        goals: tuple[Goal, ...],
        policy: str = "",
        rule: Identification | None = None,
    ) -> None:
        goals = tuple(graph.filled(goal) for goal in goals)
        self.graph, self.goals, self.policy, self.rule = graph, goals, policy, rule
        if rule is not None:
            rule.check(graph)
        for goal in goals:
            graph.check_goal(goal)
            marks = {frozenset(placeholders(w)) for w in goal.words}
            if len(marks) != 1:
                raise KitError(f"goal {goal.name}: its wordings use different placeholders")

    # -- the intents ------------------------------------------------------------------------
    def templates(self) -> dict[str, tuple[Template, int]]:
        found: dict[str, tuple[Template, int]] = {}
        for goal in self.goals:
            found[goal.name] = (partial(self.plain, goal), goal.weight)
            if goal.price:
                found[f"{goal.name}.if"] = (partial(self.conditional, goal), 2)
            first = self.graph.entities[goal.needs[0]] if goal.needs else None
            if first and first.tell and first.alike and first.name in self.graph.listers:
                found[f"{goal.name}.which"] = (partial(self.which, goal), 2)
            rules = self.graph.raises.get(goal.tool, ()) if goal.refuses is None else goal.refuses
            for error in rules:
                kind = "handoff" if error.handoff else "no"
                found[f"{goal.name}.{kind}.{error.rule}"] = (partial(self.refusal, goal, error), 2)
        if self._pairs():
            found["multi"] = (self.multi, 4)
        return found

    def plain(
        self, goal: Goal, rng: random.Random, world: Record, caller: Caller = None
    ) -> Draft | None:
        if self._base(goal, world, caller) is None:
            return None
        return self._attempt(lambda: self._plain(goal, rng, world, caller=caller))

    def conditional(
        self, goal: Goal, rng: random.Random, world: Record, caller: Caller = None
    ) -> Draft | None:
        if self._base(goal, world, caller) is None:
            return None
        return self._attempt(lambda: self._conditional(goal, rng, world, caller=caller))

    def which(
        self, goal: Goal, rng: random.Random, world: Record, caller: Caller = None
    ) -> Draft | None:
        def fits(draw: Draw) -> bool:
            """Records alike that the caller's detail tells apart: twins exist, and no other
            record alike has the same detail (two upper-section orders for one game: no)."""
            entity, record = self.graph.entities[goal.needed[0]], draw[goal.needed[0]]
            return bool(twins(world, entity, record)) and unique(world, entity, record)

        if self._base(goal, world, caller) is None:
            return None
        return self._attempt(
            lambda: self._plain(goal, rng, world, clarify=True, test=fits, caller=caller)
        )

    def refusal(
        self, goal: Goal, error: type[PolicyError], rng: random.Random, world: Record
    ) -> Draft | None:
        return self._attempt(lambda: self._refusal(goal, error, rng, world))

    def multi(self, rng: random.Random, world: Record, caller: Caller = None) -> Draft | None:
        return self._attempt(lambda: self._multi(rng, world, caller))

    # -- drawing records ----------------------------------------------------------------------
    def _base(self, goal: Goal, world: Record, caller: Caller) -> dict[str, Record] | None:
        """The records a draw for `caller` starts from: {} for anyone; None when the goal's
        records are not a person's of `caller`'s kind."""
        if caller is None:
            return {}
        if not goal.needed or self.graph.root(goal.needed[0]) != caller[0]:
            return None
        entity = self.graph.entities[caller[0]]
        return {caller[0]: world[entity.table][caller[1]]}

    def _attempt(self, make: Callable[[], Draft | None]) -> Draft | None:
        for _ in range(TRIES):
            draft = make()
            if draft is not None:
                return draft
        return None

    # -- one goal ---------------------------------------------------------------------------
    def _asks(self, goal: Goal) -> bool:
        kind = self.graph.kind(goal.tool)
        return kind is ToolKind.READ or (kind is ToolKind.GENERIC and goal.tool != HANDOFF)

    def _run(self, plan: Plan, goal: Goal, draw: Draw) -> Any:
        """The goal's own call; a READ one reuses the same call identification made (a question
        answered by the record's finder is not asked twice)."""
        run = plan.call if self.graph.kind(goal.tool) is ToolKind.READ else plan.do
        return run(goal.tool, **draw.args)

    def _identify(self, plan: Plan, goal: Goal, draw: Draw, clarify: bool = False) -> bool:
        return all(
            identify(plan, self.graph, draw.rng, need, draw[need], clarify and i == 0, self.rule)
            for i, need in enumerate(goal.needed)
        )

    def _before(self, plan: Plan, goal: Goal, draw: Draw, lenient: bool = False) -> Any:
        last = None
        for step in goal.before:
            tool, arguments = (step, None) if isinstance(step, str) else step
            values = arguments(draw) if arguments else self.graph.arguments(goal, tool, draw, True)
            try:
                last = plan.call(tool, **values)
            except ToolError:
                if not lenient:
                    return None
                break
        return last

    def _acted(self, plan: Plan, goal: Goal, draw: Draw, vague: str = "") -> Shot | None:
        """The goal's `before` reads and its own call on `plan`, as its shot; None when a read it
        needs finds nothing or the call fails."""
        last = self._before(plan, goal, draw)
        if len(goal.before) and last is None:
            return None
        try:
            output = self._run(plan, goal, draw)
        except ToolError:
            return None
        return shot_of(self.graph, goal, plan, draw, output, last, vague)

    def _plain(
        self,
        goal: Goal,
        rng: random.Random,
        world: Record,
        clarify: bool = False,
        test: Callable[[Draw], bool] | None = None,
        caller: Caller = None,
    ) -> Draft | None:
        base = self._base(goal, world, caller)
        if base is None:
            return None
        drawn = draw_for(self.graph, goal, rng, world, base=base, test=test)
        if drawn is None:
            return None
        draw = drawn[0]
        plan = Plan.on(self.graph.toolkit, world)
        if not self._identify(plan, goal, draw, clarify):
            return None
        shot = self._acted(plan, goal, draw, goal.needed[0] if clarify else "")
        if shot is None:
            return None
        if clarify:
            entity = self.graph.entities[goal.needed[0]]
            record = draw[goal.needed[0]]
            label = entity.label(entity.tell)
            plan.known[label] = str(record[entity.tell])
            shot.notes.append(
                f"You have more than one {entity.words} like this one; if the agent asks which, "
                f"you mean the one whose {label} is {record[entity.tell]}."
            )
        return self._draft(goal, plan, draw, shot)

    def _conditional(
        self, goal: Goal, rng: random.Random, world: Record, caller: Caller = None
    ) -> Draft | None:
        base = self._base(goal, world, caller)
        drawn = None if base is None else draw_for(self.graph, goal, rng, world, base=base)
        if drawn is None:
            return None
        draw = drawn[0]
        plan = Plan.on(self.graph.toolkit, world)
        if not self._identify(plan, goal, draw):
            return None
        last = self._before(plan, goal, draw)
        price = output_fields(last).get(goal.price) if last is not None else None
        if not isinstance(price, int | float) or isinstance(price, bool) or price <= 0:
            return None
        accept = price < 2 or rng.random() < 0.5
        top = math.ceil(price) - 1
        limit = math.floor(price) + rng.randint(1, 12) if accept else rng.randint(1, top)
        noun = goal.price_noun or goal.price.replace("_", " ")
        conditions = (
            f"Only if the {noun} is under ${limit}.",
            f"But only if the {noun} comes to less than ${limit}.",
            f"If the {noun} is ${limit} or more, leave it as it is.",
        )
        if accept:
            try:
                output = self._run(plan, goal, draw)
            except ToolError:
                return None
            shot = shot_of(self.graph, goal, plan, draw, output, last)
        else:
            words, _ = wordings(self.graph, goal, plan, draw)
            final = (
                f"The {noun} would be ${as_written(price)}, not under your limit of ${limit}, so I "
                "have left everything as it is."
            )
            shot = Shot(words, final, [str(price)], [])
        shot.notes.append(
            f"You accept only if the {noun} is under ${limit}; otherwise nothing should change."
        )
        return self._draft(goal, plan, draw, shot, conditions=(conditions,), writes=accept)

    def _refusal(
        self, goal: Goal, rule: type[PolicyError], rng: random.Random, world: Record
    ) -> Draft | None:
        for _ in range(REFUSAL_DRAWS):
            drawn = draw_for(self.graph, goal, rng, world, want=rule)
            if drawn is not None:
                break
        else:
            return None
        draw, error = drawn
        plan = Plan.on(self.graph.toolkit, world)
        if not self._identify(plan, goal, draw):
            return None
        self._before(plan, goal, draw, lenient=True)
        try:
            getattr(plan.run.kit, goal.tool)(**draw.args)
        except PolicyError as exc:
            error = exc
        except ToolError:
            if goal.check is None:
                return None  # the tool decides: this draw is not a case of the rule
            raise
        else:
            if goal.check is None:
                return None  # the tool decides: it accepts this draw
            raise KitError(
                f"goal {goal.name}: its check raises {rule.__name__} but {goal.tool} accepts "
                f"{draw.args}: make the tool call the same check"
            )
        if type(error) is not rule:
            return None
        refused = Action(goal.tool, dict(draw.args))
        kit = self.graph.toolkit
        if goal.check is None and not tool_reasons(kit, world, goal.tool, draw.args).only():
            return None  # a second reason to refuse (the check already ruled those out)
        words, _ = wordings(self.graph, goal, plan, draw)
        said = " ".join([*words, *goal.motives, *plan.known.values(), *plan.stated.values()])
        # a hand-off requires no facts, as a hand-off goal reports none (`shots.reported`):
        # transferring the caller is the task; its reason goes in the summary
        facts = [] if rule.handoff else reason_facts(error, plan.outputs, world, said)
        if rule.handoff:
            plan.do(HANDOFF, summary=f"Caller's request: {words[0]}. Policy: {error}.")
            final = (
                f"{error}. This has to be handled by our human agents, so I have transferred "
                "you to one with a summary of your request."
            )
            assertion = f"The agent transfers the caller to a human agent ({rule.rule})."
        else:
            final = f"I'm sorry, I can't {you(words[0])}: {error}."
            assertion = f"The agent makes no change and explains the policy ({rule.rule})."
        shot = Shot(words, with_facts(final, facts), facts, [ACCEPT])
        made = self._draft(goal, plan, draw, shot, writes=False, assertions=[assertion])
        return None if made is None else replace(made, refused=refused)

    # -- two goals --------------------------------------------------------------------------
    def _pairs(self) -> list[tuple[Goal, Goal]]:
        writes = [g for g in self.goals if g.needs and self.graph.kind(g.tool) is ToolKind.WRITE]
        return [
            (a, b)
            for a in writes
            for b in writes
            if a is not b and self.graph.root(a.needed[0]) == self.graph.root(b.needed[0])
        ]

    def _multi(self, rng: random.Random, world: Record, caller: Caller = None) -> Draft | None:
        first, second = rng.choice(self._pairs())
        base = self._base(first, world, caller)
        one = None if base is None else draw_for(self.graph, first, rng, world, base=base)
        if one is None:
            return None
        root = self.graph.root(first.needed[0])
        target = first.needed[-1], one[0][first.needed[-1]]  # the record the first goal acts on

        def apart(draw: Draw) -> bool:
            return draw.records.get(target[0]) is not target[1]

        two = draw_for(self.graph, second, rng, world, base={root: one[0][root]}, test=apart)
        if two is None:
            return None
        plan = Plan.on(self.graph.toolkit, world)
        shots = []
        for goal, (draw, _) in ((first, one), (second, two)):
            if not self._identify(plan, goal, draw):
                return None
        states = []
        for goal, (draw, _) in ((first, one), (second, two)):
            shot = self._acted(plan, goal, draw)
            if shot is None:
                return None
            shots.append(shot)
            states.append(json.loads(json.dumps(plan.run.state)))  # as this goal left it
        a, b = shots
        pairs = zip(a.words, b.words[1:] + b.words[:1], strict=False)
        words = tuple(f"{x} and {y}" for x, y in pairs)
        facts = fresh_facts(a.facts, *states) + b.facts  # none the second goal made stale
        shot = Shot(words, f"{a.final} {b.final}", facts, [])
        motives = fitting(first, one[0]) + fitting(second, two[0])
        goal = replace(first, motives=motives, motives_for=None)
        return self._draft(goal, plan, one[0], shot)

    def _draft(self, goal: Goal, plan: Plan, draw: Draw, shot: Shot, **options: Any) -> Any:
        writes = options.get("writes", self.graph.kind(goal.tool) is ToolKind.WRITE)
        if writes and plan.run.state == draw.world:
            return None  # a write that changes nothing (a party already that size): drawn again
        asks = self._asks(goal)
        made = assemble(self.graph, self.policy, asks, goal, plan, draw, shot, **options)
        if made is None or not goal.needed:
            return made
        root = self.graph.root(goal.needed[0])
        return replace(made, caller=(root, draw[root][self.graph.entities[root].key]))
