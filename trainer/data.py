"""Read a toolscale dataset for training and check it before any training starts.

GRPO reads the `tasks` config: every row becomes a chat prompt (system prompt + instruction)
and keeps all task columns, which the environment's `reset` rebuilds the task from. SFT reads the
`traces` config: the traces `--variants` keeps (by default each task's best trace: its expected
route's where it has routes, else its gold route; `trainer.selection`) become conversations with
their tools. `--max_tasks N` draws N tasks across
the domains in proportion (`trainer.selection.stratified`), for GRPO and SFT alike.
"""

from __future__ import annotations

import json
import tempfile
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from toolscale.core.contract import canonical_json
from toolscale.core.errors import ConfigError
from toolscale.core.records import Task
from toolscale.core.registry import names
from toolscale.sample.worlds import WorldStore
from toolscale.write.features import TASK_FEATURES
from trainer import selection, split
from trainer.environment import ASK_USER, environment_key, policy_system_prompt, tool_schemas

SFT_COLUMNS = ["task_id", "domain", "messages"]
# Task columns that may be null in a row (a stateful task has no expected answer, a task without
# routes no oracle reward), so a null there is no sign of a missing column.
NULLABLE = {
    name
    for name, info in Task.model_fields.items()
    if type(None) in typing.get_args(info.annotation)
}


def check_dataset(dataset: str) -> None:
    """A ConfigError, at once, for a `--dataset` that is no folder here and cannot be a Hub id
    either: a path (`./x`, `/x`, `a/b/c`) or an ORG/NAME whose ORG is a folder here (`out/demo2`
    when `out/` exists). Otherwise `datasets` would retry the Hub for half a minute. A bare name
    (`squad`) may be a Hub dataset and is left to `datasets`."""
    path = Path(dataset).expanduser()
    if path.exists():
        return
    hint = "give the folder `toolscale generate --out` wrote, or a Hub dataset id ORG/NAME"
    if dataset.startswith((".", "/", "~")) or dataset.count("/") > 1:
        raise ConfigError(f"--dataset {dataset} does not exist; {hint}")
    if Path(dataset.split("/")[0]).is_dir():
        raise ConfigError(f"--dataset {dataset}: no such folder (its parent folder exists); {hint}")


def load_config(dataset: str, config: str) -> Any:
    import datasets

    if Path(dataset).exists() and not (Path(dataset) / "data" / config).is_dir():
        raise ConfigError(f"{dataset} has no {config} config (no data/{config} folder)")
    try:
        if not Path(dataset).exists():
            return datasets.load_dataset(dataset, config, split="train")
        # A local folder is read into memory through a cache of its own: datasets' shared cache
        # keys a folder by its name and config, so two runs both in folders named "out" would
        # share one cached copy, and two ranks rebuilding that copy at once break each other.
        with tempfile.TemporaryDirectory(prefix="toolscale-read-") as cache:
            return datasets.load_dataset(
                dataset, config, split="train", cache_dir=cache, keep_in_memory=True
            )
    except (OSError, ValueError, datasets.exceptions.DatasetNotFoundError) as exc:
        # OSError: a missing file, or ConnectionError for a Hub id that cannot be reached
        reason = (str(exc).splitlines() or [exc.__class__.__name__])[0]
        raise ConfigError(f"cannot load {config} from {dataset}: {reason}") from None


def check_domain_filter(domains: str, present: Iterable[str] | None = None) -> None:
    """A ConfigError naming the `--domains` entries that are no installed domain, nor one of
    `present` (the rows' domains, such as a `tau2:NAME`); without rows, a `PREFIX:NAME` (a
    domain source's) waits for them."""
    if domains.strip() == "all":
        return
    installed = names()
    known = set(installed) | set(present or ())
    wanted = [d.strip() for d in domains.split(",") if d.strip()]
    unknown = [d for d in wanted if d not in known and (present is not None or ":" not in d)]
    if unknown:
        label = "domain" if len(unknown) == 1 else "domains"
        raise ConfigError(
            f"unknown {label} {', '.join(repr(d) for d in unknown)} in --domains; installed "
            f"domains: {', '.join(installed)}"
        )


def check_rows(rows: Any, needed: list[str], config: str, domains: str) -> Any:
    # A card that declares the features makes `datasets` fill an absent column with nulls, so a
    # column that is null in the first row (none of the needed ones can be) counts as missing.
    first = rows[0] if len(rows) else {}
    missing = [c for c in needed if c not in rows.column_names or first.get(c) is None]
    if missing:
        raise ConfigError(
            f"the {config} rows lack the columns {', '.join(missing)}; "
            "give the output folder of `toolscale generate`"
        )
    installed = set(names())
    unknown = sorted(d for d in set(rows["domain"]) - installed if not d.startswith("tau2:"))
    if unknown:
        raise ConfigError(
            f"rows use domains that are not installed: {', '.join(unknown)}; install them (or "
            'add them with TOOLSCALE_DOMAINS="name=module:Class") or filter with --domains '
            f"{','.join(sorted(installed))}"
        )
    if domains != "all":
        present = set(rows["domain"])
        check_domain_filter(domains, present)
        wanted = {d.strip() for d in domains.split(",")}
        rows = rows.filter(lambda d: d in wanted, input_columns="domain")
    if len(rows) == 0:
        raise ConfigError(f"no {config} rows left after the domain filter {domains!r}")
    return rows


def _templates(spec: str) -> set[str]:
    return set() if spec.strip() == "all" else {t.strip() for t in spec.split(",") if t.strip()}


def _key(task: dict[str, Any]) -> str:
    return environment_key(task["domain"], task["tools"])


def dataset_worlds(dataset: str, rows: Any) -> WorldStore:
    """The worlds the `tasks` rows derive from (an empty store when none does): a stateful
    task row is its state's difference from one, which the environments rebuild."""
    store = WorldStore()
    if any(rows["world"]):
        store.add_rows(load_config(dataset, "worlds"), dataset)
    return store


def grpo_rows(options: Any, heldout: bool = False) -> Any:
    """The `tasks` rows to train on (filtered), each with its chat prompt and environment; with
    `heldout`, the tasks `--heldout_fraction` keeps out of training instead (no task among them
    shares its content with a training task, `trainer.split`)."""
    dataset, config, domains, max_tasks = (
        options.dataset,
        options.dataset_config,
        options.domains,
        options.max_tasks,
    )
    rows = load_config(dataset, config or "tasks")
    needed = [c for c in TASK_FEATURES if c not in NULLABLE]
    rows = check_rows(rows, needed, config or "tasks", domains)
    wanted, levels = _templates(options.templates), _templates(options.difficulties)
    if wanted:
        rows = rows.filter(lambda t: t in wanted, input_columns="template")
    if levels:
        rows = rows.filter(lambda d: d in levels, input_columns="difficulty")
    if len(rows) == 0:
        raise ConfigError(
            f"no tasks of the templates {options.templates!r} "
            f"and difficulties {options.difficulties!r}"
        )
    rows = _side(rows, getattr(options, "heldout_fraction", 0.0), heldout)
    if max_tasks:
        rows = rows.select(selection.stratified(rows["domain"], rows["id"], max_tasks))

    def prompt(row: dict[str, Any]) -> dict[str, Any]:
        return {
            "prompt": [
                {
                    "role": "system",
                    "content": policy_system_prompt(row["domain"], row["system_prompt"]),
                },
                {"role": "user", "content": row["instruction"]},
            ],
            "environment": _key(row),
        }

    return rows.map(prompt)


def _side(rows: Any, fraction: float, heldout: bool) -> Any:
    """The training (or held-out) side of the content-disjoint split of `tasks` rows."""
    if fraction <= 0:
        return rows
    train, kept_out = split.split(rows, fraction)
    return rows.select(kept_out if heldout else train)


def _chat_message(message: dict[str, Any]) -> dict[str, Any]:
    """One message in chat-template form. Arguments stay JSON text (Qwen-style templates print a
    string as is), so every row has the same Arrow type whatever the tools."""
    return {
        "role": message["role"],
        "content": message["content"],
        "tool_calls": [
            {"type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in message["tool_calls"]
        ]
        or None,
        "name": message["name"],
    }


def user_turns_as_tool(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A conversation as GRPO rollouts have it: after the first user message, each agent
    message answered by the user becomes an `ask_user` call and the answer its result (TRL's
    tool loop has no user turn; trainer.environment.ask_user)."""
    out: list[dict[str, Any]] = []
    first_user = next((i for i, m in enumerate(messages) if m["role"] == "user"), len(messages))
    i = 0
    while i < len(messages):
        m = messages[i]
        answer = messages[i + 1] if i + 1 < len(messages) else None
        asked = (
            i > first_user
            and m["role"] == "assistant"
            and not m["tool_calls"]
            and answer is not None
            and answer["role"] == "user"
        )
        if not asked or answer is None:  # (asked implies an answer; said for mypy)
            out.append(m)
            i += 1
            continue
        call_id = f"ask_{i}"
        arguments = canonical_json({"message": m["content"]})  # as every other call
        call = {"id": call_id, "name": ASK_USER, "arguments": arguments}
        out.append({**m, "content": "", "tool_calls": [call]})
        out.append(
            {
                "role": "tool",
                "content": answer["content"],
                "tool_calls": [],
                "tool_call_id": call_id,
                "name": ASK_USER,
            }
        )
        i += 2
    return out


def _chosen_traces(traces: Any, tasks: dict[str, dict[str, Any]], spec: str) -> Any:
    """The traces `--variants` keeps: all, each task's best, or the named variants
    (`toolscale.stats.sft_choice.chosen`, which `toolscale export --format sft` uses too)."""
    columns = list(selection.CHOICE_COLUMNS)
    return traces.select(selection.chosen(traces.select_columns(columns).to_list(), tasks, spec))


def sft_rows(
    options: Any, task_ids: set[str] | None = None, say: Callable[[str], None] | None = None
) -> Any:
    """The verified traces `--variants` keeps (see the module docstring), as conversations with
    the tools they were offered, of `--max_tasks` tasks drawn across domains; with `task_ids`,
    those tasks' traces instead (GRPO's warm start). `say` is told in one line how many traces
    of which variants were selected."""
    dataset, domains, max_tasks = options.dataset, options.domains, options.max_tasks
    config = "traces" if task_ids is not None else options.dataset_config
    traces = check_rows(
        load_config(dataset, config or "traces"), SFT_COLUMNS, config or "traces", domains
    )
    if task_ids is not None:
        traces = traces.filter(lambda i: i in task_ids, input_columns="task_id")
        max_tasks = None
    tasks = {row["id"]: row for row in load_config(dataset, "tasks")}
    wanted, levels = _templates(options.templates), _templates(options.difficulties)
    if wanted:
        traces = traces.filter(lambda i: tasks[i]["template"] in wanted, input_columns="task_id")
    if levels:
        traces = traces.filter(lambda i: tasks[i]["difficulty"] in levels, input_columns="task_id")
    spec = getattr(options, "variants", "best")
    present = sorted(set(traces["variant"]))
    traces = _chosen_traces(traces, tasks, spec)
    fraction = getattr(options, "heldout_fraction", 0.0)
    if fraction > 0:  # no trace of a held-out task's content
        traces = traces.filter(
            lambda i: not split.held_out(split.content_key(tasks[i]), fraction),
            input_columns="task_id",
        )
    if len(traces) == 0:
        raise ConfigError(
            f"no verified traces of the templates {options.templates!r}, difficulties "
            f"{options.difficulties!r} and variants {spec!r}; the traces' variants are: "
            f"{', '.join(present) or 'none'}"
        )
    if max_tasks:
        ids = sorted(set(traces["task_id"]))
        drawn = {
            ids[i] for i in selection.stratified([tasks[t]["domain"] for t in ids], ids, max_tasks)
        }
        traces = traces.filter(lambda i: i in drawn, input_columns="task_id")
    if say is not None:
        tasks_taken = len(set(traces["task_id"]))
        say(f"SFT on {selection.described(traces['variant'], spec)} of {tasks_taken} tasks")

    def conversation(row: dict[str, Any]) -> dict[str, Any]:
        messages = [_chat_message(m) for m in user_turns_as_tool(row["messages"])]
        if messages and messages[0]["role"] == "system":
            messages[0]["content"] = policy_system_prompt(row["domain"], messages[0]["content"])
        return {
            "messages": messages,
            # The tools as a GRPO prompt shows them (TRL's order and rendering), as JSON text,
            # which TRL's SFT tokenizer accepts as is.
            "tools": json.dumps(tool_schemas(_key(tasks[row["task_id"]]))),
        }

    return traces.map(conversation, remove_columns=traces.column_names)


def conversations(*row_sets: Any) -> list[tuple[list[dict[str, Any]], Any]]:
    """`(messages, tools)` of GRPO rows (their prompt) and SFT rows (the whole conversation), for
    the tiny model's tokenizer."""
    pairs = []
    for rows in row_sets:
        for row in rows:
            if "prompt" in row:
                pairs.append((row["prompt"], list(tool_schemas(row["environment"]))))
            else:
                pairs.append((row["messages"], json.loads(row["tools"])))
    return pairs
