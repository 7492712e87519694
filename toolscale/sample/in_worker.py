"""Sample a task in a sandbox worker: build it and execute its gold actions there.

The worker runs the gold beside the states it keeps and under its isolation; it receives
`build_named` by reference (`SandboxPool.call`), so the sandbox knows nothing of tasks.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolscale.core.registry import get_domain
from toolscale.economics.prices import Economics
from toolscale.sample.tasks import SampledTask, build_task, prepare
from toolscale.sandbox.pool import SandboxPool

# What a built task is prepared under (`prepare`): the run's economics and preference spread.
Prepared = tuple[Economics, Mapping[str, float]]


def build_named(
    domain: str,
    seed: int,
    index: int,
    template: str | None,
    settings: Prepared | None,
    call_timeout_s: float,
) -> SampledTask:
    """`build_task` of the installed domain named `domain` (what a worker runs); with the run's
    `settings`, prepared under them (`prepare`), priced once."""
    kit = get_domain(domain)
    if settings is None:
        return build_task(kit, seed, index, call_timeout_s, template)
    built = build_task(kit, seed, index, call_timeout_s, template, priced=False)
    return prepare(built, *settings)


async def sample_in(
    pool: SandboxPool,
    domain: str,
    seed: int,
    index: int,
    template: str | None = None,
    settings: Prepared | None = None,
) -> SampledTask:
    """Sample task `index` of `domain` (with `template`: draw `index` of that template) and
    execute its gold actions, in one of `pool`'s workers; with the run's `settings` (its
    economics and preference spread), the task as the run writes it (`prepare`), made there
    too, off the process that drives the run."""
    sampled: SampledTask = await pool.call(
        build_named,
        (domain, seed, index, template, settings),
        f"{domain} task {index}: sampling it",
    )
    return sampled
