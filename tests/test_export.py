"""`toolscale export`: tau2-bench task files checked against tau2's Task structure, and SFT JSONL.

The tau2 models below restate the structure tau2-bench documents for its `Task`
(src/tau2/data_model/tasks.py, docs/evaluation.md) as strict pydantic models: unknown keys are
errors, so a misspelt field fails here instead of being ignored there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict

from tests.publishing_data import rows, shared
from toolscale.core.contract import state_hash
from toolscale.core.errors import ConfigError
from toolscale.core.records import Task
from toolscale.core.registry import get_domain
from toolscale.publish.export import export
from toolscale.sample.worlds import WorldStore
from toolscale.sandbox.execute import execute, fresh_toolkit

pytestmark = pytest.mark.slow


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Instructions(Strict):
    domain: str
    reason_for_call: str
    known_info: str | None = None
    unknown_info: str | None = None
    task_instructions: str


class UserScenario(Strict):
    persona: str | None = None
    instructions: Instructions | str


class Description(Strict):
    purpose: str | None = None
    relevant_policies: str | None = None
    notes: str | None = None


class Action(Strict):
    action_id: str
    requestor: Literal["user", "assistant"] = "assistant"
    name: str
    arguments: dict[str, Any]
    info: str | None = None
    compare_args: list[str] | None = None


class InitializationData(Strict):
    agent_data: dict[str, Any] | None = None
    user_data: dict[str, Any] | None = None


class InitialState(Strict):
    initialization_data: InitializationData | None = None
    initialization_actions: list[dict[str, Any]] | None = None
    message_history: list[dict[str, Any]] | None = None


class EvaluationCriteria(Strict):
    actions: list[Action] | None = None
    env_assertions: list[dict[str, Any]] | None = None
    communicate_info: list[str] | None = None
    nl_assertions: list[str] | None = None
    reward_basis: list[Literal["DB", "ENV_ASSERTION", "NL_ASSERTION", "ACTION", "COMMUNICATE"]]


class Tau2Task(Strict):
    id: str
    description: Description | None = None
    user_scenario: UserScenario
    ticket: str | None = None
    initial_state: InitialState | None = None
    evaluation_criteria: EvaluationCriteria | None = None
    issues: list[dict[str, Any]] | None = None
    required_documents: list[str] | None = None
    user_tools: list[str] | None = None


def merged(db: dict[str, Any], update: dict[str, Any] | None) -> dict[str, Any]:
    """`update` merged into `db` as tau2's `update_db` merges (addict's `Dict.update`): nested
    objects merged key by key, any other value replaced."""
    for key, value in (update or {}).items():
        if isinstance(db.get(key), dict) and isinstance(value, dict):
            merged(db[key], value)
        else:
            db[key] = value
    return db


def test_a_task_s_database_is_written_as_its_difference_from_the_world():
    from toolscale.publish.tau2_export import SAME, Removed, merge_update

    world = {"users": {"u1": {"name": "Ana", "cards": [1, 2]}}, "today": "2025-01-01", "n": 1}
    task = {"users": {"u1": {"name": "Ana", "cards": [1]}, "u2": {}}, "today": "2025-01-01"}
    task["n"] = True  # a bool is not the int it equals
    update = merge_update(world, task)
    assert update == {"users": {"u1": {"cards": [1]}, "u2": {}}, "n": True}
    assert merged(json.loads(json.dumps(world)), update) == task
    assert merge_update(world, json.loads(json.dumps(world))) is SAME
    with pytest.raises(Removed):  # tau2 merges; it cannot drop a key
        merge_update(world, {"users": {}, "today": "2025-01-01", "n": 1})


@pytest.fixture(scope="module")
def dataset() -> Path:
    return shared()


def test_tau2_files_follow_the_task_model_and_replay_to_the_gold_state(dataset, tmp_path):
    written = export(dataset, tmp_path, "tau2")
    tasks = {t["id"]: t for t in rows(dataset, "tasks")}
    stateful = sorted({t["domain"] for t in tasks.values() if t["family"] == "stateful"})
    assert sorted({p.parent.name for p in written}) == stateful == ["bank", "railway"]
    exported = 0
    for domain in stateful:
        items = json.loads((tmp_path / domain / "tasks.json").read_text())
        assert len(items) == sum(t["domain"] == domain for t in tasks.values())
        for item in items:
            task = Tau2Task.model_validate(item)
            row = tasks[task.id]
            criteria = task.evaluation_criteria
            assert [(a.name, a.arguments) for a in criteria.actions] == [
                (a["name"], a["arguments"]) for a in json.loads(row["gold_actions"])
            ]
            assert criteria.communicate_info == row["required_facts"]
            scenario = json.loads(row["user_scenario"])
            instructions = task.user_scenario.instructions
            if scenario is None:
                assert instructions.reason_for_call == row["instruction"]
            else:  # a conversation: the caller's reason and what they tell when asked
                assert instructions.reason_for_call == scenario["reason_for_call"]
                assert instructions.known_info and instructions.task_instructions
                for value in scenario["known"].values():
                    assert value in instructions.known_info
                    assert value not in row["instruction"]
            update = task.initial_state.initialization_data.agent_data
            state = merged(json.loads((tmp_path / domain / "db.json").read_text()), update)
            task = Task.from_row(row, WorldStore.of_output(dataset))
            assert state == task.initial_state  # the world (db.json) plus the task's changes
            # The DB reward basis holds: the actions on that state give the gold final state.
            kit = fresh_toolkit(get_domain(domain), json.dumps(state))
            for action in criteria.actions:
                assert execute(kit, action.name, action.arguments, 15.0).status == "ok"
            assert state_hash(kit.state) == row["expected_state_hash"]
            exported += 1
    assert exported == sum(t["family"] == "stateful" for t in tasks.values())


def test_tau2_policy_and_tools_are_the_domain_s(dataset, tmp_path):
    export(dataset, tmp_path, "tau2")
    task = next(t for t in rows(dataset, "tasks") if t["domain"] == "bank")
    assert (tmp_path / "bank" / "policy.md").read_text() == task["system_prompt"] + "\n"
    assert json.loads((tmp_path / "bank" / "tools.json").read_text()) == json.loads(task["tools"])
    about = json.loads((tmp_path / "bank" / "toolscale.json").read_text())
    assert about == {
        "domain": "bank",
        "domain_version": task["domain_version"],
        "world": task["world"],
    }
    # The world is stored once, in db.json: a built-in task's database is the world itself.
    items = json.loads((tmp_path / "bank" / "tasks.json").read_text())
    assert {i["initial_state"]["initialization_data"]["agent_data"] for i in items} == {None}
    world = WorldStore.of_output(dataset)[task["world"]]
    assert json.loads((tmp_path / "bank" / "db.json").read_text()) == world


def test_sft_lines_are_the_verified_conversations(dataset, tmp_path):
    (path,) = export(dataset, tmp_path, "sft", variants="all")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    traces = {r["id"]: r for r in rows(dataset, "traces")}
    tasks = {t["id"]: t for t in rows(dataset, "tasks")}
    assert sorted(line["id"] for line in lines) == sorted(traces)
    for line in lines:
        trace = traces[line["id"]]
        assert line["tools"] == json.loads(tasks[trace["task_id"]]["tools"])
        kept = ("task_id", "domain", "variant", "reward_total", "reward_outcome")
        assert [line[k] for k in kept] == [trace[k] for k in kept]
        messages = line["messages"]
        assert [m["role"] for m in messages][:2] == ["system", "user"]
        assert messages[-1] == {"role": "assistant", "content": trace["final_answer"]}
        calls = [c for m in messages for c in m.get("tool_calls", [])]
        assert [(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in calls] == [
            (c["id"], c["name"], c["arguments"]) for c in trace["tool_calls"]
        ]
        assert all(c["type"] == "function" for c in calls)
        results = [(m["tool_call_id"], m["content"]) for m in messages if m["role"] == "tool"]
        assert results == [(c["id"], c["output"]) for c in trace["tool_calls"]]


def test_sft_export_by_default_is_the_trainer_s_selection(dataset, tmp_path):
    """`--format sft` writes what `toolscale-train sft` trains on (`--variants best`): one trace
    per task, never a deliberate detour; the line it says counts them by variant."""
    import datasets

    from trainer.data import _chosen_traces

    said: list[str] = []
    (path,) = export(dataset, tmp_path, "sft", say=said.append)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    traces = datasets.load_dataset(str(dataset), "traces", split="train")
    tasks = {t["id"]: t for t in datasets.load_dataset(str(dataset), "tasks", split="train")}
    trainer_takes = _chosen_traces(traces, tasks, "best")
    assert [line["id"] for line in lines] == list(trainer_takes["id"])
    assert len({line["task_id"] for line in lines}) == len(lines) < len(traces)
    assert not {line["variant"] for line in lines} & {"guessed_id", "repeat_read", "lookup_loop"}
    gold = sum(line["variant"] == "gold" for line in lines)
    assert said[0].startswith(f"--variants best: {len(lines)} traces (gold {gold}")
    # every task has its line, or the count of those without one says why they have none
    assert f"of {len(lines)} tasks" in said[0]
    missing = len(tasks) - len(lines)
    assert (missing == 0) == said[0].endswith(f"of {len(lines)} tasks")
    if missing:
        assert f"; {missing} of the {len(tasks)} tasks have none (no verified trace" in said[0]
    (named,) = export(dataset, tmp_path / "named", "sft", variants="guessed_id")
    variants = {json.loads(line)["variant"] for line in named.read_text().splitlines()}
    assert variants == {"guessed_id"}


def test_sft_export_mistakes_are_one_error_line_and_write_nothing(dataset, tmp_path):
    dest = tmp_path / "dest"
    for args, words in (
        (["--format", "sft", "--variants", "nope"], "--variants nope selects no trace"),
        (["--format", "sft", "--variants", ","], "--variants takes"),
        (["--format", "sft", "--variants", ""], "--variants takes"),  # not silently "best"
        (["--variants", "all"], "use it with --format sft"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "toolscale", "export", str(dataset), str(dest), *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 2 and not dest.exists(), result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith("error:") and words in line, line


def test_a_folder_that_holds_files_is_refused_unless_overwrite_is_asked(dataset, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="already holds files; choose another folder or remove"):
        export(dataset, tmp_path, "sft")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    command = ["export", str(dataset), str(tmp_path), "--format", "sft", "--overwrite"]
    result = subprocess.run(
        [sys.executable, "-m", "toolscale", *command],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "sft.jsonl"]
    assert (tmp_path / "notes.txt").read_text() == "mine"  # written over by name only
    (tmp_path / "sft.jsonl").write_text("stale\n")
    (path,) = export(dataset, tmp_path, "sft", overwrite=True)
    assert path.read_text() != "stale\n" and path.read_text().count("\n") >= 1


def test_unknown_format_is_a_config_error(dataset, tmp_path):
    with pytest.raises(ConfigError, match="unknown --format"):
        export(dataset, tmp_path, "csv")
    result = subprocess.run(
        [sys.executable, "-m", "toolscale", "export", str(dataset), str(tmp_path), "--format", "x"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "error: unknown --format 'x'" in result.stderr
