"""`toolscale export --format tau2` of every installed stateful domain, read by tau2-bench's own
`Task` model (not our restatement of it in tests/test_export.py). Skips without a checkout."""

from __future__ import annotations

import json

import pytest

from tests.tau2.conftest import needs_tau2
from toolscale.config.generate import GenerateConfig
from toolscale.core.registry import get_domain, names
from toolscale.pipeline.generate import generate
from toolscale.publish.export import export

pytestmark = [needs_tau2, pytest.mark.slow]


def stateful() -> list[str]:
    return [n for n in names() if get_domain(n).family == "stateful"]


def test_every_stateful_domain_s_tasks_are_tau2_tasks(tmp_path):
    from toolscale.tau2 import source

    source.ensure()
    from tau2.data_model.tasks import Task as Tau2Task

    domains = stateful()
    assert len(domains) >= 10
    out = tmp_path / "data"
    generate(GenerateConfig(domains=domains, num_tasks=4 * len(domains), out=out))
    export(out, tmp_path / "tau2", "tau2")
    for domain in domains:
        items = json.loads((tmp_path / "tau2" / domain / "tasks.json").read_text())
        assert items, f"{domain}: no task exported"
        for item in items:
            task = Tau2Task.model_validate(item)
            assert set(item) <= set(Tau2Task.model_fields)  # nothing tau2 would drop
            actions = [(a.name, a.arguments) for a in task.evaluation_criteria.actions]
            assert actions == [
                (a["name"], a["arguments"]) for a in item["evaluation_criteria"]["actions"]
            ]
            assert actions, f"{domain} {task.id}: no gold action"
            assert task.user_scenario.instructions.reason_for_call
