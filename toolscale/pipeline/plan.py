"""The plan of a run: its chunks (name, domain, task indexes), the tasks split over the domains.

The plan depends only on the run's options, so `--resume`, `--shard` and `merge` all see the same
chunks. This module runs nothing.
"""

from __future__ import annotations

from dataclasses import replace

from toolscale.config.generate import GenerateConfig
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain, resolve
from toolscale.sample.stored_source import source_tasks
from toolscale.tau2.spec import file_safe


def plan(config: GenerateConfig) -> list[tuple[str, str, range]]:
    """(chunk name, domain, task indexes): the N tasks split evenly over the domains, a domain
    with fewer tasks than its share (`domain_caps`) leaving the rest to the others; with a shard,
    only that shard's chunks."""
    chunks = []
    counts = split(config.num_tasks, domain_caps(config))
    for domain, count in zip(config.domains, counts, strict=True):
        for start in range(0, count, config.chunk_size):
            stop = min(count, start + config.chunk_size)
            chunks.append((f"{file_safe(domain)}-{start:06d}", domain, range(start, stop)))
    return chunks if config.shard is None else config.shard.pick(chunks)


def domain_caps(config: GenerateConfig) -> list[int | None]:
    """The most tasks each domain can give (None: any number): a tau2 domain the tasks of its
    task file (toolscale.tau2), a domain read from `--tasks-from` the tasks stored there."""
    caps: list[int | None] = []
    for domain in config.domains:
        cap = len(get_domain(domain).templates) if domain.startswith("tau2:") else None
        if config.tasks_from is not None:
            stored = len(source_tasks(config.tasks_from, domain))
            cap = stored if cap is None else min(cap, stored)
        caps.append(cap)
    return caps


def split(total: int, caps: list[int | None]) -> list[int]:
    """`total` over the domains as evenly as their caps allow, earlier domains taking the
    remainder; what a capped domain cannot take goes to the others in turn. With no cap reached
    it is the plain even split. Example: 164 over caps [114, 50] is [114, 50]."""
    counts = [0] * len(caps)
    open_ = list(range(len(caps)))
    remaining = total
    while remaining and open_:
        per, extra = divmod(remaining, len(open_))
        still_open = []
        for position, i in enumerate(open_):
            cap = caps[i]
            take = per + (position < extra)
            if cap is not None:
                take = min(take, cap - counts[i])
            counts[i] += take
            remaining -= take
            if cap is None or counts[i] < cap:
                still_open.append(i)
        if still_open == open_:  # every domain took its whole share
            break
        open_ = still_open
    return counts


def check_shard(config: GenerateConfig) -> None:
    """A shard gets at least one chunk (more jobs than chunks is a mistake in the job count)."""
    if config.shard is None:
        return
    chunks = len(plan(replace(config, shard=None)))
    if config.shard.index >= chunks:
        raise ConfigError(
            f"--shard {config.shard} gets no task: the run has only {chunks} chunks of "
            f"--chunk-size {config.chunk_size}; run at most {chunks} shards or lower --chunk-size"
        )


def planned_tasks(config: GenerateConfig) -> int:
    """How many tasks this job samples (all N, or its shard's part)."""
    resolved = replace(config, domains=resolve(",".join(config.domains)))
    return sum(len(indexes) for _, _, indexes in plan(resolved))


def first_chunk(config: GenerateConfig, domain: str) -> int:
    """The first task index of `domain` in this job's plan: its chunk writes the domain's world
    (once per job; `merge` keeps one row per world id)."""
    return min(indexes.start for _, d, indexes in plan(config) if d == domain)
