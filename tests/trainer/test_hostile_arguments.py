"""The GRPO environment answers hostile tool arguments with the tool's own ToolError text, as
generation records it: the policy learns from "what is allowed", never meets an internal error."""

from __future__ import annotations

import json

import pytest

from toolscale.core.contract import ToolError
from toolscale.core.registry import get_domain
from toolscale.sample.tasks import build_task, with_preference
from toolscale.sandbox.bridge import SandboxThread
from trainer.environment import environment_class

HOSTILE = [
    ("calculator", {"expression": "(((9**64)**64)**64)**64"}),
    ("calculator", {"expression": "1e308*1e308"}),
    ("ask_expert", {"expert": "expert-1", "question": "x" * 100_000}),
    ("ask_expert", {"expert": "expert-2", "question": "\ud800"}),
    ("code_executor", {"code": "print(1)\n" * 10_000}),
]


@pytest.fixture(scope="module")
def sandbox():
    thread = SandboxThread(workers=1)
    yield thread
    thread.close()


def test_hostile_arguments_get_the_tools_own_error_text(sandbox):
    domain = get_domain("math")
    task = with_preference(build_task(domain, 0, 0, 15.0), {"none": 1.0}).task
    environment = environment_class("math", sandbox)()
    environment.reset(**task.to_row())
    for name, arguments in HOSTILE:
        kit = domain.toolkit(json.loads(json.dumps(task.initial_state)))
        with pytest.raises(ToolError) as raised:  # what the tool itself says, in this process
            getattr(kit, name)(**arguments)
        assert getattr(environment, name)(**arguments) == f"Error: {raised.value}"
    executed = [e.outcome for e in environment.executed]
    assert [o.status for o in executed] == ["error"] * len(HOSTILE)
    assert environment.excluded == ""  # no crash
    assert "too long (100000 characters; at most 2000)" in executed[2].output
