"""One chunk of a run: its tasks played concurrently, then written as three shards and a marker.

A finished chunk's marker holds its statistics, so `--resume` skips it and a crashed chunk is
redone. The local driver (`toolscale.pipeline.generate`) and the Ray executor both run chunks here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from toolscale.config.generate import GenerateConfig
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain
from toolscale.pipeline.plan import first_chunk, plan
from toolscale.pipeline.task import ChunkResult, domain_worlds, rubric_of, run_task
from toolscale.play.transcript import Teacher
from toolscale.sample import worlds
from toolscale.sandbox.pool import SandboxPool
from toolscale.stats.run import RunStats
from toolscale.tau2.judge import AssertionJudge
from toolscale.write.features import CONFIGS
from toolscale.write.output import Output


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
    merged.stats = RunStats.total(p.stats for p in parts)
    return merged


def check_resume(output: Output, config: GenerateConfig) -> None:
    path = output.root / "run.json"
    if not path.exists():
        return
    previous = json.loads(path.read_text())["config"]
    current = config.resolved()
    for key in GenerateConfig.RESUME_KEYS:
        if previous.get(key) != current[key]:
            raise ConfigError(
                f"{output.root} was generated with {key}={previous.get(key)!r}, not "
                f"{current[key]!r}; resume with the same options or choose another --out"
            )


def finished(output: Output, chunk: str) -> RunStats | None:
    """A chunk's statistics when it is done; None when it must be (re)produced: no marker, one
    this version cannot read, or one recording a domain error (a fixed domain fills it in)."""
    done = RunStats.from_marker(output.chunk_done(chunk))
    return None if done is None or done.errors else done


def check_finished(output: Output, config: GenerateConfig) -> None:
    """Every shard of every chunk that --resume will skip reads back (ConfigError naming the
    file otherwise), so a bad file stops the run before it plays anything."""
    for chunk, _, _ in plan(config):
        if finished(output, chunk) is not None:
            for name in CONFIGS:
                output.read_shard(name, chunk)


def write_chunk(output: Output, chunk: str, result: ChunkResult) -> None:
    """A chunk's shards, then its marker: only then is the chunk done."""
    for name in CONFIGS:
        output.write_shard(name, chunk, getattr(result, name))
    output.mark_done(chunk, result.stats.marker())
