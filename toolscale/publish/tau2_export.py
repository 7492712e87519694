"""`toolscale export --format tau2`: an output's stateful tasks as tau2-bench domain folders.

One folder per stateful domain, laid out as tau2-bench keeps a domain's data: `db.json` (the
domain's world, stored once), `tasks.json` (tasks shaped like tau2-bench's `Task` model:
`user_scenario.instructions` {domain, reason_for_call, known_info, unknown_info,
task_instructions}; `evaluation_criteria` {actions, communicate_info, nl_assertions,
reward_basis}), `policy.md`, `tools.json`, and `toolscale.json` naming the toolscale domain the
folder was written from. A task whose database is not the world carries only its difference, in
`initial_state.initialization_data.agent_data`, as tau2 applies it (a recursive merge into
`db.json`: nested objects are merged, any other value replaced). A task that removes a key of
the world cannot be written so and is left out (counted in the line `say` gets).

tau2-bench has no environment for toolscale's domains: `python -m toolscale.tau2.bench DEST run
--domain NAME ...` (`toolscale.tau2.bench`) registers one per folder and runs tau2's own CLI.
Orchestration domains (answer correctness, no database) have no tau2 equivalent and are skipped.
This module does not run tau2.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.core.records import Task
from toolscale.sample import worlds
from toolscale.tau2.spec import file_safe
from toolscale.write.output import Output, atomic_write

USER_INSTRUCTIONS = (
    "Ask the agent for what the reason for call describes, giving the details it contains when "
    "the agent asks for them. Do not invent other details. End the conversation once the agent "
    "has done it or explained why it cannot."
)
RUN_HINT = (
    "run them in tau2-bench: TOOLSCALE_TAU2_SRC=/path/to/tau2-bench python -m toolscale.tau2.bench "
    "{dest} run --domain {domain} --agent-llm MODEL --user-llm MODEL (docs/tau2.md)"
)


SAME: Any = object()  # merge_update's answer for "nothing to change"; never mutated


class Removed(Exception):
    """A task's state lacks a key of its base: not expressible as a tau2 merge."""


def merge_update(base: Any, state: Any) -> Any:
    """What tau2's `update_db` must merge into `base` to give `state` (`SAME` when nothing).

    >>> world = {"a": {"x": 1, "y": 2}, "b": [1]}
    >>> merge_update(world, {"a": {"x": 1, "y": None}, "b": [1], "c": 0})
    {'a': {'y': None}, 'c': 0}
    """
    if not isinstance(base, dict) or not isinstance(state, dict):
        return SAME if json.dumps(base) == json.dumps(state) else state
    if set(base) - set(state):
        raise Removed
    update = {}
    for key, value in state.items():
        changed = merge_update(base[key], value) if key in base else value
        if changed is not SAME:
            update[key] = changed
    return update or SAME


def nl_assertions(task: Task) -> list[str]:
    found = list(task.user_scenario.nl_assertions) if task.user_scenario else []
    if task.expected_answer:
        found.append(f"The agent tells the user: {task.expected_answer}")
    return found


def user_scenario(task: Task) -> dict[str, Any]:
    """tau2's user scenario: the task's own, or one made from a single-instruction task."""
    scenario = task.user_scenario
    if scenario is None:
        instructions = {
            "domain": task.domain,
            "reason_for_call": task.instruction,
            "known_info": None,
            "unknown_info": None,
            "task_instructions": USER_INSTRUCTIONS,
        }
        return {"persona": None, "instructions": instructions}
    instructions = {
        "domain": task.domain,
        "reason_for_call": scenario.reason_for_call,
        "known_info": scenario.known_info or None,
        "unknown_info": scenario.unknown_info or None,
        "task_instructions": scenario.task_instructions or USER_INSTRUCTIONS,
    }
    return {"persona": scenario.persona or None, "instructions": instructions}


def tau2_task(task: Task, agent_data: dict[str, Any] | None) -> dict[str, Any]:
    """One task in tau2-bench's Task layout; `agent_data`: its database's difference from the
    folder's `db.json` (None: the same)."""
    criteria: dict[str, Any] = {
        "actions": [
            {
                "action_id": f"{task.id}_{n}",
                "requestor": "assistant",
                "name": action["name"],
                "arguments": action["arguments"],
            }
            for n, action in enumerate(task.gold_actions)
        ],
        "communicate_info": list(task.required_facts),
        "nl_assertions": nl_assertions(task),
        # Gold final database and required facts: how toolscale itself judges a stateful task.
        "reward_basis": ["DB", "COMMUNICATE"],
    }
    return {
        "id": task.id,
        "description": {
            "purpose": f"toolscale {task.domain} task, template {task.template}",
            "relevant_policies": None,
            "notes": (
                f"difficulty {task.difficulty}; seed {task.seed}, index {task.index}; "
                f"domain version {task.domain_version}; gold state hash {task.expected_state_hash}"
            ),
        },
        "user_scenario": user_scenario(task),
        "ticket": task.instruction,
        "initial_state": {
            "initialization_data": {"agent_data": agent_data, "user_data": None},
            "initialization_actions": None,
            "message_history": None,
        },
        "evaluation_criteria": criteria,
    }


def _groups(output: Output) -> tuple[dict[tuple[str, str], list[Task]], worlds.WorldStore]:
    """The stateful tasks by (domain, world id), one tau2 domain folder each; the worlds."""
    store = worlds.WorldStore.of_output(output.root)
    found: dict[tuple[str, str], list[Task]] = {}
    for _, row in output.read_rows("tasks"):
        if row["family"] == "stateful":
            task = Task.from_row(row, store)
            found.setdefault((task.domain, task.world), []).append(task)
    return found, store


def _folders(groups: dict[tuple[str, str], list[Task]]) -> dict[tuple[str, str], str]:
    """Each group's folder: the domain's file-safe name, plus the world's id where a domain has
    tasks on several worlds (an output merged from runs of several seeds)."""
    per_domain: dict[str, int] = {}
    for domain, _ in groups:
        per_domain[domain] = per_domain.get(domain, 0) + 1
    return {
        (domain, world): file_safe(domain)
        + (f"-{world or 'own'}" if per_domain[domain] > 1 else "")
        for domain, world in groups
    }


def _dump(value: Any, indent: int | None) -> str:
    separators = (",", ":") if indent is None else None
    return json.dumps(value, indent=indent, ensure_ascii=False, separators=separators) + "\n"


def export_tau2(output: Output, dest: Path, say: Callable[[str], None] | None = None) -> list[Path]:
    """Write DEST/<domain>/{db.json, tasks.json, policy.md, tools.json, toolscale.json} for
    every stateful domain of `output`; returns the files written."""
    groups, store = _groups(output)
    if not groups:
        raise ConfigError(f"{output.root} holds no stateful tasks; tau2 export needs a database")
    written: list[Path] = []
    left_out = 0
    folders = _folders(groups)
    for key, tasks in sorted(groups.items()):
        base = store[key[1]] if key[1] else tasks[0].initial_state
        items = []
        for task in tasks:
            try:
                update = merge_update(base, task.initial_state)
                items.append(tau2_task(task, None if update is SAME else update))
            except Removed:
                left_out += 1
        first = tasks[0]
        about = {"domain": first.domain, "domain_version": first.domain_version, "world": key[1]}
        files: dict[str, str] = {
            "db.json": _dump(base, None),  # compact: a world is hundreds of kilobytes
            "tasks.json": _dump(items, 2),
            "policy.md": first.system_prompt + "\n",
            "tools.json": _dump(first.tools, 2),
            "toolscale.json": _dump(about, 2),
        }
        folder = dest / folders[key]
        for name, text in files.items():
            atomic_write(folder / name, text.encode("utf-8"))
            written.append(folder / name)
    if say is not None:
        if left_out:
            say(f"left out {left_out} tasks whose database removes a key of the domain's db.json")
        say(RUN_HINT.format(dest=dest, domain=folders[min(groups)]))
    return written
