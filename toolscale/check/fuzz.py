"""check-domain's fuzzer: call every tool of a domain with hostile arguments, each call on a fresh
state in the sandbox pool, and report each tool that crashes, runs too long, or changes the state
of a READ tool.

A tool error is the right answer to a hostile value (the model is told what is allowed and the
episode goes on); any other exception is a crashed call, which `generate` treats as a tool bug and
fails the run on, so a tool that crashes here would crash a run as soon as a model sends that value.
The arguments come from `toolscale.check.hostile`, one parameter at a time, the others taken from
a call
the domain's own routes make (so ids are real and the hostile value reaches deep into the tool), on
the state of the task that route belongs to. Which calls are made is a function of (domain, seed,
tool) alone. A call over the time bound is tried once more before it counts: the first call of a
worker may pay for building a cache (a search index), which is not the tool's fault. A tool that
runs long by design (code_executor runs a program up to its own limit) names its bound in its
toolkit's `time_bounds` ({tool: seconds}). An error text over MAX_ERROR_CHARS is a problem too:
it echoes the hostile value into the model's context.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from typing import Any

from toolscale.check.hostile import HostileCall, calls, schema_base
from toolscale.core.contract import Domain, ToolKind, canonical_state, state_hash
from toolscale.core.registry import get_domain
from toolscale.sample.in_worker import sample_in
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxError, SandboxPool, WorkerLost
from toolscale.tools.bounds import quoted

PER_TOOL = 48  # hostile calls per tool by default (`check-domain --fuzz N`)
BOUND_S = 1.0  # a call that takes longer is a problem
BASE_TASKS = 8  # tasks whose routes give the plain arguments and states of the calls
MAX_ERROR_CHARS = 1_000  # a tool error longer than this echoes a hostile value back


@dataclass(frozen=True)
class FuzzProblem:
    """One tool's failure under hostile arguments: what happened on the first call that showed
    it, how many calls did, and the worker's traceback of a crash."""

    message: str
    traceback: str = ""


@dataclass(frozen=True)
class _Base:
    state_json: str
    digest: str
    arguments: dict[str, Any]


async def _bases(pool: SandboxPool, domain: Domain, seed: int, tasks: int) -> dict[str, _Base]:
    """For each tool some route of tasks 0..`tasks`-1 calls: that call's arguments and task state;
    for every other tool plain arguments on the first task's state."""
    found: dict[str, _Base] = {}
    first: tuple[str, str] | None = None
    for index in range(tasks):
        try:
            item = await sample_in(pool, domain.name, seed, index)
        except SandboxError:
            continue  # check-domain reports a sampler that fails; the fuzzer needs no task
        text = canonical_state(item.task.initial_state)
        digest = item.state_digest or state_hash(item.task.initial_state)
        first = first or (text, digest)
        routes = [[(a["name"], a["arguments"]) for a in item.task.gold_actions]]
        routes += [[(a.name, a.arguments) for a in route] for _, route in item.other_routes()]
        for name, arguments in (call for route in routes for call in route):
            if name not in found and isinstance(arguments, dict):
                found[name] = _Base(text, digest, dict(arguments))
    if first is None:
        return {}
    for name in domain.toolkit.specs():
        if name not in found:
            found[name] = _Base(*first, schema_base(domain.toolkit, name))
    return found


def _where(call: HostileCall) -> str:
    if not call.parameter:
        return "with no arguments"
    return f"on {call.parameter}={quoted(call.arguments[call.parameter])} ({call.label})"


class _Tally:
    """The failures of one tool by kind: the first call of each kind in catalogue order (not in
    the order calls finish, so the lines are the same every run), and how many."""

    def __init__(self) -> None:
        self.first: dict[str, tuple[int, FuzzProblem]] = {}
        self.count: dict[str, int] = {}

    def add(self, kind: str, position: int, message: str, traceback: str = "") -> None:
        if kind not in self.first or position < self.first[kind][0]:
            self.first[kind] = (position, FuzzProblem(message, traceback))
        self.count[kind] = self.count.get(kind, 0) + 1

    def problems(self, total: int) -> list[FuzzProblem]:
        return [
            FuzzProblem(f"{p.message} ({self.count[kind]} of {total} hostile calls)", p.traceback)
            for kind, (_, p) in sorted(self.first.items())
        ]


async def _timed(
    pool: SandboxPool, slots: asyncio.Semaphore, domain: str, base: _Base, call: HostileCall
) -> tuple[CallOutcome, str, float]:
    async with slots:  # one call per worker at a time, so the time measured is the call's own
        started = time.perf_counter()
        try:
            (outcome,), digest = await pool.replay(
                domain, base.state_json, [(call.tool, call.arguments)]
            )
        except SandboxError as exc:  # e.g. the call left a state that cannot be hashed
            failure = exc.failure
            outcome = CallOutcome(f"Error: {failure}", "crash", traceback=failure.traceback)
            digest = base.digest  # no state to compare: the crash is the finding
        except WorkerLost as lost:
            status = "timeout" if lost.reason == "timed out" else "crash"
            outcome, digest = CallOutcome(f"Error: {lost.reason}", status), base.digest
        return outcome, digest, time.perf_counter() - started


async def _fuzz_tool(
    pool: SandboxPool,
    slots: asyncio.Semaphore,
    domain: Domain,
    name: str,
    base: _Base,
    hostile: list[HostileCall],
    bound_s: float,
) -> list[FuzzProblem]:
    tally = _Tally()
    read = domain.toolkit.specs()[name].kind is ToolKind.READ
    bound_s = max(bound_s, getattr(domain.toolkit, "time_bounds", {}).get(name, 0.0))

    async def one(position: int, call: HostileCall) -> None:
        outcome, digest, took = await _timed(pool, slots, domain.name, base, call)
        if took > bound_s or outcome.status == "timeout":
            outcome, digest, took = await _timed(pool, slots, domain.name, base, call)
        where = _where(call)
        if outcome.status == "crash":
            message = f"tool {name} crashed {where}: {outcome.output}"
            tally.add("crash", position, message, outcome.traceback)
        elif took > bound_s or outcome.status == "timeout":
            message = f"tool {name} took {took:.1f} s (bound {bound_s:g} s) {where}"
            tally.add("slow", position, message)
        elif outcome.status == "error" and len(outcome.output) > MAX_ERROR_CHARS:
            message = (
                f"tool {name}'s error text is {len(outcome.output)} characters {where}; quote "
                "values with toolscale.tools.bounds.quoted"
            )
            tally.add("long_error", position, message)
        if read and digest != base.digest:
            tally.add("read", position, f"READ tool {name} changed the state {where}")

    await asyncio.gather(*(one(i, call) for i, call in enumerate(hostile)))
    return tally.problems(len(hostile))


async def fuzz(
    pool: SandboxPool,
    domain: Domain,
    seed: int = 0,
    per_tool: int = PER_TOOL,
    bound_s: float = BOUND_S,
    base_tasks: int = BASE_TASKS,
) -> list[FuzzProblem]:
    """The problems hostile arguments show in `domain`'s tools: at most `per_tool` calls each,
    chosen by (domain, seed, tool), on tasks 0..`base_tasks`-1 of `seed`; nothing when no task
    samples (check-domain reports that)."""
    bases = await _bases(pool, domain, seed, base_tasks)
    slots = asyncio.Semaphore(pool.size)
    jobs = []
    for name in domain.toolkit.specs():
        if name not in bases:
            continue
        rng = random.Random(f"fuzz:{domain.name}:{seed}:{name}")
        hostile = calls(domain.toolkit, name, bases[name].arguments, per_tool, rng)
        jobs.append(_fuzz_tool(pool, slots, domain, name, bases[name], hostile, bound_s))
    return [problem for found in await asyncio.gather(*jobs) for problem in found]


def fuzz_domain(
    name: str, seed: int = 0, per_tool: int = PER_TOOL, workers: int = 2, bound_s: float = BOUND_S
) -> list[FuzzProblem]:
    """`fuzz` on installed domain `name` with its own sandbox pool: for a domain's tests."""

    async def run() -> list[FuzzProblem]:
        async with SandboxPool(workers, call_timeout_s=15.0) as pool:
            return await fuzz(pool, get_domain(name), seed, per_tool, bound_s)

    return asyncio.run(run())
