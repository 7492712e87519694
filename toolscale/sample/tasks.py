"""Build a full Task from a domain's sampler: ids, schemas, prices, the gold outcome, and the
user's preference profile.

The gold actions are executed here (inside a sandbox worker) on a fresh copy of the initial
state to obtain the expected final state hash; a gold action that fails, or a READ tool that
changes the state, is a domain bug, raised as GoldError so the run records it (with the failing
tool's traceback) and goes on. `build_task` gives the task priced with the `standard` schedule
(or, asked, unpriced) and no preference; the pipeline, which knows the run's settings, calls
`with_economics` (the task's price schedule and tool subset, drawn from its own price RNG, and
the gold route's cost and latency under them) and `with_preference` (the profile, from its own
preference RNG), so the domain's tasks never change with either setting.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolscale.core import patch
from toolscale.core.contract import (
    Action,
    Domain,
    Route,
    ToolKind,
    Toolkit,
    ToolPrice,
    ToolSpec,
    canonical_json,
    canonical_state,
    content_id,
    item_rng,
    state_hash,
    template_rng,
)
from toolscale.core.records import FunctionCall, Message, Task
from toolscale.core.registry import get_domain
from toolscale.dialogue.conversation import Stuck, Turn, converse
from toolscale.economics.preferences import NO_PREFERENCE, as_json_answer, sample_preference
from toolscale.economics.prices import Economics, describe, draw, price_table, prices_rng
from toolscale.judge.metrics import route_totals
from toolscale.sample import worlds
from toolscale.sample.odds import route_odds
from toolscale.sandbox.execute import CallOutcome, execute, fresh_toolkit
from toolscale.tools.capabilities import capability_text


class GoldError(Exception):
    """The domain's gold actions do not execute, or a READ tool among them changes the state: a
    bug in the domain, not in a trace. `traceback` is the crashed tool's, when one crashed."""

    def __init__(self, message: str, traceback: str = "", template: str = "") -> None:
        super().__init__(message)
        self.traceback = traceback
        self.template = template  # the task's template, when the sampler got that far


@dataclass(frozen=True)
class SampledTask:
    """A task and what the reference teacher needs beyond the row: the gold final message and
    the domain's alternative correct routes."""

    task: Task
    final_message: str
    alternatives: list[list[Action]]
    # What the gold actions returned when the task was built, and the task's own price overrides:
    # with them the pipeline prices the gold route under any schedule without running it again.
    gold_outcomes: list[CallOutcome] = field(default_factory=list)
    price_overrides: dict[str, ToolPrice] = field(default_factory=dict)
    # state_hash(task.initial_state), computed once per task ("" when not known).
    state_digest: str = ""
    # Every other route the task admits (an orchestration domain's), the gold route's name, and
    # what each route's calls returned once the oracle played them (toolscale.oracle.played).
    routes: list[Route] = field(default_factory=list)
    gold_route: str = "gold"
    route_outcomes: dict[str, tuple[list[CallOutcome], str]] = field(default_factory=dict)
    # The call a refusal task's caller asked for (TaskSpec.refused): check-domain's one-reason
    # check replays it.
    refused: Action | None = None
    # The chance that each route resting on an expert's answer is right, by its skill profile
    # (`toolscale.sample.odds`); a route not named here is right or wrong as played.
    route_odds: dict[str, float] = field(default_factory=dict)
    # The task's own changes to its world, as the row stores them (`Task.to_row`), known where
    # the state was made: [] when the state is the world itself; None when not known.
    state_patch: list[dict[str, Any]] | None = None
    # Whether the routes are the domain's own, its sampler's (`Toolkit.own_programs`): True for
    # a task built here; False for a stored one (an LLM may have written its gold code).
    own_routes: bool = False

    def other_routes(self) -> list[tuple[str, list[Action]]]:
        """Every route besides the gold one, named as the reference teacher names its attempt:
        the alternatives ("alternative_1", ...) and the named routes, detours included."""
        numbered = [(f"alternative_{n}", r) for n, r in enumerate(self.alternatives, 1)]
        return [*numbered, *((r.name, r.actions) for r in self.routes)]


def gold_messages(task: Task, outcomes: list[CallOutcome], final_message: str) -> list[Message]:
    """The conversation of the gold route as the reference teacher records it: one assistant
    turn per call and its result, the agent's questions and confirmations of a conversational
    task with the scripted user's answers (toolscale.dialogue.conversation), then the final
    message."""
    messages = [
        Message(role="system", content=task.system_prompt),
        Message(role="user", content=task.instruction),
    ]
    specs = get_domain(task.domain).toolkit.specs()
    actions = [Action(a["name"], a["arguments"]) for a in task.gold_actions]
    done = iter(zip(actions, outcomes, strict=True))
    for n, turn in enumerate(gold_turns(task, actions, specs)):
        if turn.call is None:
            messages += said(turn)
            continue
        action, outcome = next(done)
        call = FunctionCall(
            id=f"call_{n}", name=action.name, arguments=canonical_json(action.arguments)
        )
        messages.append(Message(role="assistant", content="", tool_calls=[call]))
        messages.append(
            Message(role="tool", content=outcome.output, tool_call_id=call.id, name=call.name)
        )
    messages.append(Message(role="assistant", content=final_message))
    return messages


def gold_turns(task: Task, actions: list[Action], specs: dict[str, ToolSpec]) -> list[Turn]:
    """The conversation of a route the domain says is correct (toolscale.dialogue.conversation); a
    step the scripted user cannot take on is a domain bug (GoldError)."""
    try:
        return converse(task.user_scenario, actions, specs)
    except Stuck as exc:
        raise GoldError(f"{task.domain} task {task.index}: {exc}") from None


def said(turn: Turn) -> list[Message]:
    """The agent saying a turn's text to the scripted user, and the user's answer."""
    return [
        Message(role="assistant", content=turn.say),
        Message(role="user", content=turn.reply or "", name="scripted_user"),
    ]


def run_route(
    kit: Toolkit,
    actions: list[Action],
    call_timeout_s: float,
    allow_errors: bool = False,
    state_digest: str = "",
) -> list[CallOutcome]:
    """Execute a route the domain says is correct (gold actions, an alternative) on `kit`; raise
    GoldError when a call does not succeed (with `allow_errors`, when one crashes or times out:
    a tool error is then kept as the call's outcome) or a READ tool changes the state.
    `state_digest` is the hash of `kit.state` when the caller has it."""
    specs = type(kit).specs()
    outcomes = []
    # The state's fingerprint, while no call since it was taken can have changed the state; the
    # caller's hash is one when the toolkit's fingerprint is the state hash.
    exact = type(kit).fingerprint is Toolkit.fingerprint
    known = state_digest if exact else ""
    for action in actions:
        read = action.name in specs and specs[action.name].kind is ToolKind.READ
        before = (known or kit.fingerprint()) if read else ""
        outcome = execute(kit, action.name, action.arguments, call_timeout_s)
        if outcome.status != "ok" and not (allow_errors and outcome.status == "error"):
            verb = "crashed" if outcome.status == "crash" else "failed"
            raise GoldError(
                f"gold action {action.name} {verb}: {outcome.output}", outcome.traceback
            )
        known = kit.fingerprint() if read else ""
        if read and known != before and (exact or _changed(before, kit)):
            raise GoldError(
                f"READ tool {action.name} changed the state; a READ tool must leave it as it is "
                "(declare the tool WRITE, or stop it writing)"
            )
        outcomes.append(outcome)
    return outcomes


def _changed(before: str, kit: Toolkit) -> bool:
    """Whether the state differs from the one whose JSON fingerprint was `before`, by the state
    hash (two texts of one state may differ in key order only)."""
    return state_hash(json.loads(before)) != state_hash(kit.state)


def build_task(
    domain: Domain,
    seed: int,
    index: int,
    call_timeout_s: float,
    template: str | None = None,
    priced: bool = True,
) -> SampledTask:
    """Task `index` of run seed `seed` with its gold route run; with `template`, draw `index` of
    that template (`Domain.sample_named`, what check-domain checks every template with).
    `priced=False` leaves it unpriced and without an id, for a caller that prices it under its
    run's settings next (`prepare`), so that a task is priced once."""
    if template is None:
        spec = domain.sample(item_rng(domain.name, seed, index), seed, index)
    else:
        rng = template_rng(domain.name, seed, template, index)
        spec = domain.sample_named(rng, seed, index, template)
    state_json = canonical_state(spec.initial_state)
    digest = hashlib.sha256(state_json.encode()).hexdigest()  # = state_hash(initial_state)
    kit = fresh_toolkit(domain, state_json, own=True)  # the sampler's own gold route
    try:
        outcomes = run_route(
            kit, spec.gold_actions, call_timeout_s, domain.gold_errors_allowed, digest
        )
    except GoldError as exc:
        raise GoldError(
            f"{domain.name} task {index}: {exc}", exc.traceback, spec.template
        ) from None
    body: dict[str, Any] = {  # validated into the Task model
        "domain": domain.name,
        "domain_version": domain.version,
        "family": domain.family,
        "seed": seed,
        "index": index,
        "template": spec.template,
        "difficulty": spec.difficulty,
        "system_prompt": domain.policy,
        "instruction": spec.instruction,
        "tools": domain.toolkit.schemas(),
        "prices": {},  # set by with_economics
        "price_schedule": "",
        "reference_cost": 0.0,
        "reference_latency_ms": 0.0,
        "gold_actions": [a.as_dict() for a in spec.gold_actions],
        "initial_state": spec.initial_state,
        "expected_answer": spec.answer,
        "expected_state_hash": state_hash(kit.state),
        "required_facts": list(spec.required_facts),
        "preference": NO_PREFERENCE.model_dump(),
        "user_scenario": spec.scenario.model_dump() if spec.scenario else None,
        "world": world_key(domain, seed),
    }
    item = SampledTask(
        Task(id="", **body),  # identified once priced, below
        spec.final_message,
        [list(a) for a in spec.alternatives],
        outcomes,
        dict(spec.prices),
        digest,
        list(spec.routes),
        spec.gold_route,
        refused=spec.refused,
        route_odds=route_odds(kit, [Route(spec.gold_route, spec.gold_actions), *spec.routes]),
        state_patch=own_patch(domain, seed, spec.initial_state),
        own_routes=True,
    )
    return with_economics(item, Economics()) if priced else item


def world_key(domain: Domain, seed: int) -> str:
    """The id of the domain's world for run seed `seed` (registered), or "" when it has none."""
    world = domain.world(seed)
    return "" if world is None else worlds.MEMO.remember(world)


def own_patch(domain: Domain, seed: int, state: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A task's changes to the world of run seed `seed`: none for a state that is that world
    (the same object, as a kit template that changes nothing gives it), else their JSON Patch;
    None for a domain without a world."""
    world = domain.world(seed)
    if world is None:
        return None
    return [] if state is world else patch.diff(world, state)


def with_economics(
    item: SampledTask, economics: Economics, *, identify: bool = True
) -> SampledTask:
    """The task priced under a schedule drawn from its price RNG, offering a random subset of its
    tools (never one the gold route needs), with the gold route's modelled cost and latency
    under that table as `reference_cost` / `reference_latency_ms` (what the reward and the
    preference budgets measure routes against). `identify=False` leaves the id empty for a
    caller that changes the task again and identifies the result."""
    task = item.task
    domain = get_domain(task.domain)
    names = list(domain.toolkit.specs())
    needed = {a["name"] for a in task.gold_actions}
    rng = prices_rng(task.domain, task.seed, task.index)
    schedule, kept = draw(rng, economics.schedules, economics.tool_dropout, names, needed)
    table = price_table(domain, schedule, item.price_overrides, economics.models)
    dropped = set(names) - set(kept)
    if not any(domain.toolkit.specs()[n].kind is ToolKind.MODEL for n in kept):
        dropped |= set(domain.toolkit.models())  # no tool left that reaches a model
    body = task_fields(task)
    body["tools"] = [t for t in domain.toolkit.schemas() if t["function"]["name"] in kept]
    body["prices"] = {k: v.as_dict() for k, v in table.items() if k not in dropped}
    calls_model = [n for n in kept if domain.toolkit.specs()[n].kind is ToolKind.MODEL]
    experts = expert_section(domain, kept, economics)
    table_text = describe(body["prices"], kept, calls_model)
    body["system_prompt"] = f"{domain.policy.rstrip()}\n\n{experts}{table_text}\n"
    body["price_schedule"] = schedule.name
    body["reference_cost"] = body["reference_latency_ms"] = 0.0
    priced = Task(id="", **body)
    messages = gold_messages(priced, item.gold_outcomes, item.final_message)
    cost, latency = route_totals(priced, messages, item.gold_outcomes)
    body["reference_cost"], body["reference_latency_ms"] = cost, latency
    return SampledTask(
        identified(body, item.state_digest) if identify else Task(id="", **body),
        item.final_message,
        [r for r in item.alternatives if all(a.name in kept for a in r)],
        item.gold_outcomes,
        item.price_overrides,
        item.state_digest,
        [r for r in item.routes if all(a.name in kept for a in r.actions)],
        item.gold_route,
        refused=item.refused,
        route_odds=item.route_odds,
        state_patch=item.state_patch,
        own_routes=item.own_routes,
    )


def expert_section(domain: Domain, kept: list[str], economics: Economics) -> str:
    """The measured capability sentences of the experts the task's MODEL tools reach
    (`toolscale.tools.skills`), as a section before the price table; "" when none is offered."""
    specs = domain.toolkit.specs()
    if not domain.toolkit.models() or not any(specs[n].kind is ToolKind.MODEL for n in kept):
        return ""
    return f"{capability_text(type(domain), frozenset(economics.models))}\n\n"


def identified(fields: dict[str, Any], state_digest: str = "") -> Task:
    """The Task with its content id, hashed over the validated values (so that an int price and
    the float it becomes hash alike, whichever way the task was built). The initial state enters
    the id through its hash (`state_digest` when the caller has it: a world-sized state is then
    serialised once per task, not once per step)."""
    task = Task(id="", **fields)
    content = task.model_dump(exclude={"id", "initial_state"})
    content["initial_state"] = state_digest or state_hash(task.initial_state)
    return task.model_copy(update={"id": content_id(content)})


def task_fields(task: Task) -> dict[str, Any]:
    """A task's fields to build a changed task from, sharing its (large) initial state."""
    body = task.model_dump(exclude={"id", "initial_state"})
    body["initial_state"] = task.initial_state
    return body


def preference_rng(domain: str, seed: int, index: int) -> random.Random:
    """The task's preference RNG, apart from its item RNG so that domain tasks never change."""
    return random.Random(f"{domain}:{seed}:{index}:preference")


def with_preference(item: SampledTask, spread: Mapping[str, float]) -> SampledTask:
    """The task of `build_task` with a profile drawn from `spread`: its instruction appended to the
    task's, its id recomputed over the new content. Under `json_confidence` the reference is
    repriced with the gold route's JSON answer, as the reference teacher gives it."""
    task = item.task
    allowed = get_domain(task.domain).profiles
    if allowed is not None and any(spread.get(n, 0.0) > 0 for n in allowed):
        spread = {n: w for n, w in spread.items() if n in allowed}
    preference = sample_preference(
        spread,
        preference_rng(task.domain, task.seed, task.index),
        task.domain,
        task.tool_names(),
        task.gold_actions,
        [*item.alternatives, *(r.actions for r in item.routes if not r.detour)],
        (task.reference_latency_ms, task.reference_cost),
        task.user_scenario.manner if task.user_scenario is not None else "",
        routed=bool(item.routes),
    )
    body = task_fields(task)
    body["preference"] = preference.model_dump()
    if preference.instruction:
        body["instruction"] = f"{task.instruction} {preference.instruction}"
    if preference.answer_format == "json_confidence":
        # The reference teacher answers the gold route in JSON here (a longer final message):
        # the reference is that route, so the gold trace is the reference under every profile.
        priced = Task(id="", **body)
        final = as_json_answer(item.final_message, 1.0)
        messages = gold_messages(priced, item.gold_outcomes, final)
        cost, latency = route_totals(priced, messages, item.gold_outcomes)
        body["reference_cost"], body["reference_latency_ms"] = cost, latency
    return SampledTask(
        identified(body, item.state_digest),
        item.final_message,
        item.alternatives,
        item.gold_outcomes,
        item.price_overrides,
        item.state_digest,
        item.routes,
        item.gold_route,
        refused=item.refused,
        route_odds=item.route_odds,
        state_patch=item.state_patch,
        own_routes=item.own_routes,
    )


def prepare(item: SampledTask, economics: Economics, spread: Mapping[str, float]) -> SampledTask:
    """A built task as the run writes it: priced, then given its preference profile."""
    return with_preference(with_economics(item, economics, identify=False), spread)
