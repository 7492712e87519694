"""Ray executor overhead: one process vs a local Ray instance on the same machine.

Runs `toolscale.pipeline.generate.generate` on the same options in fresh folders, alternating one
process
(`--executor local`, `--workers` sandbox processes) and a local Ray instance of `--ray-cpus` CPUs
(`--executor ray`: one chunk per Ray worker at a time, each Ray worker with `--ray-pool` sandbox
processes), and reports the median wall time of each, the difference per task and per chunk, and
the Ray start-up (paid once per `generate` on a local instance). Every Ray run's rows are checked
against the one-process run's (sha256 of each config's rows sorted by id).

    .venv/bin/python benchmarks/ray_overhead.py --num-tasks 1000 --repeats 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate


def fingerprint(out: Path) -> str:
    digest = hashlib.sha256()
    for config in ("tasks", "traces", "rejected"):
        rows = [
            r
            for p in (out / "data" / config).glob("*.parquet")
            for r in pq.read_table(p).to_pylist()
        ]
        rows.sort(key=lambda r: r["id"])
        digest.update(json.dumps(rows, sort_keys=True, default=str).encode())
    return digest.hexdigest()


def timed(config: GenerateConfig) -> tuple[float, str, int]:
    start = time.perf_counter()
    summary = generate(config)
    return time.perf_counter() - start, fingerprint(config.out), summary["counts"]["verified"]


def chunks(out: Path) -> int:
    return len(list((out / ".toolscale" / "chunks").glob("*.json")))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--domains", default="all")
    parser.add_argument("--num-tasks", type=int, default=1000)
    parser.add_argument("--chunk-size", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="sandbox processes, one process")
    parser.add_argument("--ray-cpus", type=int, default=2, help="Ray workers at a time")
    parser.add_argument("--ray-pool", type=int, default=1, help="sandbox processes per Ray worker")
    args = parser.parse_args()
    import ray

    start = time.perf_counter()
    ray.init(num_cpus=args.ray_cpus, include_dashboard=False, logging_level="WARNING")
    ray_start = time.perf_counter() - start
    base = dict(
        domains=args.domains.split(","),
        num_tasks=args.num_tasks,
        chunk_size=args.chunk_size,
        detours=True,
    )
    local_s, ray_s = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for repeat in range(args.repeats):
            one = GenerateConfig(**base, out=Path(tmp, f"local-{repeat}"), workers=args.workers)
            elapsed, expected, verified = timed(one)
            local_s.append(elapsed)
            on_ray = GenerateConfig(
                **base, out=Path(tmp, f"ray-{repeat}"), workers=args.ray_pool, executor="ray"
            )
            elapsed_ray, got, _ = timed(on_ray)
            ray_s.append(elapsed_ray)
            count = chunks(on_ray.out)
            same = "rows equal" if got == expected else "ROWS DIFFER"
            print(
                f"run {repeat}: one process {elapsed:.2f} s, Ray {elapsed_ray:.2f} s "
                f"({verified} verified traces; {same})"
            )
    ray.shutdown()
    local, on_ray = statistics.median(local_s), statistics.median(ray_s)
    print(
        f"median: one process {local:.2f} s ({args.num_tasks / local:.0f} tasks/s), "
        f"Ray {on_ray:.2f} s ({args.num_tasks / on_ray:.0f} tasks/s); "
        f"Ray - one process = {(on_ray - local) * 1000 / args.num_tasks:+.2f} ms per task, "
        f"{(on_ray - local) * 1000 / count:+.0f} ms per chunk ({count} chunks); "
        f"ray.init of a local instance {ray_start:.1f} s (once per generate when no cluster); "
        f"cores={os.cpu_count()}"
    )


if __name__ == "__main__":
    main()
