"""Sample a task in a sandbox worker: build it and execute its gold actions there.

The worker runs the gold beside the states it keeps and under its isolation; it receives
`build_named` by reference (`SandboxPool.call`), so the sandbox knows nothing of tasks.
"""

from __future__ import annotations

from toolscale.core.registry import get_domain
from toolscale.sample.tasks import SampledTask, build_task
from toolscale.sandbox.pool import SandboxPool


def build_named(
    domain: str,
    seed: int,
    index: int,
    template: str | None,
    priced: bool,
    call_timeout_s: float,
) -> SampledTask:
    """`build_task` of the installed domain named `domain` (what a worker runs)."""
    return build_task(get_domain(domain), seed, index, call_timeout_s, template, priced)


async def sample_in(
    pool: SandboxPool,
    domain: str,
    seed: int,
    index: int,
    template: str | None = None,
    priced: bool = True,
) -> SampledTask:
    """Sample task `index` of `domain` (with `template`: draw `index` of that template) and
    execute its gold actions, in one of `pool`'s workers; `priced=False` for a caller that
    prices it next (`toolscale.sample.tasks.prepare`)."""
    sampled: SampledTask = await pool.call(
        build_named, (domain, seed, index, template, priced), f"{domain} task {index}: sampling it"
    )
    return sampled
