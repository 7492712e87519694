"""`generate --executor ray`: a run's chunks as Ray tasks, on a cluster or a local Ray instance.

The driver (the `toolscale generate` process) plans the chunks as a single-process run does, skips
the finished ones (`--resume`) and submits one Ray task per remaining chunk. A task plays its
chunk through the sandbox pool of the Ray worker process that runs it (started with its first
chunk, kept for the next ones), writes the chunk's three shards and then its marker into OUT, and
returns the chunk's statistics, a few hundred bytes. So OUT must be one folder every node sees at
the same path (NFS, a cluster filesystem): a task checks that it sees the driver's token there
before it plays anything. Writing on the workers spreads the parquet encoding over the nodes and
keeps the rows out of Ray's object store and off the driver, which would otherwise encode every
shard alone; a chunk is done once its own marker is written, exactly as in one process.

A chunk's rows depend only on the run's options and the chunk, so the output equals a
single-process run's row for row, and a chunk whose worker process or node died is run again by
Ray (`max_retries`) and writes the same bytes. An exception raised by the chunk's code is not
retried: it is a bug or a stop (an endpoint that refuses the key), reported as in one process.

Refused with one line: the local teacher (its server listens on the driver's loopback) and
`--max-cost-usd` (each worker keeps its own ledger, so there is no run-wide budget to stop at).
This module does not choose chunks or sum statistics; `toolscale.pipeline.generate` does.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import socket
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.llm.ledger import BudgetExhausted, StopRun
from toolscale.sandbox.pool import SandboxPool
from toolscale.stats.run_stats import RunStats
from toolscale.write.output import MARKER, Output, atomic_write

# Tries of a chunk whose worker process died (Ray's `max_retries`; Ray's default for tasks).
MAX_RETRIES = 3
_CONNECT_TIMEOUT_S = 5.0
_TOKEN = "ray-token"
# Environment the Ray workers need from the driver (domains added without packaging).
_FORWARDED = ("TOOLSCALE_DOMAINS",)


@dataclass(frozen=True)
class ChunkOutcome:
    """What a Ray task returns: the chunk's statistics (also in its marker), the sandbox worker
    restarts it caused, and its endpoints' request counts (`TeacherRun.summary`)."""

    stats: RunStats
    restarts: int
    endpoints: dict[str, Any]


def check_ray(config: Any) -> None:
    """Options `--executor ray` cannot honour, before anything is started or written."""
    if config.executor not in ("local", "ray"):
        raise ConfigError(f"--executor must be local or ray (got {config.executor!r})")
    if config.executor != "ray":
        if config.ray_address is not None:
            raise ConfigError("--ray-address is for --executor ray; add --executor ray")
        return
    if config.teacher == "local":
        raise ConfigError(
            "--teacher local serves its model on this machine's loopback, which Ray workers "
            "on other nodes cannot reach; serve a model yourself and use --teacher openai "
            "--base-url URL, or drop --executor ray"
        )
    if config.max_cost_usd is not None:
        raise ConfigError(
            "--max-cost-usd is not enforced across Ray workers (each keeps its own ledger); "
            "leave it out, or run without --executor ray"
        )


def _host_port(address: str) -> tuple[str, int] | None:
    """(host, port) of a `host:port` or `ray://host:port` address; None for `auto`."""
    if address == "auto":
        return None
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(
            f"--ray-address takes HOST:PORT (the head node's GCS, e.g. 10.0.0.1:6379), "
            f"ray://HOST:PORT or auto (got {address!r})"
        )
    return host, int(port)


def connect(address: str | None) -> bool:
    """Join the Ray cluster at `address`, or start a local Ray instance when None (or use the one
    this process already joined). True when this call started or joined it (and should leave).
    An address that does not answer is a ConfigError: `ray.init` would retry it for minutes."""
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "--executor ray needs Ray: pip install 'toolscale[ray]' (on every node)"
        ) from None
    if ray.is_initialized():
        return False
    target = _host_port(address) if address is not None else None
    if target is not None:
        try:
            socket.create_connection(target, timeout=_CONNECT_TIMEOUT_S).close()
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise ConfigError(
                f"the Ray cluster at {address} does not answer ({reason}); start it with "
                "`ray start --head` on the head node and pass its address, or leave out "
                "--ray-address to start a local Ray instance"
            ) from None
    env = {k: os.environ[k] for k in _FORWARDED if k in os.environ}
    try:
        ray.init(
            address=address,
            include_dashboard=False if address is None else None,
            logging_level=logging.WARNING,
            runtime_env={"env_vars": env} if env else None,
        )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a local Ray instance"
        raise ConfigError(
            f"cannot join {where}: {exc}; check the address and the cluster"
        ) from None
    return True


def leave(joined: bool) -> None:
    if joined:
        import ray

        ray.shutdown()


def _add(a: Any, b: Any) -> Any:
    """Sum two endpoint summaries field by field (numbers added, dicts merged and added)."""
    if isinstance(a, dict):
        return {k: _add(a.get(k, 0), b.get(k, 0)) if k in a else b[k] for k in {*a, *b}}
    return round(a + b, 9) if isinstance(a, float) or isinstance(b, float) else a + b


def add_endpoints(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Example: {"teacher": {"sent": 2}} + {"teacher": {"sent": 3}} = {"teacher": {"sent": 5}}."""
    return {role: _add(a[role], b[role]) if role in a else b[role] for role in {*a, *b}}


def run_on_ray(
    config: Any,
    output: Output,
    chunks: list[tuple[str, str, range]],
    finished: Callable[[Output, str, str], RunStats | None],
    on_progress: Callable[[RunStats, dict[str, Any] | None], None] | None,
) -> tuple[RunStats, str, str, dict[str, Any]]:
    """Play the unfinished `chunks` as Ray tasks; (stats, status, stop reason, endpoints)."""
    import ray

    token = uuid.uuid4().hex
    atomic_write(output.root / MARKER / _TOKEN, token.encode())
    # Paths as every node sees them: a worker's working directory is not the driver's.
    remote_config = replace(
        config,
        out=config.out.resolve(),
        cache_dir=None if config.cache_dir is None else Path(config.cache_dir).resolve(),
        experts=None if config.experts is None else Path(config.experts).resolve(),
    )
    task = ray.remote(max_retries=MAX_RETRIES, retry_exceptions=False)(play_chunk)
    stats, status, reason = RunStats(), "complete", ""
    endpoints: dict[str, Any] = {}
    pending: dict[Any, str] = {}
    for chunk, domain, indexes in chunks:
        done = finished(output, chunk, domain)
        if done is not None:
            stats = stats + done
            if on_progress:
                on_progress(stats, None)
        else:
            pending[task.remote(remote_config, chunk, domain, indexes, token)] = chunk
    try:
        while pending:
            [ref], _ = ray.wait(list(pending), num_returns=1)
            pending.pop(ref)
            try:
                outcome: ChunkOutcome = ray.get(ref)
            except ray.exceptions.RayTaskError as err:
                cause = err.cause
                if isinstance(cause, StopRun):
                    status = "budget_exhausted" if isinstance(cause, BudgetExhausted) else "stopped"
                    reason = str(cause)
                    break
                if isinstance(cause, ConfigError):
                    raise ConfigError(str(cause)) from None
                raise
            stats = stats + outcome.stats + RunStats(worker_restarts=outcome.restarts)
            endpoints = add_endpoints(endpoints, outcome.endpoints)
            if on_progress:
                on_progress(stats, endpoints)
    finally:
        for ref in pending:  # a stop or an error: what is still running is redone by --resume
            ray.cancel(ref, force=True)
    return stats, status, reason, endpoints


class _Node:
    """What one Ray worker process keeps between its chunks: an event loop and a sandbox pool
    (started once: its workers import the domains, which takes longer than a small chunk)."""

    def __init__(self, config: Any, cache: Path) -> None:
        from toolscale.tools.expert_endpoints import expert_environment

        self.key = _node_key(config)
        self.loop = asyncio.new_event_loop()
        self.env = ExitStack()  # the experts file, for the sandbox workers started below
        self.env.enter_context(expert_environment(config.experts, cache / "experts"))
        self.pool = SandboxPool(config.workers, config.call_timeout_s)
        self.loop.run_until_complete(self._enter())
        atexit.register(self.close)

    async def _enter(self) -> None:
        await self.pool.__aenter__()

    def close(self) -> None:
        self.loop.run_until_complete(self.pool.__aexit__(None, None, None))
        self.env.close()
        self.loop.close()


_node: _Node | None = None


def _node_key(config: Any) -> tuple[Any, ...]:
    """The options a worker process's pool was started with (another run needs another)."""
    return (config.workers, config.call_timeout_s, config.experts, config.out)


def play_chunk(config: Any, chunk: str, domain: str, indexes: range, token: str) -> ChunkOutcome:
    """The Ray task: play one chunk in this worker process, write it into OUT, return its
    statistics. Runs on a worker node; `config.out` is an absolute path every node sees."""
    from toolscale.config.generate import CACHE_DIR
    from toolscale.pipeline.chunk import run_chunk, write_chunk
    from toolscale.play.factory import open_teacher
    from toolscale.tau2.nl_assertions import open_judge

    global _node
    output = Output(config.out)
    try:
        seen = (output.root / MARKER / _TOKEN).read_text()
    except OSError:
        seen = ""
    if seen != token:
        raise ConfigError(
            f"--out {config.out} is not the driver's folder on node {socket.gethostname()}; "
            "with --executor ray, --out must be a shared folder mounted at the same path on "
            "every node"
        )
    cache = config.out / CACHE_DIR
    if _node is None or _node.key != _node_key(config):
        if _node is not None:
            _node.close()
        _node = _Node(config, cache)
    node = _node
    before = node.pool.restarts

    async def play() -> tuple[Any, dict[str, Any]]:
        run = open_teacher(config.teacher, config, detours=config.detours, cache_dir=cache)
        judge = open_judge(config, run, cache)
        try:
            played = await run_chunk(config, domain, indexes, run.teacher, node.pool, None, judge)
            return played, run.summary()
        finally:
            await run.aclose()

    result, endpoints = node.loop.run_until_complete(play())
    write_chunk(output, chunk, domain, result)
    return ChunkOutcome(result.stats, node.pool.restarts - before, endpoints)
