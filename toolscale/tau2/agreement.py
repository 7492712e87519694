"""Does toolscale's verdict equal tau2's reward? Gold and deliberately broken attempts at every
task of a tau2 domain, judged by both.

For each task: the gold attempt (the gold calls, then a final message stating every required
fact), and, where the task allows, the gold attempt without its last successful write
(`dropped_write`), with one argument of that write changed (`changed_argument`), with the first
successful write made twice (`repeated_write`), and with a final message that states nothing
(`missing_fact`, for tasks with facts to communicate). Every attempt's calls run in the sandbox;
toolscale's verdict comes from `toolscale.judge.verify.verify`, tau2's from its evaluators on the
same
conversation (`toolscale.tau2.evaluator`). Runs in the main process (it imports tau2's evaluator).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from toolscale.core.contract import Action, ToolKind, canonical_state
from toolscale.core.records import Task
from toolscale.judge.verify import verify
from toolscale.play.transcript import Transcript, close_draft, open_draft, record_call
from toolscale.sample.tasks import build_task
from toolscale.sandbox.pool import SandboxPool
from toolscale.tau2.domain import Tau2Domain
from toolscale.tau2.evaluator import tau2_reward


@dataclass(frozen=True)
class Comparison:
    task: str
    variant: str
    toolscale: bool
    tau2: float

    @property
    def agree(self) -> bool:
        return self.toolscale == (self.tau2 == 1.0)


def _changed(arguments: dict[str, Any]) -> dict[str, Any] | None:
    """The arguments with the first string (or the first item of a string list) altered."""
    for key, value in arguments.items():
        if isinstance(value, str):
            return {**arguments, key: value + "0"}
        if isinstance(value, list) and value and isinstance(value[0], str):
            return {**arguments, key: [value[0] + "0", *value[1:]]}
    return None


def variants(task: Task, domain: Tau2Domain, ok: list[bool]) -> dict[str, list[Action]]:
    """The call lists of each attempt at `task`; `ok[i]` says whether gold call i succeeded."""
    specs = domain.toolkit.specs()
    gold = [Action(a["name"], a["arguments"]) for a in task.gold_actions]
    writes = [i for i, a in enumerate(gold) if specs[a.name].kind is ToolKind.WRITE and ok[i]]
    routes = {"gold": gold}
    if writes:
        last, first = writes[-1], writes[0]
        routes["dropped_write"] = gold[:last] + gold[last + 1 :]
        changed = _changed(gold[last].arguments)
        if changed is not None:
            routes["changed_argument"] = [
                *gold[:last],
                Action(gold[last].name, changed),
                *gold[last + 1 :],
            ]
        routes["repeated_write"] = [*gold[: first + 1], gold[first], *gold[first + 1 :]]
    return routes


async def _attempt(
    pool: SandboxPool, task: Task, name: str, route: list[Action], final: str
) -> Transcript:
    calls = [(a.name, a.arguments) for a in route]
    state_json = canonical_state(task.initial_state)
    outcomes, final_hash = await pool.replay(task.domain, state_json, calls)
    draft = open_draft(task, name, 0)
    for action, outcome in zip(route, outcomes, strict=True):
        record_call(draft, task, action.name, action.arguments, outcome)
    return close_draft(draft, final, final_hash)


async def compare_task(pool: SandboxPool, domain: Tau2Domain, index: int) -> list[Comparison]:
    item = build_task(domain, 0, index, pool.call_timeout_s)
    task = item.task
    ok = [o.status == "ok" for o in item.gold_outcomes]
    attempts = [
        await _attempt(pool, task, name, route, item.final_message)
        for name, route in variants(task, domain, ok).items()
    ]
    if task.required_facts:
        silent = "I have taken care of your request."
        attempts.append(
            await _attempt(pool, task, "missing_fact", variants(task, domain, ok)["gold"], silent)
        )
    found = []
    for draft in attempts:
        verdict = await verify(task, draft, pool)
        reward = tau2_reward(domain, task.template, draft.messages)
        found.append(Comparison(task.template, draft.variant, verdict.verified, reward))
    return found


async def compare(
    domain: Tau2Domain, pool: SandboxPool, indexes: range | None = None
) -> list[Comparison]:
    """Comparisons for tasks `indexes` (all of the domain's by default)."""
    found = []
    for index in indexes if indexes is not None else range(len(domain.tasks)):
        found += await compare_task(pool, domain, index)
    return found


def summary(found: list[Comparison]) -> dict[str, Any]:
    """Counts per variant: comparisons, agreements, toolscale-verified, tau2 reward 1."""
    table: dict[str, Counter[str]] = {}
    for c in found:
        row = table.setdefault(c.variant, Counter())
        row["compared"] += 1
        row["agree"] += c.agree
        row["toolscale_verified"] += c.toolscale
        row["tau2_reward_1"] += c.tau2 == 1.0
    return {
        "compared": len(found),
        "agree": sum(c.agree for c in found),
        "by_variant": {k: dict(v) for k, v in table.items()},
        "disagreements": [f"{c.task}/{c.variant}" for c in found if not c.agree],
    }
