"""`toolscale check-domain NAME`: run the domain contract's checks on one installed domain.

Any domain `toolscale domains` lists can be checked (an installed package, or one added through
TOOLSCALE_DOMAINS). Every problem is one `Finding`; identical ones on several tasks are one line.

- schemas: every tool's schema derives (an `Args:` entry for every parameter), it has a
  description, and its `Args:` names no parameter the tool lacks;
- sample / gold / schema: tasks 0..N-1 of the seed sample, and their gold actions execute in a
  sandbox worker, where a gold action that fails or a READ tool that changes the state is a
  GoldError (as in `generate`);
- determinism: sampling the same (seed, index) again gives the same task id;
- verify: the reference teacher's gold attempt verifies, and no attempt it plays (gold, detours,
  alternatives) crashes a tool (`crash`);
- read_purity: the READ calls of the other routes (alternatives and named routes) leave the state
  as it is (gold routes are checked while sampling);
- do_nothing: an attempt with no call and no answer fails every task, and one with no call that
  says the gold final message fails every task whose gold route writes;
- parrot (stateful domains): an attempt with no call that repeats everything the user said or
  can say plus stock policy phrases fails every task, and so does one with no call that says the
  gold final message (a refusal without the look-up that justifies it); checked on tasks 0..N-1
  and then on further indexes until every template has been drawn (`PARROT_DRAWS` per
  template at most; a template never drawn is a warning);
- reachable: every tool appears in some gold or alternative route (named routes included) of
  the N tasks;
- fuzz: hostile arguments (`toolscale.publish.fuzz`, `fuzz` calls per tool, each on a fresh state)
  crash no tool, take no tool past its time bound, change no state through a READ tool, and get
  short error texts; one line per tool and kind of failure.

An unreachable tool is a warning, not a problem, unless `strict`: a rare template may simply not
be drawn among N tasks (every tool of bank and railway is in some gold route; `--strict` passes
for both at N = 50), and an unexercised tool is not a broken one.
This module calls no LLM; every tool runs in the sandbox pool.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterable
from dataclasses import dataclass, replace

from toolscale.core.contract import Action, Domain, ToolKind, Toolkit, canonical_state, state_hash
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain
from toolscale.core.schema import SchemaError, function_schema
from toolscale.judge.verify import verify
from toolscale.kit.evidence import parrot
from toolscale.play.reference import ReferenceTeacher
from toolscale.play.transcript import close_draft, open_draft
from toolscale.publish.fuzz import PER_TOOL, fuzz
from toolscale.sample.tasks import Economics, SampledTask, prepare
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.stats.run import sample_stage

LISTED_TASKS = 3  # task indexes named in one line before "and N more"
PARROT_DRAWS = 40  # further samples per template, to reach every template with the parrot


@dataclass(frozen=True)
class Finding:
    """One problem (or, with `warning`, a weakness) found by check `check`, on task `task` or on
    the domain as a whole; `traceback` is the worker's, when an exception caused it."""

    check: str
    message: str
    task: int | None = None
    warning: bool = False
    traceback: str = ""


@dataclass(frozen=True)
class DomainReport:
    domain: str
    tasks: int
    findings: tuple[Finding, ...]

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if not f.warning]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.warning]

    def lines(self) -> list[str]:
        """One line per distinct problem or warning, naming the tasks it was found on."""
        grouped: dict[tuple[bool, str, str], list[int]] = {}
        for f in self.findings:
            tasks = grouped.setdefault((f.warning, f.check, f.message), [])
            if f.task is not None:
                tasks.append(f.task)
        lines = []
        for (warning, check, message), tasks in grouped.items():
            where = ""
            if tasks:
                named = ", ".join(map(str, tasks[:LISTED_TASKS]))
                more = f" and {len(tasks) - LISTED_TASKS} more" if len(tasks) > LISTED_TASKS else ""
                where = f"task{'s' if len(tasks) > 1 else ''} {named}{more}: "
            lines.append(f"{'warning' if warning else 'problem'} [{check}] {where}{message}")
        return lines


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


async def _sample(
    pool: SandboxPool, domain: Domain, seed: int, index: int
) -> tuple[SampledTask | None, list[Finding]]:
    try:
        return await pool.sample(domain.name, seed, index), []
    except SandboxError as exc:
        failure = exc.failure
        message = failure.message.removeprefix(f"{domain.name} task {index}: ")
        check = sample_stage(failure.error)
        finding = Finding(check, f"{failure.error}: {message}", index, traceback=failure.traceback)
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


async def _parrot(
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
                f"template {task.template}: an attempt with no call that {why} verifies; state a "
                "fact only a look-up gives (toolscale.kit.evidence)"
            )
            found.append(Finding("parrot", message, index))
    return found


async def parrot_templates(
    pool: SandboxPool, domain: Domain, seed: int, start: int, seen: set[str]
) -> list[Finding]:
    """The parrot checks on further tasks from index `start` until every template of the domain
    has been drawn (at most PARROT_DRAWS samples per template)."""
    found: list[Finding] = []
    index, stop = start, start + PARROT_DRAWS * len(domain.templates)
    while index < stop and not set(domain.templates) <= seen:
        batch = range(index, min(index + 16, stop))
        samples = await asyncio.gather(*(_sample(pool, domain, seed, i) for i in batch))
        for i, (built, _) in zip(batch, samples, strict=True):
            if built is not None and built.task.template not in seen:
                seen.add(built.task.template)
                found += await _parrot(pool, domain, prepare(built, Economics(), {"none": 1.0}), i)
        index = batch.stop
    found += [
        Finding(
            "parrot",
            f"template {name} was not drawn in {index} tasks (seed {seed}); the parrot check "
            "did not reach it",
            warning=True,
        )
        for name in domain.templates
        if name not in seen
    ]
    return found


async def check_task(
    pool: SandboxPool, domain: Domain, seed: int, index: int
) -> tuple[list[Finding], set[str] | None]:
    """The findings on task `index`, and the tools its routes use (None: it did not sample)."""
    built, found = await _sample(pool, domain, seed, index)
    if built is None:
        return found, None
    again, _ = await _sample(pool, domain, seed, index)
    if again is not None and again.task.id != built.task.id:
        message = (
            "sampling the same (seed, index) twice gives two different tasks; draw every choice "
            "from the rng argument"
        )
        found.append(Finding("determinism", message, index))
    used = {a["name"] for a in built.task.gold_actions}
    used |= {a.name for _, route in built.other_routes() for a in route}
    item = prepare(built, Economics(), {"none": 1.0})
    drafts = await ReferenceTeacher(detours=True).attempts(item, pool)
    for draft in drafts:
        for crash in draft.crashes:
            found.append(Finding("crash", crash.message, index, traceback=crash.traceback))
    if not drafts[0].crashes:
        verdict = await verify(item.task, drafts[0], pool)
        if not verdict.verified:
            reasons = "; ".join(verdict.reasons)
            message = f"the gold route does not verify ({verdict.failure_stage}: {reasons})"
            found.append(Finding("verify", message, index))
    found += await _read_purity(pool, domain, item, index)
    found += await _do_nothing(pool, domain, item, index)
    if domain.family == "stateful":
        found += await _parrot(pool, domain, item, index)
    return found, used


def reachability(domain: Domain, used: set[str], tasks: int, seed: int) -> list[Finding]:
    return [
        Finding(
            "reachable",
            f"tool {name} is in no gold or alternative route of {tasks} tasks (seed {seed}); "
            "add tasks that need it",
            warning=True,
        )
        for name in domain.toolkit.specs()
        if name not in used
    ]


async def _check_tasks(
    domain: Domain, tasks: int, seed: int, workers: int, call_timeout_s: float, per_tool: int
) -> tuple[list[Finding], set[str], int]:
    async with SandboxPool(workers, call_timeout_s) as pool:
        results = await asyncio.gather(*(check_task(pool, domain, seed, i) for i in range(tasks)))
        found = [f for found, _ in results for f in found]
        if domain.family == "stateful" and not domain.name.startswith("tau2:"):
            seen = await _templates(pool, domain, seed, tasks)
            found += await parrot_templates(pool, domain, seed, tasks, seen)
        # After the tasks, alone on the pool: the fuzzer times its calls.
        hostile = await fuzz(pool, domain, seed, per_tool) if per_tool else []
    routes = [used for _, used in results if used is not None]
    found += [Finding("fuzz", p.message, traceback=p.traceback) for p in hostile]
    return found, set().union(*routes), len(routes)


async def _templates(pool: SandboxPool, domain: Domain, seed: int, tasks: int) -> set[str]:
    """The templates of tasks 0..`tasks`-1 (sampled again: a worker's sample is cheap)."""
    built = await asyncio.gather(*(_sample(pool, domain, seed, i) for i in range(tasks)))
    return {item.task.template for item, _ in built if item is not None}


def check_domain(
    name: str,
    tasks: int = 50,
    seed: int = 0,
    workers: int = 2,
    strict: bool = False,
    call_timeout_s: float = 15.0,
    fuzz: int = PER_TOOL,
) -> DomainReport:
    """Run every check on domain `name` over tasks 0..`tasks`-1 of `seed`, with `fuzz` hostile
    calls per tool (0: none); `strict` counts warnings as problems. Raises ConfigError for an
    unknown domain or bad settings."""
    if tasks < 1:
        raise ConfigError(f"--tasks must be at least 1 (got {tasks})")
    if fuzz < 0:
        raise ConfigError(f"--fuzz must be 0 (no fuzzing) or more (got {fuzz})")
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1 (got {workers})")
    domain = get_domain(name)
    if name.startswith("tau2:"):  # a task file's tasks, no more (toolscale.tau2)
        tasks = min(tasks, len(domain.templates))
    found = schema_findings(domain.toolkit)
    if found:  # every task needs the schemas: nothing more can be checked
        return DomainReport(name, 0, tuple(found))
    task_found, used, sampled = asyncio.run(
        _check_tasks(domain, tasks, seed, workers, call_timeout_s, fuzz)
    )
    found += task_found
    if sampled:
        found += reachability(domain, used, tasks, seed)
    if strict:
        found = [replace(f, warning=False) for f in found]
    return DomainReport(name, tasks, tuple(found))


def first_traceback(findings: Iterable[Finding]) -> str:
    return next((f.traceback for f in findings if f.traceback), "")
