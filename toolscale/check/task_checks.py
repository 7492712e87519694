"""The checks of one task of check-domain (`toolscale.check.check_domain` runs them).

`check_task` samples a task (by weight, or one draw of a named template) in a sandbox worker,
where gold actions that fail or a READ tool that writes are a GoldError, then checks its
determinism, that the reference teacher's gold attempt verifies and no attempt it plays crashes a
tool, the READ purity of its other routes, that doing nothing fails it, and (stateful domains)
that parroting the caller fails it, that a refusal task's refused call breaks one rule only
(`toolscale.check.one_reason`), and (stateful domains) that a careful reader finds it
consistent: its scenario and preference sentence, its world's invariants, its gold receipts,
and how its gold route identifies the caller (`toolscale.check.identification`).
A gold attempt that crashes or does not verify stops the
checks of that task there: what the later ones found would follow from it.
`schema_findings` checks a domain's tool schemas, before any task.
"""

from __future__ import annotations

import inspect
from dataclasses import replace

from toolscale.check.consistency import invariant_problems, motives_of, scenario_problems
from toolscale.check.findings import Finding
from toolscale.check.identification import identification_in
from toolscale.check.one_reason import one_reason
from toolscale.check.receipts import receipts_in
from toolscale.core.contract import Action, Domain, ToolKind, Toolkit, canonical_state, state_hash
from toolscale.core.schema import SchemaError, function_schema
from toolscale.economics.preferences import DEFAULT_SPREAD
from toolscale.economics.prices import Economics
from toolscale.judge.verify import verify
from toolscale.kit.evidence import parrot
from toolscale.play.reference import ReferenceTeacher
from toolscale.play.transcript import close_draft, open_draft
from toolscale.sample.in_worker import sample_in
from toolscale.sample.tasks import SampledTask, prepare, with_preference
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.stats.run_stats import sample_stage


def schema_findings(toolkit: type[Toolkit]) -> list[Finding]:
    """Each tool's schema derives, has a description, and documents only real parameters."""
    if getattr(toolkit, "tool_schemas", None):  # a tau2 domain: tau2 derived the schemas
        return [
            Finding("schemas", f"tool {s['function']['name']} has no description")
            for s in toolkit.schemas()
            if not s["function"].get("description", "").strip()
        ]
    from toolscale.core.schema import chat_template_utils

    parse_google_format_docstring = chat_template_utils().parse_google_format_docstring

    found = []
    for name in toolkit.specs():
        fn = getattr(toolkit, name)
        try:
            schema = function_schema(fn, name=name)
        except SchemaError as exc:
            found.append(Finding("schemas", f"{exc}; add a line for it under Args:"))
            continue
        if not schema["function"]["description"].strip():
            found.append(Finding("schemas", f"tool {name} has no description (docstring line 1)"))
        _, documented, _ = parse_google_format_docstring(inspect.getdoc(fn) or "")
        extra = sorted(set(documented or {}) - set(inspect.signature(fn).parameters))
        if extra:
            found.append(
                Finding(
                    "schemas", f"tool {name}: Args: documents {', '.join(extra)}, not a parameter"
                )
            )
    return found


def _reads(domain: Domain, route: list[Action]) -> list[int]:
    specs = domain.toolkit.specs()
    return [
        k for k, a in enumerate(route) if a.name in specs and specs[a.name].kind is ToolKind.READ
    ]


async def sample_one(
    pool: SandboxPool, domain: Domain, seed: int, index: int, template: str | None = None
) -> tuple[SampledTask | None, list[Finding]]:
    """Task `index` (with `template`: draw `index` of that template), or the finding saying why
    it did not sample."""
    try:
        return await sample_in(pool, domain.name, seed, index, template), []
    except SandboxError as exc:
        failure = exc.failure
        message = failure.message.removeprefix(f"{domain.name} task {index}: ")
        check = sample_stage(failure.error)
        finding = Finding(
            check,
            f"{failure.error}: {message}",
            index,
            traceback=failure.traceback,
            template=template or failure.template,
            named=template is not None,
        )
        return None, [finding]


async def _read_purity(
    pool: SandboxPool, domain: Domain, item: SampledTask, index: int
) -> list[Finding]:
    """Each READ call of each other route, replayed up to and including it, leaves the state hash
    of the route's prefix before it."""
    found = []
    state_json = canonical_state(item.task.initial_state)
    for name, route in item.other_routes():
        calls = [(a.name, a.arguments) for a in route]
        for k in _reads(domain, route):
            (_, before), (_, after) = [
                await pool.replay(domain.name, state_json, calls[:stop]) for stop in (k, k + 1)
            ]
            if before != after:
                message = f"READ tool {route[k].name} changed the state in route {name}"
                found.append(Finding("read_purity", message, index))
    return found


async def _do_nothing(
    pool: SandboxPool, domain: Domain, item: SampledTask, index: int
) -> list[Finding]:
    task, found = item.task, []
    unchanged = state_hash(task.initial_state)
    silent = close_draft(open_draft(task, "nothing", 0), "", unchanged)
    if (await verify(task, silent, pool)).verified:
        message = "an attempt with no call and no answer verifies; the task checks nothing"
        found.append(Finding("do_nothing", message, index))
    specs = domain.toolkit.specs()
    writes = any(specs[a["name"]].kind is ToolKind.WRITE for a in task.gold_actions)
    said = close_draft(open_draft(task, "nothing", 0), item.final_message, unchanged)
    if writes and (await verify(task, said, pool)).verified:
        message = (
            "its gold route writes, yet an attempt with no call that says the gold final message "
            "verifies: the gold writes leave the state as it was"
        )
        found.append(Finding("do_nothing", message, index))
    return found


async def parrot_checks(
    pool: SandboxPool, domain: Domain, item: SampledTask, index: int
) -> list[Finding]:
    """No call and no look-up: the user's words plus stock phrases, or (on a task whose gold
    route does not write; `do_nothing` checks the others) the gold final message said blind,
    must fail a stateful task."""
    task, found = item.task, []
    unchanged = state_hash(task.initial_state)
    attempts = [(parrot(task.user_scenario, task.instruction), "repeats the user")]
    specs = domain.toolkit.specs()
    if not any(specs[a["name"]].kind is ToolKind.WRITE for a in task.gold_actions):
        attempts.append((item.final_message, "says the gold final message without a look-up"))
    for text, why in attempts:
        blind = close_draft(open_draft(task, "parrot", 0), text, unchanged)
        if (await verify(task, blind, pool)).verified:
            message = (
                f"an attempt with no call that {why} verifies; state a fact only a look-up gives "
                "(toolscale.kit.evidence)"
            )
            found.append(Finding("parrot", message, index))
    return found


async def check_task(
    pool: SandboxPool, domain: Domain, seed: int, index: int, template: str | None = None
) -> tuple[list[Finding], set[str] | None]:
    """The findings on task `index` (with `template`: on draw `index` of that template), and the
    tools its routes use (None: it did not sample)."""
    built, found = await sample_one(pool, domain, seed, index, template)
    if built is None:
        return found, None
    again, _ = await sample_one(pool, domain, seed, index, template)
    if again is not None and again.task.id != built.task.id:
        message = (
            "sampling the same (seed, index) twice gives two different tasks; draw every choice "
            "from the rng argument"
        )
        found.append(Finding("determinism", message, index))
    used = {a["name"] for a in built.task.gold_actions}
    used |= {a.name for _, route in built.other_routes() for a in route}
    item = prepare(built, Economics(), {"none": 1.0})
    found += await _attempts(pool, domain, item, index)
    if domain.family == "stateful":
        found += await _consistency(pool, domain, built, index)
    task = built.task
    found += await one_reason(
        pool, domain.name, task.template, task.initial_state, built.refused, index
    )
    return [
        replace(f, template=built.task.template, named=template is not None) for f in found
    ], used


async def _consistency(
    pool: SandboxPool, domain: Domain, built: SampledTask, index: int
) -> list[Finding]:
    """A careful reader's checks (`toolscale.check.consistency`): the scenario and the preference
    sentence (a profile drawn as `generate` draws it), the world's invariants on the task's
    state, and the receipt rule on its gold writes (`toolscale.check.receipts`, in a worker)."""
    item = with_preference(built, DEFAULT_SPREAD)
    routes = [*item.alternatives, *(r.actions for r in item.routes if not r.detour)]
    found = [
        Finding("consistency", f"{kind}: {message}", index)
        for kind, message in scenario_problems(
            item.task, domain.toolkit, motives_of(domain), routes
        )
    ]
    found += [Finding("invariant", line, index) for line in invariant_problems(domain, item.task)]
    what = f"{domain.name} task {index}: the receipts of its gold writes"
    args = (domain.name, canonical_state(built.task.initial_state), built.task.gold_actions)
    found += [Finding("receipt", line, index) for line in await pool.call(receipts_in, args, what)]
    scenario = built.task.user_scenario
    if scenario is not None:
        held = [*scenario.known.values(), *scenario.stated.values(), built.task.instruction]
        what = f"{domain.name} task {index}: how its gold route identifies the caller"
        lines = await pool.call(identification_in, (*args, held), what)
        found += [Finding(line.split(": ")[0], line.split(": ", 1)[1], index) for line in lines]
    return found


async def _attempts(
    pool: SandboxPool, domain: Domain, item: SampledTask, index: int
) -> list[Finding]:
    """The checks that play attempts at a sampled task; after a gold attempt that crashes or
    does not verify, none (what they found would follow from it)."""
    found = []
    drafts = await ReferenceTeacher(detours=True).attempts(item, pool)
    for draft in drafts:
        for crash in draft.crashes:
            found.append(Finding("crash", crash.message, index, traceback=crash.traceback))
    if drafts[0].crashes:
        return found
    verdict = await verify(item.task, drafts[0], pool)
    if not verdict.verified:
        reasons = "; ".join(verdict.reasons)
        message = f"the gold route does not verify ({verdict.failure_stage}: {reasons})"
        return [*found, Finding("verify", message, index)]
    found += await _read_purity(pool, domain, item, index)
    found += await _do_nothing(pool, domain, item, index)
    if domain.family == "stateful":
        found += await parrot_checks(pool, domain, item, index)
    return found
