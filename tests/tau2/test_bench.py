"""Exported tasks run in tau2-bench: `toolscale.tau2.bench` makes each exported folder a tau2
domain whose tools are the toolscale domain's, and docs/tau2.md's command runs them with tau2's own
CLI, agents, user simulator and evaluator (both sides played by a loopback scripted model).
Skips without a tau2-bench checkout."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tau2.conftest import needs_tau2
from tests.tau2.scripted_llm import scripted_llm
from toolscale.config.generate import GenerateConfig
from toolscale.core.contract import state_hash
from toolscale.core.errors import ConfigError
from toolscale.pipeline.generate import generate
from toolscale.publish.export import export
from toolscale.tau2 import bench, source

pytestmark = [needs_tau2, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bench")
    generate(GenerateConfig(domains=["bank", "railway"], num_tasks=8, out=root / "out"))
    export(root / "out", root / "tau2", "tau2")
    return root / "tau2"


@pytest.fixture(scope="module")
def registry(exported: Path):
    """tau2's registry with the exported folders in it (registered once per process)."""
    assert bench.register(exported) == ["bank", "railway"]
    return source.import_module("registry").registry


def gold_hash(item: dict) -> str:
    return item["description"]["notes"].rsplit("gold state hash ", 1)[1]


def test_gold_calls_in_the_tau2_environment_leave_the_gold_state(exported, registry):
    message = source.import_module("data_model.message")
    for name in ("bank", "railway"):
        items = {i["id"]: i for i in json.loads((exported / name / "tasks.json").read_text())}
        world = json.loads((exported / name / "db.json").read_text())
        tasks = registry.get_tasks_loader(name)()
        assert [t.id for t in tasks] == list(items)
        for task in tasks:
            env = registry.get_env_constructor(name)()
            assert state_hash(env.tools.db.model_dump()) == state_hash(world)
            env.set_state(task.initial_state.initialization_data, None, [])
            for n, action in enumerate(task.evaluation_criteria.actions):
                call = message.ToolCall(id=str(n), name=action.name, arguments=action.arguments)
                assert not env.get_response(call).error
            assert state_hash(env.tools.db.model_dump()) == gold_hash(items[task.id])


def test_tools_show_toolscale_s_schemas_and_errors_are_tau2_s_messages(exported, registry):
    message = source.import_module("data_model.message")
    env = registry.get_env_constructor("bank")()
    schemas = json.loads((exported / "bank" / "tools.json").read_text())
    assert [t.openai_schema for t in env.get_tools()] == sorted(
        schemas, key=lambda s: list(env.tools.tools).index(s["function"]["name"])
    )
    tool = schemas[0]["function"]["name"]
    answer = env.get_response(message.ToolCall(id="1", name=tool, arguments={"nope": 1}))
    assert answer.error and answer.content.startswith(f"Error: invalid arguments for {tool}")


def test_a_folder_that_is_not_an_export_is_one_error(tmp_path):
    with pytest.raises(ConfigError, match="holds no exported domain"):
        bench.folders(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "toolscale.tau2.bench", str(tmp_path), "run", "--domain", "x"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1].startswith("error: ")


def documented() -> list[str]:
    """docs/tau2.md's command, after `python -m toolscale.tau2.bench`."""
    doc = (ROOT / "docs" / "tau2.md").read_text()
    (line,) = [s for s in doc.splitlines() if "python -m toolscale.tau2.bench out/" in s]
    return shlex.split(line.split("python -m toolscale.tau2.bench", 1)[1])


def run_documented(exported: Path, data: Path, model: str, ids: list[str]) -> list[dict]:
    """docs/tau2.md's command on `exported`, both models on the scripted server, the tasks
    `ids`; tau2's results."""
    argv = documented()
    assert argv[:4] == ["out/tau2", "run", "--domain", "bank"]
    argv[0] = str(exported)
    guidelines = Path("tau2", "user_simulator")  # what tau2's user simulator reads from its data
    if not (data / guidelines).is_dir():
        shutil.copytree(source.data_dir() / guidelines, data / guidelines)
    items = json.loads((exported / "bank" / "tasks.json").read_text())
    with scripted_llm(items) as url:
        args = json.dumps({"api_base": url, "api_key": "none", "temperature": 0.0})
        argv[argv.index("--agent-llm") + 1] = f"openai/{model}"
        argv[argv.index("--user-llm") + 1] = "openai/user"
        argv += ["--agent-llm-args", args, "--user-llm-args", args, "--task-ids", *ids]
        argv += ["--max-concurrency", "1", "--save-to", model]
        env = {
            **os.environ,
            "TAU2_DATA_DIR": str(data),
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            "PYTHONPATH": str(ROOT),
        }
        done = subprocess.run(
            [sys.executable, "-m", "toolscale.tau2.bench", *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((data / "simulations" / model / "results.json").read_text())
    return results["simulations"]


def test_the_documented_command_runs_the_tasks_in_tau2(exported, tmp_path):
    items = json.loads((exported / "bank" / "tasks.json").read_text())
    reasons = [i["user_scenario"]["instructions"]["reason_for_call"] for i in items]
    unique = [i for i, r in zip(items, reasons, strict=True) if reasons.count(r) == 1]
    ids = [i["id"] for i in unique[:3]]
    gold = run_documented(exported, tmp_path, "gold", ids)
    assert sorted(s["task_id"] for s in gold) == sorted(ids)
    assert [s["reward_info"]["reward"] for s in gold] == [1.0] * len(ids)
    # An agent that makes no call leaves the database as it was: tau2 fails every task whose
    # gold route changes it.
    lazy = run_documented(exported, tmp_path, "lazy", ids)
    changing = [i for i in ids if _changes_db(exported, i)]
    assert changing
    assert {s["task_id"]: s["reward_info"]["reward"] for s in lazy if s["task_id"] in changing} == {
        i: 0.0 for i in changing
    }


def _changes_db(exported: Path, task_id: str) -> bool:
    """Whether the task's gold state differs from its starting database."""
    world = json.loads((exported / "bank" / "db.json").read_text())
    items = json.loads((exported / "bank" / "tasks.json").read_text())
    return gold_hash(next(i for i in items if i["id"] == task_id)) != state_hash(world)
