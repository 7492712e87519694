"""Domain tool calls per second through the sandbox worker pool, against direct in-process calls.

The calls are real: the gold actions of sampled railway and bank tasks (READ and WRITE tools,
schema validation and the per-call time limit included), each task on a fresh copy of its own
state. Four ways of running the same calls:

- `direct`: in this process, `fresh_toolkit` + `execute` (no pool) - the ceiling;
- `per-call`: through the pool, one request per tool call (`Episode.call`), many episodes at once;
- `episode`: through the pool, one request per episode for all its calls (`Episode.run`, what the
  reference teacher does for a route);
- `replay`: through the pool, one request per task (`SandboxPool.replay`, what grounding does).

Pool modes include opening and closing each episode (a fresh state in the worker) and count
only tool calls in the rate.

    .venv/bin/python benchmarks/pool_throughput.py --tasks 400 --repeats 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable

from toolscale.core.contract import canonical_json
from toolscale.core.registry import get_domain
from toolscale.sample.tasks import build_task
from toolscale.sandbox.execute import execute, fresh_toolkit
from toolscale.sandbox.pool import SandboxPool

Item = tuple[str, str, list[tuple[str, dict]]]


def sample(tasks: int) -> list[Item]:
    items = []
    for index in range(tasks):
        domain = get_domain(("railway", "bank")[index % 2])
        task = build_task(domain, 0, index // 2, 10.0).task
        calls = [(a["name"], a["arguments"]) for a in task.gold_actions]
        items.append((domain.name, canonical_json(task.initial_state), calls))
    return items


def direct(items: list[Item]) -> None:
    for domain, state_json, calls in items:
        kit = fresh_toolkit(get_domain(domain), state_json)
        for name, arguments in calls:
            if execute(kit, name, arguments, 10.0).status != "ok":
                raise RuntimeError(f"gold call failed: {name}")


async def per_call(pool: SandboxPool, item: Item) -> None:
    episode = pool.episode(item[0], item[1])
    for name, arguments in item[2]:
        await episode.call(name, arguments)
    await episode.finish()


async def episode(pool: SandboxPool, item: Item) -> None:
    run = pool.episode(item[0], item[1])
    await run.run(item[2])
    await run.finish()


async def replay(pool: SandboxPool, item: Item) -> None:
    await pool.replay(*item)


Mode = Callable[[SandboxPool, Item], Awaitable[None]]


async def through_pool(items: list[Item], mode: Mode, workers: int, concurrency: int) -> float:
    async with SandboxPool(workers=workers) as pool:
        await asyncio.gather(*(mode(pool, item) for item in items[:workers]))  # warm up
        gate = asyncio.Semaphore(concurrency)

        async def one(item: Item) -> None:
            async with gate:
                await mode(pool, item)

        start = time.perf_counter()
        await asyncio.gather(*(one(item) for item in items))
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=64, help="episodes in flight")
    args = parser.parse_args()
    items = sample(args.tasks)
    calls = sum(len(c) for _, _, c in items)
    print(f"{args.tasks} tasks, {calls} tool calls; workers={args.workers}, cores={os.cpu_count()}")
    modes: dict[str, Mode] = {"per-call": per_call, "episode": episode, "replay": replay}
    rates: dict[str, list[float]] = {name: [] for name in ["direct", *modes]}
    for _ in range(args.repeats):
        start = time.perf_counter()
        direct(items)
        rates["direct"].append(calls / (time.perf_counter() - start))
        for name, mode in modes.items():
            elapsed = asyncio.run(through_pool(items, mode, args.workers, args.concurrency))
            rates[name].append(calls / elapsed)
    ceiling = statistics.median(rates["direct"])
    for name, values in rates.items():
        median = statistics.median(values)
        runs = ", ".join(f"{v:.0f}" for v in values)
        print(f"{name:>8}: {median:7.0f} calls/s ({runs}); ratio to direct {median / ceiling:.2f}")


if __name__ == "__main__":
    main()
