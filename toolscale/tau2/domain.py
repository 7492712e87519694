"""The toolscale Domain of a tau2 spec: tau2's database as the run's world, tasks from a task file.

`get(name)` builds (once per process) a Domain subclass for a `tau2:` spec. Its world is the
tau2 database (the same for every seed); task `index` is the index-th task of the selected task
file, rebuilt from the file alone, so `validate` re-derives it. A task's state is the world plus
its own `initial_state` (initialization data merged as tau2 merges it, initialization actions
run). Gold calls that tau2 answers with an error stay in the gold route, as in tau2's evaluator,
which ignores their errors (`gold_errors_allowed`). The required facts are tau2's
`communicate_info` when COMMUNICATE is in the reward basis, judged as tau2 judges them: each must
appear, lower-cased, in some assistant message with its commas removed. A task whose reward basis
holds NL_ASSERTION with assertions needs an LLM judge (`judged`, `toolscale.tau2.nl_assertions`);
without one configured, `checks` lists those tasks as not judged on it.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from toolscale.core.contract import Action, Domain, TaskSpec
from toolscale.core.errors import ConfigError
from toolscale.tau2 import loader, scenario, spec
from toolscale.tau2.taskfile import Tau2Task, check_supported, read_tasks, select_split
from toolscale.tau2.toolkit import toolkit_class


def communicated(fact: str, messages: list[str]) -> bool:
    """tau2's communicate check of one fact over the assistant's messages."""
    return any(fact.lower() in m.lower().replace(",", "") for m in messages if m)


class Tau2Domain(Domain):
    """Base of the generated domains; the class attributes are set per spec by `get`."""

    family = "stateful"
    synthetic = True
    gold_errors_allowed = True
    spec: ClassVar[spec.Spec]
    tasks: ClassVar[tuple[Tau2Task, ...]]
    task_source: ClassVar[str]
    loaded: ClassVar[loader.LoadedDomain]
    # task id -> the nl_assertions an LLM judge must find met (tasks whose basis holds NL_ASSERTION)
    judged: ClassVar[dict[str, tuple[str, ...]]]

    def world(self, seed: int) -> dict[str, Any]:
        return self.loaded.world

    def initial_state(self, task: Tau2Task) -> dict[str, Any]:
        state = task.initial_state or {}
        data = (state.get("initialization_data") or {}).get("agent_data")
        calls = state.get("initialization_actions") or []
        if not data and not calls:
            return self.loaded.world
        env = self.loaded.make_env(self.loaded.world)
        if data:
            env.tools.update_db(data)
        for call in calls:
            getattr(env.tools, call["func_name"])(**call.get("arguments", {}))
            env.sync_tools()
        return loader.dump(env.tools.db)

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        if index >= len(self.tasks):
            raise ConfigError(f"{self.name} has {len(self.tasks)} tasks; there is no task {index}")
        task = self.tasks[index]
        gold = [Action(a.name, dict(a.arguments)) for a in task.criteria.actions or []]
        user = scenario.user_scenario(task)
        steps = len(gold)
        return TaskSpec(
            template=task.id,
            difficulty="easy" if steps <= 2 else "medium" if steps <= 5 else "hard",
            instruction=user.opening,
            initial_state=self.initial_state(task),
            gold_actions=gold,
            final_message=scenario.final_message(task),
            required_facts=scenario.required_facts(task),
            scenario=user,
        )

    def missing_facts(self, facts: list[str], final_answer: str, said: list[str]) -> list[str]:
        return [f for f in facts if not communicated(f, said)]

    @classmethod
    def checks(cls, judge_model: str | None = None) -> dict[str, Any]:
        """Which of tau2's reward components toolscale applies to this domain's tasks; with
        `judge_model` (the run's NL-assertion judge) NL_ASSERTION is applied too."""
        judged = list(cls.judged)
        found: dict[str, Any] = {"tasks": len(cls.tasks), "task_source": cls.task_source}
        if not judged:
            note = "every task is judged exactly as tau2 judges it"
            return {**found, "applied": ["DB", "COMMUNICATE"], "not_applied": {}, "note": note}
        if judge_model is None:
            return {
                **found,
                "applied": ["DB", "COMMUNICATE"],
                "not_applied": {"NL_ASSERTION": judged},
                "note": (
                    f"{len(judged)} tasks include tau2's LLM-judged nl_assertions in their "
                    "reward; toolscale verifies them on the database and communicate_info only "
                    "(no --judge-model given)"
                ),
            }
        return {
            **found,
            "applied": ["DB", "COMMUNICATE", "NL_ASSERTION"],
            "not_applied": {},
            "judge": {"model": judge_model, "tasks": judged},
            "note": (
                f"the nl_assertions of {len(judged)} tasks are judged by {judge_model}; every "
                "task is judged on each component of its reward basis"
            ),
        }


def _tasks(parsed: spec.Spec, task_file: Path | None) -> tuple[list[Tau2Task], Path]:
    """The spec's tasks (its --tau2-tasks file, else `task_file`, the domain's own), checked."""
    rows = parsed.tasks is not None
    path = Path(parsed.tasks) if parsed.tasks else task_file
    if path is None:
        raise ConfigError(
            f"{parsed.name}: the domain ships no task file; give one with --tau2-tasks FILE "
            "(a tau2 task file, or ToolScale rows as JSON or parquet)"
        )
    tasks = select_split(read_tasks(path, parsed.short, rows), path, parsed.split)
    if not tasks:
        raise ConfigError(f"{parsed.name}: {path} holds no task of domain {parsed.short!r}")
    for task in tasks:
        check_supported(task, str(path))
    return tasks, path


@cache
def get(name: str) -> Domain:
    """The Domain of a `tau2:` spec (ConfigError for a bad spec, domain or task file)."""
    parsed = spec.parse(name)
    if parsed.tasks:  # a given task file is checked before anything is imported
        _tasks(parsed, None)
    loaded = loader.load(parsed)
    tasks, path = _tasks(parsed, loaded.task_file)
    toolkit = toolkit_class(loaded, f"Tau2{loaded.short.title()}Toolkit")
    attributes = {
        "name": parsed.name,
        "version": loader.version(loaded.files, path),
        "toolkit": toolkit,
        "policy": loaded.policy,
        "templates": tuple(t.id for t in tasks),
        "spec": parsed,
        "tasks": tuple(tasks),
        "task_source": f"{path}" + (f" (split {parsed.split})" if parsed.split else ""),
        "loaded": loaded,
        "judged": {t.id: tuple(t.criteria.nl_assertions or ()) for t in tasks if t.needs_judge},
    }
    cls = type(f"Tau2{loaded.short.title()}Domain", (Tau2Domain,), attributes)
    return cls()


class Tau2Source:
    """The `tau2:` domain source (entry point `toolscale.domain_sources`, toolscale.core.registry):
    tau2-format domains named by their spec."""

    def canonical(self, name: str) -> str:
        return spec.canonical(name)

    def get(self, name: str) -> Domain:
        return get(name)
