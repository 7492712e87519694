"""A synthesized task as a Task row, and a stored synthesized Task back as a playable task.

No sampler can rebuild a synthesized task, so its row is its own source of truth: the state
(the run's world plus the task's changes), the gold actions, the user scenario, the facts to
communicate and its provenance. What derives from them is derived again wherever the task is
used (`generate --tasks-from`, `validate`): the gold actions are re-executed on the stored
state and must reach the stored `expected_state_hash` (so tampered gold actions or state are
caught), and the price table, system prompt, reference cost, preference and id are recomputed
with `toolscale.sample.tasks.prepare` and must equal the row.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscale.core.contract import canonical_state
from toolscale.core.records import Task
from toolscale.core.registry import get_domain
from toolscale.economics.preferences import NO_PREFERENCE
from toolscale.economics.prices import Economics
from toolscale.sample.tasks import SampledTask, identified, prepare, with_economics
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool

SOURCE = "synthesize"
TEMPLATE = "synthesized"


class StoredTaskError(Exception):
    """A stored synthesized task whose gold actions no longer execute or reach its hash."""


def final_message(facts: list[str]) -> str:
    """The gold route's final message: it states every fact to communicate."""
    if not facts:
        return "It is done. Is there anything else I can help you with?"
    return f"It is done. For your information: {'; '.join(facts)}."


def template(provenance: Mapping[str, Any]) -> str:
    """A synthesized task's template: "synthesized", or for a refusal the rule its refused call
    breaks, named as the kit names its refusal templates ("synthesized.no.already_paid",
    "synthesized.handoff.large_party"), so that the judge knows the refusal's own reason from
    the other rules of the policy (`toolscale.kit.cited`)."""
    rule = str(provenance.get("rule", ""))
    if not rule:
        return TEMPLATE
    handoff, _, name = rule.rpartition(":")
    return f"{TEMPLATE}.{'handoff' if handoff else 'no'}.{name}"


def is_synthesized(task: Task) -> bool:
    return task.provenance.get("source") == SOURCE


def base_body(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The content of a synthesized task before pricing and preference (what build_task gives
    a sampled task): `fields` holds the task's own content, the rest is the domain's."""
    domain = get_domain(fields["domain"])
    scenario = fields["user_scenario"]
    opening = scenario["opening"] if isinstance(scenario, dict) else scenario.opening
    return {
        **fields,
        "domain_version": domain.version,
        "family": domain.family,
        "template": template(fields["provenance"]),
        "system_prompt": domain.policy,
        "instruction": opening,
        "tools": domain.toolkit.schemas(),
        "prices": {},
        "price_schedule": "",
        "reference_cost": 0.0,
        "reference_latency_ms": 0.0,
        "expected_answer": None,
        "preference": NO_PREFERENCE.model_dump(),
    }


def own_fields(task: Task) -> dict[str, Any]:
    """The stored task's own content (what base_body completes)."""
    keep = (
        "domain",
        "seed",
        "index",
        "difficulty",
        "gold_actions",
        "initial_state",
        "expected_state_hash",
        "required_facts",
        "user_scenario",
        "world",
        "provenance",
    )
    data = task.model_dump()
    return {k: data[k] for k in keep}


def playable(body: dict[str, Any], outcomes: list[CallOutcome]) -> SampledTask:
    """The base task of `body` with its gold outcomes, priced under the standard schedule.
    Raises GoldError when the gold conversation cannot be played (the scripted user cannot
    answer a question the gold route asks)."""
    task = identified(body)
    item = SampledTask(task, final_message(list(task.required_facts)), [], outcomes, {})
    return with_economics(item, Economics())


async def replay_gold(task: Task, pool: SandboxPool) -> tuple[list[CallOutcome], str]:
    calls = [(a["name"], a["arguments"]) for a in task.gold_actions]
    return await pool.replay(task.domain, canonical_state(task.initial_state), calls)


async def stored_item(task: Task, pool: SandboxPool) -> SampledTask:
    """The playable base task of a stored synthesized task, its gold actions re-executed on its
    stored state. Raises StoredTaskError when a gold call fails or the final state is not the
    stored expected one."""
    outcomes, final_hash = await replay_gold(task, pool)
    failed = [f"{n} {o.status}" for n, o in enumerate(outcomes) if o.status != "ok"]
    if failed:
        raise StoredTaskError(f"stored gold actions fail when re-executed (action {failed[0]})")
    if final_hash != task.expected_state_hash:
        raise StoredTaskError(
            "re-executing the stored gold actions on the stored initial state does not give the "
            "stored expected_state_hash (gold actions, state or hash were altered)"
        )
    return playable(base_body(own_fields(task)), outcomes)


async def check_stored(
    task: Task, pool: SandboxPool, economics: Economics, profiles: Mapping[str, float]
) -> list[str]:
    """What is wrong with a stored synthesized task (validate): its gold actions re-executed,
    and the row equal to its content priced and given its preference again."""
    from toolscale.sample.tasks import GoldError

    try:
        item = await stored_item(task, pool)
        rebuilt = prepare(item, economics, profiles).task
    except (StoredTaskError, GoldError) as exc:
        return [str(exc)]
    if rebuilt != task:
        fields = [k for k in Task.model_fields if getattr(rebuilt, k) != getattr(task, k)]
        return [f"synthesized task differs from its re-derivation in {', '.join(fields)}"]
    return []
