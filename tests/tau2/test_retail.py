"""tau2-bench's retail domain through toolscale: tau2's tools, schemas, errors and database."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

from tests.tau2.conftest import needs_tau2
from toolscale.core.contract import ToolKind, state_hash
from toolscale.sample.tasks import build_task
from toolscale.sandbox.execute import execute

pytestmark = needs_tau2


def retail():  # type: ignore[no-untyped-def]
    from toolscale.core.registry import get_domain

    return get_domain("tau2:retail")


def tau2_env():  # type: ignore[no-untyped-def]
    from toolscale.tau2 import source

    return source.import_module("domains.retail.environment").get_environment()


def test_tools_keep_tau2s_schemas_and_tags() -> None:
    domain = retail()
    ours = {s["function"]["name"]: s for s in domain.toolkit.schemas()}
    theirs = {t.name: t.openai_schema for t in tau2_env().get_tools()}
    assert ours == theirs
    kinds = {name: spec.kind for name, spec in domain.toolkit.specs().items()}
    assert kinds["cancel_pending_order"] is ToolKind.WRITE
    assert kinds["get_order_details"] is ToolKind.READ
    assert kinds["calculate"] is ToolKind.GENERIC
    assert kinds["transfer_to_human_agents"] is ToolKind.GENERIC  # tau2: mutates_state=False


def test_a_tool_exception_is_a_tool_error_with_tau2s_text() -> None:
    from toolscale.tau2 import source

    domain = retail()
    kit = domain.toolkit(domain.world(0))
    outcome = execute(kit, "get_order_details", {"order_id": "#W0000000"}, 15.0)
    message = source.import_module("data_model.message")
    call = message.ToolCall(id="1", name="get_order_details", arguments={"order_id": "#W0000000"})
    expected = tau2_env().get_response(call)
    assert expected.error and outcome.status == "error"
    assert outcome.output == expected.content == "Error: Order not found"


def test_the_state_is_tau2s_database_and_hashes_as_it_does() -> None:
    domain = retail()
    kit = domain.toolkit(domain.world(0))
    env = tau2_env()
    arguments = {"order_id": "#W8367380", "reason": "no longer needed"}
    assert execute(kit, "cancel_pending_order", arguments, 15.0).status == "ok"
    env.make_tool_call("cancel_pending_order", **arguments)
    assert kit.state == env.tools.db.model_dump()
    tau2_hash = hashlib.sha256(
        json.dumps(kit.state, sort_keys=True, default=str).encode()
    ).hexdigest()
    assert tau2_hash == env.get_db_hash()
    assert state_hash(kit.state) != state_hash(domain.world(0))


def test_gold_calls_tau2_answers_with_an_error_stay_in_the_route() -> None:
    domain = retail()
    item = build_task(domain, 0, 2, 15.0)  # task 2's gold asks for a product that does not exist
    statuses = [o.status for o in item.gold_outcomes]
    assert "error" in statuses and statuses.count("ok") == len(statuses) - 1
    assert len(item.task.gold_actions) == len(item.gold_outcomes)


def test_a_sandbox_worker_imports_neither_tau2s_runner_nor_litellm_nor_pandas() -> None:
    unwanted = ("litellm", "pandas", "tau2.runner", "tau2.agent")
    probe = (
        "import sys; from toolscale.sandbox.worker import Worker; "
        "from toolscale.sample.in_worker import build_named; "
        "Worker(15.0).call(build_named, ('tau2:retail', 0, 0, None, None)); "
        f"print(sorted(m for m in sys.modules if m in {unwanted!r}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True
    )
    assert result.stdout.strip() == "[]"


def test_the_trainer_offers_tau2s_parameters() -> None:
    from trainer.environment import split_key, tool_schemas

    assert split_key("tau2:retail") == ("tau2:retail", "")
    assert split_key("tau2:retail:calculate+get_user_details") == (
        "tau2:retail",
        "calculate+get_user_details",
    )
    theirs = {t.name: t.openai_schema for t in tau2_env().get_tools()}
    offered = {s["function"]["name"]: s for s in tool_schemas("tau2:retail")}
    for name, schema in theirs.items():
        parameters = schema["function"]["parameters"]
        mine = offered[name]["function"]["parameters"]
        assert set(mine.get("properties", {})) == set(parameters.get("properties", {})), name
        assert set(mine.get("required", [])) == set(parameters.get("required", [])), name
