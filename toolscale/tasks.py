"""Build a full Task from a domain's sampler: ids, schemas, prices, the gold outcome, and the
user's preference profile.

The gold actions are executed here (inside a sandbox worker) on a fresh copy of the initial
state to obtain the expected final state hash; a gold action that fails is a domain bug, raised
as GoldError so the run records it and goes on. `build_task` gives the task with no preference;
`with_preference` (run in the pipeline, which knows the configured spread) draws the profile from
the task's own preference RNG, so the domain's tasks never change with the spread.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolscale.contract import Action, Domain, canonical_json, content_id, item_rng, state_hash
from toolscale.preferences import NO_PREFERENCE, sample_preference
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
        "preference": NO_PREFERENCE.model_dump(),
    }
    return SampledTask(identified(body), spec.final_message, [list(a) for a in spec.alternatives])


def identified(fields: dict[str, Any]) -> Task:
    """The Task with its content id, hashed over the validated values (so that an int price and
    the float it becomes hash alike, whichever way the task was built)."""
    task = Task(id="", **fields)
    return task.model_copy(update={"id": content_id(task.model_dump(exclude={"id"}))})


def preference_rng(domain: str, seed: int, index: int) -> random.Random:
    """The task's preference RNG, apart from its item RNG so that domain tasks never change."""
    return random.Random(f"{domain}:{seed}:{index}:preference")


def with_preference(item: SampledTask, spread: Mapping[str, float]) -> SampledTask:
    """The task of `build_task` with a profile drawn from `spread`: its instruction appended to the
    task's, its id recomputed over the new content."""
    task = item.task
    preference = sample_preference(
        spread,
        preference_rng(task.domain, task.seed, task.index),
        task.domain,
        task.prices,
        task.gold_actions,
        item.alternatives,
    )
    body = task.model_dump(exclude={"id"})
    body["preference"] = preference.model_dump()
    if preference.instruction:
        body["instruction"] = f"{task.instruction} {preference.instruction}"
    return SampledTask(identified(body), item.final_message, item.alternatives)
