"""Reference generation throughput of two checkouts, measured in one run, in turns.

Runs `generate` (reference teacher, `--detours`) in a fresh process per run, alternating between
this checkout and `--against DIR` (e.g. an older commit unpacked with `git archive`), and reports
each run's verified traces per second of wall time and per second of CPU (the run's process and
its sandbox workers), then the median of each checkout and the median of the ratios of the
runs taken side by side. On a machine shared with other jobs the wall rate moves with their
load; the CPU rate and the paired ratios move less.

    mkdir /tmp/base && git archive 7ca3a35 | tar -x -C /tmp/base
    .venv/bin/python benchmarks/throughput_versus.py --against /tmp/base --repeats 5
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

RUN = """
import json, sys, tempfile, time
from pathlib import Path
from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
with tempfile.TemporaryDirectory() as tmp:
    config = GenerateConfig(domains=sys.argv[1].split(","), num_tasks=int(sys.argv[2]),
                            out=Path(tmp) / "out", detours=True)
    start = time.perf_counter()
    counts = generate(config)["counts"]
print(json.dumps({"verified": counts["verified"], "seconds": time.perf_counter() - start}))
"""


def one(tree: Path, domains: str, tasks: int) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        [sys.executable, "-c", RUN, domains, str(tasks)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    row = json.loads(result.stdout.strip().splitlines()[-1])
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {**row, "wall_rate": row["verified"] / row["seconds"], "cpu_rate": row["verified"] / cpu}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, required=True, help="the other checkout")
    parser.add_argument("--domains", default="bank,railway")
    parser.add_argument("--num-tasks", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees = {"this": here, "against": args.against.resolve()}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for repeat in range(args.repeats):
        for name, tree in trees.items() if repeat % 2 == 0 else reversed(trees.items()):
            row = one(tree, args.domains, args.num_tasks)
            runs[name].append(row)
            print(
                f"{name} run {repeat}: {row['verified']} verified in {row['seconds']:.1f} s: "
                f"{row['wall_rate']:.1f}/s wall, {row['cpu_rate']:.1f}/CPU s",
                flush=True,
            )
    for name, rows in runs.items():
        print(
            f"{name}: median {statistics.median(r['wall_rate'] for r in rows):.1f} verified "
            f"traces/s, {statistics.median(r['cpu_rate'] for r in rows):.1f} per CPU second"
        )
    for rate in ("wall_rate", "cpu_rate"):
        pairs = [a[rate] / b[rate] for a, b in zip(runs["this"], runs["against"], strict=True)]
        shown = ", ".join(f"{p:.2f}" for p in pairs)
        print(f"this / against, {rate}: median {statistics.median(pairs):.2f} ({shown})")


if __name__ == "__main__":
    main()
