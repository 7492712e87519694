"""`toolscale export`: write an output folder in another project's format — tau2-bench task
files (`--format tau2`) or chat-format JSONL for supervised fine-tuning (`--format sft`).

tau2: one folder per stateful domain, `DEST/<domain>/tasks.json` (a list of tasks shaped like
tau2-bench's `Task` model: `user_scenario.instructions` {domain, reason_for_call, known_info,
unknown_info, task_instructions}, `initial_state.initialization_data.agent_data` = the task's
own database, `evaluation_criteria` {actions, communicate_info, nl_assertions, reward_basis}),
plus `policy.md` and `tools.json`. tau2-bench has no environment for toolscale's domains: to run
these tasks there, a tau2 domain must wrap the domain's toolkit (not provided here).
Orchestration domains (answer correctness, no database) have no tau2 equivalent and are skipped.

sft: `DEST/sft.jsonl`, the traces SFT imitates (by default `--variants best`, the trainer's own
selection), one per line with its variant and rewards (`toolscale.publish.sft_export`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.core.records import Task
from toolscale.publish.sft_export import export_sft
from toolscale.sample import worlds
from toolscale.tau2.spec import file_safe
from toolscale.write.output import Output, atomic_write

FORMATS = ("tau2", "sft")
USER_INSTRUCTIONS = (
    "Ask the agent for what the reason for call describes, giving the details it contains when "
    "the agent asks for them. Do not invent other details. End the conversation once the agent "
    "has done it or explained why it cannot."
)


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


def tau2_task(task: Task) -> dict[str, Any]:
    """One task in tau2-bench's Task layout."""
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
            "initialization_data": {"agent_data": task.initial_state, "user_data": None},
            "initialization_actions": None,
            "message_history": None,
        },
        "evaluation_criteria": criteria,
    }


def _tasks(output: Output) -> dict[str, Task]:
    store = worlds.WorldStore.of_output(output.root)
    return {row["id"]: Task.from_row(row, store) for _, row in output.read_rows("tasks")}


def export_tau2(output: Output, dest: Path) -> list[Path]:
    by_domain: dict[str, list[Task]] = {}
    for task in _tasks(output).values():
        if task.family == "stateful":
            by_domain.setdefault(task.domain, []).append(task)
    if not by_domain:
        raise ConfigError(f"{output.root} holds no stateful tasks; tau2 export needs a database")
    written = []
    for domain, tasks in sorted(by_domain.items()):
        folder = dest / file_safe(domain)  # a tau2 domain's name holds ':' and '/'
        files = {
            "tasks.json": json.dumps([tau2_task(t) for t in tasks], indent=2, ensure_ascii=False),
            "policy.md": tasks[0].system_prompt,
            "tools.json": json.dumps(tasks[0].tools, indent=2),
        }
        for name, text in files.items():
            atomic_write(folder / name, (text + "\n").encode("utf-8"))
            written.append(folder / name)
    return written


def export(
    out: Path,
    dest: Path,
    format: str,
    variants: str | None = None,
    say: Callable[[str], None] | None = None,
) -> list[Path]:
    """Write OUT's data to DEST in `format` ("tau2" or "sft"); returns the files written.

    Args:
        out: A toolscale output folder.
        dest: The folder to write into (created if missing).
        format: "tau2" for tau2-bench task files, "sft" for chat-format JSONL.
        variants: sft only: which traces (`toolscale.stats.sft_choice`); None means "best", the
            trainer's default: one trace per task, never a detour.
        say: Told, for sft, in one line how many traces of which variants were written.
    """
    if format not in FORMATS:
        raise ConfigError(f"unknown --format {format!r}; use one of: {', '.join(FORMATS)}")
    if variants is not None and format != "sft":
        raise ConfigError("--variants selects SFT traces; use it with --format sft")
    if not (out / "data" / "tasks").is_dir():
        raise ConfigError(f"{out} holds no data/tasks folder; give the --out folder of a run")
    if dest.exists() and not dest.is_dir():
        raise ConfigError(f"{dest} is a file; choose a folder to export into")
    output = Output(out)
    if format == "tau2":
        return export_tau2(output, dest)
    written, about = export_sft(output, dest, variants or "best")
    if say is not None:
        say(about)
    return written
