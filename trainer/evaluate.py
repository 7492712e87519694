"""`toolscale-train evaluate`: any orchestrator on a toolscale dataset's tasks, in one table.

The orchestrator is a local checkpoint (`--model FOLDER`, or `local-smollm2`), rolled out as
training rolls it out (`trainer.checkpoint_rollouts`), or an OpenAI-compatible endpoint
(`--base_url URL --model NAME`, the key in the variable `--api_key_env` names), played as
generation's LLM teacher plays (`trainer.endpoint_rollouts`). Its tools run in the sandbox, each
attempt is judged by the dataset's Rubric and scored with the dataset's reward (its run.json), and
the table (`trainer.table`) sets it beside the oracle and every fixed route, played at the same
tasks (`trainer.reference_routes`), and, at tasks with routes, beside the expected-reward oracle
the router baseline (`trainer.router_rows`: a light router trained on the training side's
labels, the first row an orchestrator must beat) and the competence-and-cost router
(`trainer.competence`: each route's accuracy per task kind learnt from `--competence_tasks`
training tasks, weighed against its cost under each task's prices and preference). With no
`--model`, the table holds the reference rows only.

The tasks: the dataset's `tasks` rows (filtered by `--domains`, `--templates`, `--difficulties`),
the split `--split all|train|heldout` of `--heldout_fraction` (the content-disjoint split training
uses, `trainer.split`: `--split heldout --heldout_fraction 0.2` is what a run trained with
`--heldout_fraction 0.2` never saw), or those whose ids `--tasks_from FILE` lists (one id a line,
or JSON lines with an "id"), then at most `--max_tasks` of them drawn across domains.
A stateful task's caller is the scripted user, or the LLM user `--user_base_url` /
`--user_model` name (`trainer.user_seat`). An attempt the user broke (stage "user",
`toolscale.judge.user_fault`) is left out of the orchestrator's row, its denominator included,
and listed in evaluation.json's `about.user_faults`.
Writes OUTPUT/evaluation.json (every row, every attempt) and OUTPUT/evaluation.md.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

from toolscale.config.teacher import ISOLATION_HELP
from toolscale.core.errors import ConfigError
from toolscale.core.records import Task
from toolscale.judge.rubric import Rubric
from toolscale.publish.validate import run_settings
from toolscale.sandbox.guard import check_isolation, isolation_warning
from toolscale.sandbox.isolation import isolation_level
from toolscale.write.output import Output
from trainer.checkpoint_rollouts import evaluate_checkpoint
from trainer.competence import DEFAULT_TASKS
from trainer.data import check_domain_filter, grpo_rows, load_config
from trainer.endpoint_rollouts import endpoint_records, teacher_options
from trainer.environment import TASK_FIELDS
from trainer.model import load
from trainer.parser import parse as parse_flags
from trainer.reference_routes import oracle_class, play_tasks, reference_attempts, summary
from trainer.reward_config import stored_reward
from trainer.router_rows import router_attempts, training_rows
from trainer.selection import stratified
from trainer.split import check_fraction
from trainer.table import UNKNOWN_TOOL, Scored, Table, build
from trainer.tool_text import changed_tools, shown_schemas
from trainer.user_seat import USER_STAGE, UserArguments
from trainer.verdict import DEFINITIONS, too_small, training_helped

JSON_NAME, MARKDOWN_NAME = "evaluation.json", "evaluation.md"
BASE = "base"


def progress(message: str) -> None:
    """A line on stderr while the evaluation plays (it can take minutes)."""
    print(f"evaluate: {message}", file=sys.stderr, flush=True)


def _progress_of(label: str, message: str) -> None:
    progress(f"{label}: {message}")


def _kept(
    label: str, records: list[dict[str, Any]], tasks: list[Task], about: dict[str, Any]
) -> list[Scored]:
    """A policy's scored attempts, less those the simulated user broke: out of the denominator,
    listed in `about["user_faults"]` under the policy's label."""
    pairs = list(zip(records, tasks, strict=True))
    broken = [t.id for r, t in pairs if r["failure_stage"] == USER_STAGE]
    about.setdefault("user_faults", {})[label] = {"count": len(broken), "task_ids": broken}
    return [_scored(r, t) for r, t in pairs if t.id not in broken]


@dataclass
class EvaluateArguments(UserArguments):
    """What to evaluate, on which tasks, where the table goes, and who plays the caller of
    stateful tasks (`trainer.user_seat`)."""

    dataset: str = field(
        metadata={"help": "A toolscale output folder (or a downloaded copy of a pushed one)."}
    )
    output_dir: str = field(
        default="runs/evaluate", metadata={"help": "Where evaluation.json and .md are written."}
    )
    model: str | None = field(
        default=None,
        metadata={
            "help": "A checkpoint folder (or local-smollm2); with --base_url, the endpoint's "
            "model name. Unset: only the oracle and fixed-route rows."
        },
    )
    base_url: str | None = field(
        default=None, metadata={"help": "An OpenAI-compatible endpoint, e.g. http://host:8000/v1."}
    )
    api_key_env: str = field(
        default="OPENAI_API_KEY", metadata={"help": "Environment variable holding the API key."}
    )
    label: str | None = field(
        default=None, metadata={"help": "The orchestrator's name in the table [the model's]."}
    )
    split: Literal["all", "train", "heldout"] = field(
        default="all", metadata={"help": "all, or a side of the --heldout_fraction split."}
    )
    heldout_fraction: float = field(
        default=0.0, metadata={"help": "The held-out share of the split (as in training)."}
    )
    tasks_from: str | None = field(
        default=None, metadata={"help": "A file of task ids (one a line, or JSON lines with id)."}
    )
    domains: str = field(default="all", metadata={"help": 'Domain filter: "all" or "a,b".'})
    templates: str = field(default="all", metadata={"help": 'Template filter: "all" or "a,b".'})
    difficulties: str = field(
        default="all", metadata={"help": 'Difficulty filter: "all" or "easy,medium".'}
    )
    max_tasks: int | None = field(
        default=None, metadata={"help": "At most this many tasks, drawn across domains."}
    )
    chat_template: str | None = field(
        default=None, metadata={"help": "A checkpoint's chat template: qwen3, qwen3_instruct_2507."}
    )
    base_model: str | None = field(
        default=None,
        metadata={
            "help": "The untrained checkpoint the --model was trained from: its row (base) "
            "goes beside the trained one, with the gap and its interval under the table."
        },
    )
    max_turns: int = field(default=4, metadata={"help": "Most answers per task."})
    max_new_tokens: int = field(default=256, metadata={"help": "Most tokens per answer."})
    temperature: float = field(default=0.0, metadata={"help": "0: greedy."})
    seed: int = field(default=0, metadata={"help": "Sampling seed of a checkpoint's rollouts."})
    batch_size: int = field(default=16, metadata={"help": "A checkpoint's rollouts per batch."})
    request_timeout: float = field(default=60.0, metadata={"help": "Seconds per endpoint request."})
    concurrency: int = field(default=8, metadata={"help": "Endpoint attempts in flight at once."})
    reference_rows: bool = field(
        default=True, metadata={"help": "Play the oracle and every fixed route at the tasks."}
    )
    competence_tasks: int = field(
        default=DEFAULT_TASKS,
        metadata={"help": "Training tasks the competence router learns routes' accuracy from."},
    )
    sandbox_workers: int = field(default=2, metadata={"help": "Sandbox worker processes."})
    isolation: str = field(default="bwrap", metadata={"help": ISOLATION_HELP})


def parse(argv: Sequence[str]) -> EvaluateArguments:
    """The options from `--config FILE` and `--key value` flags; a bad one is a ConfigError."""
    (options,) = parse_flags("evaluate", (EvaluateArguments,), argv)
    check_domain_filter(options.domains)
    check_fraction(options.heldout_fraction)
    return options


def _ids(path: str) -> list[str]:
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as exc:
        raise ConfigError(f"--tasks_from {path}: cannot read it ({exc.strerror})") from None
    ids = []
    for line in filter(None, (x.strip() for x in lines)):
        if line.startswith("{"):
            try:
                line = str(json.loads(line)["id"])
            except (ValueError, KeyError):
                raise ConfigError(f"--tasks_from {path}: a JSON line without an id") from None
        ids.append(line)
    return ids


def task_rows(options: EvaluateArguments) -> Any:
    """The `tasks` rows to evaluate on (see the module docstring); ConfigError when none."""
    root = Path(options.dataset)
    if not (root / "data" / "tasks").is_dir():
        raise ConfigError(
            f"{options.dataset} is not a toolscale output folder (no data/tasks); give the "
            "folder `toolscale generate` wrote"
        )
    if (options.split == "all") != (options.heldout_fraction <= 0):
        raise ConfigError(
            "--split train or heldout goes with --heldout_fraction F (0 < F < 1, the value "
            "training used); --split all with none"
        )
    view = SimpleNamespace(
        **{k: getattr(options, k) for k in ("dataset", "domains", "templates", "difficulties")},
        dataset_config="tasks",
        max_tasks=None,
        heldout_fraction=options.heldout_fraction,
    )
    rows = grpo_rows(view, heldout=options.split == "heldout")
    if options.tasks_from is not None:
        wanted = _ids(options.tasks_from)
        unknown = sorted(set(wanted) - set(rows["id"]))
        if unknown:
            raise ConfigError(
                f"--tasks_from {options.tasks_from}: {len(unknown)} ids are no task of this "
                f"selection (e.g. {unknown[0]})"
            )
        keep = set(wanted)
        rows = rows.filter(lambda i: i in keep, input_columns="id")
    if options.max_tasks:
        rows = rows.select(stratified(rows["domain"], rows["id"], options.max_tasks))
    if len(rows) == 0:
        raise ConfigError(
            f"no tasks to evaluate in the {options.split} split of {options.dataset}"
            + (f" (heldout_fraction {options.heldout_fraction})" if options.split != "all" else "")
            + (f" listed in {options.tasks_from}" if options.tasks_from else "")
        )
    return rows


def _scored(record: dict[str, Any], task: Task) -> Scored:
    unknown = set(record["tools_called"]) - set(task.tool_names())
    return Scored(
        task_id=record["id"],
        verified=bool(record["verified"]),
        reward_total=float(record["reward_total"]),
        total_cost=float(record["total_cost"]),
        total_latency_ms=float(record["total_latency_ms"]),
        compliant=bool(record["preference_compliant"]),
        route=UNKNOWN_TOOL if unknown else record["route"],
        oracle=oracle_class(task),
        profile=task.preference.profile,
    )


def _label(options: EvaluateArguments) -> str:
    if options.label:
        return options.label
    name = str(options.model)
    return f"endpoint {name}" if options.base_url else Path(name).name or name


def warning(text: str) -> None:
    """A warning line on stderr."""
    print(f"warning: {text}", file=sys.stderr, flush=True)


def evaluation(options: EvaluateArguments, warn: Callable[[str], None] = warning) -> Table:
    """The table of the orchestrator the options name (if any) and the reference rows; `warn`
    is told when the tasks are too few to tell policies apart."""
    if options.model is None and options.base_url is not None:
        raise ConfigError("--base_url needs --model, the name the endpoint serves")
    if options.base_model is not None and options.base_url is not None:
        raise ConfigError("--base_model is a checkpoint folder; it goes with a checkpoint --model")
    if options.model is None and not options.reference_rows:
        raise ConfigError("nothing to evaluate: give --model, or leave --reference_rows on")
    if options.competence_tasks < 1:
        raise ConfigError(
            f"--competence_tasks {options.competence_tasks}: give at least 1 training task "
            f"(the default, {DEFAULT_TASKS}, is a few dozen)"
        )
    rows = task_rows(options)
    # The orchestrator writes the programs code_executor runs: only where the sandbox holds.
    model_code = options.model is not None
    check_isolation(options.isolation, rows["domain"], model_code)
    endpoint = None
    if options.base_url is not None:  # checked before anything runs
        endpoint = teacher_options(
            options.base_url,
            str(options.model),
            options.api_key_env,
            options.max_turns,
            options.max_new_tokens,
            options.temperature,
            options.request_timeout,
            options.concurrency,
            options,
        )
    resolved = stored_reward(options.dataset)
    if resolved.warning:
        print(resolved.warning, file=sys.stderr)
    stored = run_settings(Output(Path(options.dataset)))
    settings = dataclasses.replace(stored, reward=resolved.config)
    tasks = [Task.from_row({k: row[k] for k in TASK_FIELDS}, settings.worlds) for row in rows]
    about: dict[str, Any] = {
        "dataset": options.dataset,
        "output_dir": options.output_dir,
        "split": options.split,
        "heldout_fraction": options.heldout_fraction,
        "tasks_from": options.tasks_from,
        "task_ids": [t.id for t in tasks],
        "reward": dataclasses.asdict(resolved.config),
        "reward_source": resolved.source,
        "options": dataclasses.asdict(options),
        "isolation": isolation_level(),
    }
    warning = isolation_warning(rows["domain"], model_code)
    if warning:
        about["isolation_warning"] = warning
    reference = {}
    if options.reference_rows:
        progress(f"playing the oracle and every fixed route at {len(tasks)} tasks")
        played = asyncio.run(play_tasks(tasks, settings, options.sandbox_workers))
        reference = reference_attempts(played)
        about["fixed_routes_admitted"] = summary(played)
        if any(t.route_table for t in tasks):  # the router baseline, on the training side
            everything = load_config(options.dataset, "tasks").to_list()
            train = training_rows(everything, options.heldout_fraction)
            routed, about["router"] = router_attempts(
                train, rows.to_list(), played, options.competence_tasks
            )
            reference.update(routed)
    evaluated = {}
    if endpoint is not None:
        progress(f"{_label(options)}: {len(tasks)} tasks at {options.base_url}")
        rubric = Rubric(settings.reward, settings.teacher_price)
        records = asyncio.run(endpoint_records(endpoint, tasks, rubric, options.sandbox_workers))
        evaluated[_label(options)] = _kept(_label(options), records, tasks, about)
    checkpoints = [(_label(options), options.model)] if endpoint is None and options.model else []
    if options.base_model is not None:
        checkpoints.append((BASE, options.base_model))
    shown = shown_schemas(rows["environment"])
    for label, folder in checkpoints:
        if changed := changed_tools(folder, shown):
            warn(changed)
        progress(f"{label}: {len(tasks)} tasks, {options.max_turns} turns at most")
        model, tokenizer = load(folder, options.chat_template)
        records = list(
            evaluate_checkpoint(
                model,
                tokenizer,
                rows,
                settings.reward,
                workers=options.sandbox_workers,
                max_turns=options.max_turns,
                max_new_tokens=options.max_new_tokens,
                batch_size=options.batch_size,
                temperature=options.temperature,
                seed=options.seed,
                worlds=settings.worlds,
                user=options.user_simulator(options.request_timeout),
                progress=functools.partial(_progress_of, label),
            ).rollouts
        )
        evaluated[label] = _kept(label, records, tasks, about)
    notes = []
    for label, found in evaluated.items():
        if label != BASE and BASE in evaluated:
            notes.append(training_helped(found, evaluated[BASE], label))
    first = next(iter(evaluated.values()), None)
    small = too_small(len(tasks), sum(s.verified for s in first) if first else len(tasks) // 2)
    if small:
        about["small_sample_warning"] = small
        warn(small)
    about["notes"] = [*notes, DEFINITIONS]
    return build(evaluated, reference, about)


def write(table: Table, folder: str | Path) -> Path:
    """evaluation.json and evaluation.md in `folder`, each written whole or not at all."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    for name, text in ((JSON_NAME, table.to_json()), (MARKDOWN_NAME, table.to_markdown())):
        partial = root / f".{name}.partial"
        partial.write_text(text)
        os.replace(partial, root / name)
    return root


def evaluate(argv: Sequence[str], warn: Callable[[str], None] = warning) -> Table:
    """Parse the flags, evaluate, write the table to --output_dir; returns the table."""
    options = parse(argv)
    table = evaluation(options, warn)
    write(table, options.output_dir)
    return table
