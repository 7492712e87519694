"""Reference generation throughput: verified traces per second, 4 domains, --detours.

Runs `toolscale.pipeline.generate.generate` (the library function behind the CLI) several times
into fresh
folders and reports the median rate; tool calls execute in the sandbox worker processes.

    .venv/bin/python benchmarks/generate_throughput.py --num-tasks 2000 --repeats 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    rates, task_rates = [], []
    for repeat in range(args.repeats):
        with tempfile.TemporaryDirectory() as tmp:
            config = GenerateConfig(
                domains=["railway", "bank", "math", "knowledge"],
                num_tasks=args.num_tasks,
                out=Path(tmp) / "out",
                detours=True,
                workers=args.workers,
            )
            start = time.perf_counter()
            summary = generate(config)
            elapsed = time.perf_counter() - start
        verified = summary["counts"]["verified"]
        rates.append(verified / elapsed)
        task_rates.append(args.num_tasks / elapsed)
        print(
            f"run {repeat}: {args.num_tasks} tasks, {summary['counts']['attempts']} attempts, "
            f"{verified} verified in {elapsed:.2f} s = {verified / elapsed:.0f} verified traces/s"
        )
    print(
        f"median: {statistics.median(rates):.0f} verified traces/s, "
        f"{statistics.median(task_rates):.0f} tasks/s "
        f"(workers={args.workers}, cores={os.cpu_count()})"
    )


if __name__ == "__main__":
    main()
