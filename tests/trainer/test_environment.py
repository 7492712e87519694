"""A task that offers a subset of its domain's tools (tool dropout) trains in an environment with
exactly those tools: its GRPO prompt lists them and its rollout can call only them."""

from __future__ import annotations

import json

import datasets
import pytest

from toolscale.config.generate import GenerateConfig
from toolscale.core.records import Task
from toolscale.core.registry import get_domain
from toolscale.dialogue import scripted_user
from toolscale.pipeline.generate import generate
from toolscale.sample.worlds import WorldStore
from trainer.args import ToolscaleArguments
from trainer.data import grpo_rows
from trainer.environment import (
    ENDED,
    TASK_FIELDS,
    environment_class,
    tool_methods,
    tool_schemas,
)


def test_each_task_gets_an_environment_with_the_tools_it_offers(tmp_path):
    data = tmp_path / "data"
    generate(GenerateConfig(domains=["math"], num_tasks=8, out=data, tool_dropout=0.5))
    rows = grpo_rows(ToolscaleArguments(dataset=str(data), domains="math"))
    every = set(get_domain("math").toolkit.specs())
    subsets = 0
    for row in rows:
        offered = {t.get("function", t)["name"] for t in json.loads(row["tools"])}
        environment = environment_class(row["environment"], sandbox=None)()
        methods = {m.__name__ for m in tool_methods(environment)}
        assert methods == offered
        assert {s["function"]["name"] for s in tool_schemas(row["environment"])} == offered
        if offered != every:
            subsets += 1
            assert row["environment"].startswith("math:")
        else:
            assert row["environment"] == "math"
    assert subsets > 0  # dropout 0.5 over 8 tasks left some task without some tool


@pytest.mark.slow
def test_sft_conversations_show_the_offered_tools_as_grpo_does(tmp_path):
    from trainer.data import sft_rows

    data = tmp_path / "data"
    generate(GenerateConfig(domains=["math"], num_tasks=6, out=data, tool_dropout=0.5))
    options = ToolscaleArguments(dataset=str(data), domains="math", variants="all")  # each trace
    tasks = {r["id"]: r for r in datasets.load_dataset(str(data), "tasks", split="train")}
    prompts = {r["id"]: r["environment"] for r in grpo_rows(options)}
    traces = datasets.load_dataset(str(data), "traces", split="train")
    for trace, conversation in zip(traces, sft_rows(options), strict=True):
        key = prompts[tasks[trace["task_id"]]["id"]]
        assert json.loads(conversation["tools"]) == list(tool_schemas(key))


def test_a_conversational_task_trains_with_ask_user_in_rollouts_and_in_sft(tmp_path):
    """railway tasks are conversations: the GRPO environment answers `ask_user` from the task's
    scenario (as the scripted user of the traces did), and SFT conversations show every user
    answer after the opening as an `ask_user` result, so both see the same form."""
    from trainer.data import sft_rows

    data = tmp_path / "data"
    generate(GenerateConfig(domains=["railway"], num_tasks=8, out=data))
    options = ToolscaleArguments(dataset=str(data), domains="railway")
    rows = [(r, json.loads(r["user_scenario"])) for r in grpo_rows(options)]
    plain = [(r, s) for r, s in rows if s["known"] and not s["behaviour"]]
    row, scenario = plain[0]  # a user who gives what is asked (task 8 of seed 0, railway 4.4)
    environment = environment_class(row["environment"], sandbox=None)()
    environment._task = Task.from_row({k: row[k] for k in TASK_FIELDS}, WorldStore.of_output(data))
    environment._executed, environment._said, environment._ended = [], [], False
    key, value = next(iter(scenario["known"].items()))
    ask = f"Could you tell me your {key}?"
    answer = environment.ask_user(ask)
    assert value in answer and answer == scripted_user.reply(environment._task.user_scenario, ask)
    # A statement asks nothing: the conversation is over, as when a teacher's message is not
    # answered in generation (trainer.environment.ENDED).
    assert environment.ask_user("Thanks, one moment.") == ENDED
    assert [e.reply for e in environment.executed] == [answer, None]
    traces = datasets.load_dataset(str(data), "traces", split="train")
    for trace, conversation in zip(traces, sft_rows(options), strict=True):
        users = [m for m in trace["messages"] if m["role"] == "user"]
        messages = conversation["messages"]
        assert [m["role"] for m in messages].count("user") == 1  # only the opening
        answers = [
            m["content"] for m in messages if m["name"] == "ask_user" and m["role"] == "tool"
        ]
        assert answers == [m["content"] for m in users[1:]]
