"""`generate --tasks-from OUT`: play the accepted tasks of a synthesize output instead of
sampling tasks. Task `i` of a domain is the domain's i-th accepted task (in candidate order);
each is made playable again from its stored content (`toolscale.sample.stored`), so a task
whose stored gold actions no longer reach its stored final state fails as a sample would.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from toolscale.core.errors import ConfigError
from toolscale.core.records import Task
from toolscale.sample import worlds
from toolscale.sample.stored import StoredTaskError, stored_item
from toolscale.sample.tasks import GoldError, SampledTask
from toolscale.sandbox.pool import SandboxError, SandboxPool
from toolscale.sandbox.worker import Failure
from toolscale.write.output import Output

if TYPE_CHECKING:
    from toolscale.config.generate import GenerateConfig


@cache
def _load(root: Path) -> tuple[int, dict[str, tuple[Task, ...]]]:
    run = root / "run.json"
    summary = json.loads(run.read_text()) if run.is_file() else {}
    if summary.get("command") != "synthesize" or not (root / "data" / "tasks").is_dir():
        raise ConfigError(
            f"--tasks-from {root} is not the output of toolscale synthesize (no run.json of a "
            "synthesize run, or no data/tasks)"
        )
    store = worlds.WorldStore.of_output(root)
    tasks: dict[str, list[Task]] = {}
    for _, row in Output(root).read_rows("tasks"):
        task = Task.from_row(row, store)
        tasks.setdefault(task.domain, []).append(task)
    ordered = {d: tuple(sorted(ts, key=lambda t: t.index)) for d, ts in tasks.items()}
    return int(summary["config"]["seed"]), ordered


def source_tasks(root: Path, domain: str) -> tuple[Task, ...]:
    return _load(root)[1].get(domain, ())


def with_source(config: GenerateConfig) -> GenerateConfig:
    """The config of a --tasks-from run: the domains the source has (of those asked for) and the
    source's seed (its worlds and task ids derive from it)."""
    assert config.tasks_from is not None
    seed, tasks = _load(config.tasks_from)
    domains = [d for d in config.domains if tasks.get(d)]
    if not domains:
        raise ConfigError(
            f"--tasks-from {config.tasks_from} holds no accepted task of "
            f"{', '.join(config.domains)} (it has: {', '.join(sorted(tasks)) or 'none'})"
        )
    return replace(config, domains=domains, seed=seed)


async def source_item(root: Path, domain: str, position: int, pool: SandboxPool) -> SampledTask:
    """The playable task at `position` of the domain's accepted tasks; a SandboxError (as a
    failed sample) when its stored gold actions do not execute to its stored final state."""
    task = source_tasks(root, domain)[position]
    try:
        return await stored_item(task, pool)
    except (StoredTaskError, GoldError) as exc:
        message = f"{domain} task {position}: synthesized task {task.id}: {exc}"
        raise SandboxError(Failure("GoldError", message, "")) from None
