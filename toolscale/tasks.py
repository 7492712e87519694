"""Build a full Task from a domain's sampler: ids, schemas, prices, and the gold outcome.

The gold actions are executed here (inside a sandbox worker) on a fresh copy of the initial
state to obtain the expected final state hash; a gold action that fails is a domain bug, raised
as GoldError so the run records it and goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolscale.contract import Action, Domain, canonical_json, content_id, item_rng, state_hash
from toolscale.records import Task
from toolscale.sandbox.execute import execute, fresh_toolkit


class GoldError(Exception):
    """The domain's gold actions do not execute: a bug in the domain, not in a trace."""


@dataclass(frozen=True)
class SampledTask:
    """A task and what the reference teacher needs beyond the row: the gold final message and
    the domain's alternative correct routes."""

    task: Task
    final_message: str
    alternatives: list[list[Action]]


def build_task(domain: Domain, seed: int, index: int, call_timeout_s: float) -> SampledTask:
    spec = domain.sample(item_rng(domain.name, seed, index), seed, index)
    state_json = canonical_json(spec.initial_state)
    kit = fresh_toolkit(domain, state_json)
    for action in spec.gold_actions:
        outcome = execute(kit, action.name, action.arguments, call_timeout_s)
        if outcome.status != "ok":
            raise GoldError(
                f"{domain.name} task {index}: gold action {action.name} failed: {outcome.output}"
            )
    body = {
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
        "prices": {k: v.as_dict() for k, v in domain.price_table(spec.prices).items()},
        "gold_actions": [a.as_dict() for a in spec.gold_actions],
        "initial_state": spec.initial_state,
        "expected_answer": spec.answer,
        "expected_state_hash": state_hash(kit.state),
        "required_facts": list(spec.required_facts),
    }
    task = Task(id=content_id(body), **body)
    return SampledTask(task, spec.final_message, [list(a) for a in spec.alternatives])
