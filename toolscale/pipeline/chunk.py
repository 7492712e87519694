"""One chunk of a run: its tasks played concurrently, then written as three shards and a marker.

A finished chunk's marker holds its statistics and the fingerprint of its domain's code, so
`--resume` skips it, a crashed chunk is redone, and a chunk made by other code of its domain is
refused (or, with `--redo-changed`, redone). The local driver (`toolscale.pipeline.generate`)
and the Ray executor both run chunks here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from toolscale.config.generate import GenerateConfig
from toolscale.core.code_fingerprint import code_fingerprint
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain
from toolscale.pipeline.plan import first_chunk, plan
from toolscale.pipeline.task import ChunkResult, domain_worlds, rubric_of, run_task
from toolscale.play.transcript import Teacher
from toolscale.sample import worlds
from toolscale.sandbox.pool import SandboxPool
from toolscale.stats.run_stats import RunStats
from toolscale.tau2.nl_assertions import AssertionJudge
from toolscale.write.features import CONFIGS
from toolscale.write.output import Output

CODE_KEY = "domain_code"  # a chunk marker's fingerprint of its domain's code


async def run_chunk(
    config: GenerateConfig,
    domain: str,
    indexes: range,
    teacher: Teacher,
    pool: SandboxPool,
    on_task: Callable[[RunStats], None] | None = None,
    assertion_judge: AssertionJudge | None = None,
) -> ChunkResult:
    """Play a chunk's tasks concurrently; `on_task` gets each task's statistics as it ends."""
    economics = config.economics

    async def played(index: int) -> ChunkResult:
        part = await run_task(config, domain, index, teacher, pool, economics, store, rubric)
        if on_task is not None:
            on_task(part.stats)
        return part

    store, world = domain_worlds(domain, config.seed)
    rubric = rubric_of(config, assertion_judge)
    parts = await asyncio.gather(*(played(i) for i in indexes))
    merged = ChunkResult()
    if world is not None and first_chunk(config, domain) == indexes.start:
        version = get_domain(domain).version
        merged.worlds.append(worlds.row(domain, version, config.seed, world))
    for part in parts:
        merged.tasks += part.tasks
        merged.traces += part.traces
        merged.rejected += part.rejected
        merged.user_faults += part.user_faults
    merged.stats = RunStats.total(p.stats for p in parts)
    return merged


def finished(output: Output, chunk: str, domain: str) -> RunStats | None:
    """A chunk's statistics when it is done; None when it must be (re)produced: no marker, one
    this version cannot read, one recording a domain error (a fixed domain fills it in), or one
    made by other code of `domain` (`check_code` lets that through only with --redo-changed)."""
    marker = output.chunk_done(chunk)
    done = RunStats.from_marker(marker)
    if done is None or done.errors or (marker or {}).get(CODE_KEY) != code_fingerprint(domain):
        return None
    return done


def check_code(output: Output, config: GenerateConfig) -> None:
    """Unless --redo-changed, refuse a --resume whose finished chunks were made by other code of
    their domain than this run's (`toolscale.core.code_fingerprint`): kept, they would mix old
    and new tasks. Fingerprints every domain of the run first, before anything plays."""
    now = {domain: code_fingerprint(domain) for domain in config.domains}
    changed: dict[str, str] = {}
    for chunk, domain, _ in plan(config):
        marker = output.chunk_done(chunk)
        made = (marker or {}).get(CODE_KEY)
        if marker is not None and made != now[domain]:
            changed.setdefault(domain, made or "none recorded")
    if changed and not config.redo_changed:
        domain, made = next(iter(changed.items()))
        also = f" (and {', '.join(list(changed)[1:])})" if len(changed) > 1 else ""
        raise ConfigError(
            f"domain {domain!r}{also} changed since {output.root} was generated (its code "
            f"fingerprint is {now[domain]}, its finished chunks were made by {made}), so "
            "resuming would mix old and new tasks; run generate without --resume into a new "
            "--out, or add --redo-changed to redo that domain's chunks"
        )


def check_finished(output: Output, config: GenerateConfig) -> None:
    """Every shard of every chunk that --resume will skip reads back (ConfigError naming the
    file otherwise), so a bad file stops the run before it plays anything."""
    for chunk, domain, _ in plan(config):
        if finished(output, chunk, domain) is not None:
            for name in CONFIGS:
                output.read_shard(name, chunk)


def write_chunk(output: Output, chunk: str, domain: str, result: ChunkResult) -> None:
    """A chunk's shards, then its marker (with the fingerprint of `domain`'s code): only then is
    the chunk done."""
    for name in CONFIGS:
        output.write_shard(name, chunk, getattr(result, name))
    output.mark_done(chunk, {**result.stats.marker(), CODE_KEY: code_fingerprint(domain)})
