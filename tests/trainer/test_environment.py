"""A task that offers a subset of its domain's tools (tool dropout) trains in an environment with
exactly those tools: its GRPO prompt lists them and its rollout can call only them."""

from __future__ import annotations

import json

import datasets

from toolscale.generate import GenerateConfig, generate
from toolscale.registry import get_domain
from trainer.args import ToolscaleArguments
from trainer.data import grpo_rows
from trainer.environment import environment_class, tool_methods, tool_schemas


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


def test_sft_conversations_show_the_offered_tools_as_grpo_does(tmp_path):
    from trainer.data import sft_rows

    data = tmp_path / "data"
    generate(GenerateConfig(domains=["math"], num_tasks=6, out=data, tool_dropout=0.5))
    options = ToolscaleArguments(dataset=str(data), domains="math")
    tasks = {r["id"]: r for r in datasets.load_dataset(str(data), "tasks", split="train")}
    prompts = {r["id"]: r["environment"] for r in grpo_rows(options)}
    traces = datasets.load_dataset(str(data), "traces", split="train")
    for trace, conversation in zip(traces, sft_rows(options), strict=True):
        key = prompts[tasks[trace["task_id"]]["id"]]
        assert json.loads(conversation["tools"]) == list(tool_schemas(key))
