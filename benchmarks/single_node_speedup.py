"""Single-node speed-up: reference generation of two source trees, measured in one run.

Runs `benchmarks/generate_throughput.py`'s measurement (`toolscale.pipeline.generate.generate`, the
four
bundled domains or `--domains`, `--detours`, reference teacher) in a fresh interpreter per try,
alternating between the trees given (e.g. this checkout and a `git worktree add /tmp/base bf4913a`
of an older commit), so that both see the same machine load; reports each tree's median verified
traces/s and tasks/s, CPU seconds per task (the pipeline process and its sandbox workers) and the
ratio to the first tree.

    .venv/bin/python benchmarks/single_node_speedup.py /tmp/base . --num-tasks 1000 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# Run inside the tree's interpreter: one generate, then its figures as one JSON line.
_ONE = """
import json, resource, sys, time
from pathlib import Path
from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
out, n, workers = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
config = GenerateConfig(domains=sys.argv[4].split(","), num_tasks=n, out=out, detours=True,
                        workers=workers)
start = time.perf_counter()
summary = generate(config)
wall = time.perf_counter() - start
cpu = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
print(json.dumps({"wall": wall, "verified": summary["counts"]["verified"],
                  "cpu_self": cpu[0].ru_utime + cpu[0].ru_stime,
                  "cpu_children": cpu[1].ru_utime + cpu[1].ru_stime}))
"""


def one(tree: Path, num_tasks: int, workers: int, domains: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        arguments = [str(Path(tmp, "out")), str(num_tasks), str(workers), domains]
        done = subprocess.run(
            [sys.executable, "-c", _ONE, *arguments],
            capture_output=True,
            text=True,
            env=env,
            cwd=tree,
            check=True,
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("trees", nargs="+", type=Path, help="source trees; the first is the base")
    parser.add_argument("--num-tasks", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--domains", default="railway,bank,math,knowledge")
    args = parser.parse_args()
    trees = [t.resolve() for t in args.trees]
    runs: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    for repeat in range(args.repeats):
        for tree in trees:
            figures = one(tree, args.num_tasks, args.workers, args.domains)
            runs[tree].append(figures)
            print(
                f"run {repeat} {tree}: {figures['wall']:.2f} s, {figures['verified']} verified, "
                f"CPU {figures['cpu_self']:.1f} s + workers {figures['cpu_children']:.1f} s",
                flush=True,
            )
    base = None
    for tree in trees:
        wall = statistics.median(r["wall"] for r in runs[tree])
        verified = statistics.median(r["verified"] / r["wall"] for r in runs[tree])
        cpu = statistics.median((r["cpu_self"] + r["cpu_children"]) for r in runs[tree])
        base = base or verified
        print(
            f"median {tree}: {verified:.0f} verified traces/s, "
            f"{args.num_tasks / wall:.0f} tasks/s, "
            f"{cpu * 1000 / args.num_tasks:.1f} ms CPU per task; x{verified / base:.2f} the first"
        )
    print(
        f"num_tasks={args.num_tasks} workers={args.workers} domains={args.domains} "
        f"cores={os.cpu_count()}"
    )


if __name__ == "__main__":
    main()
