"""Stateful breadth vs pace: all stateful domains now against railway alone on an older commit.

Issue 24 asks that reference generation over every stateful domain runs at no less than 0.8x the
verified traces/s of railway alone on the code before the issue, measured in the same run. The
old commit is extracted into a temporary folder (`git archive`), and the two runs alternate, each
in its own process with that tree first on `PYTHONPATH` (the installed entry points name modules;
the tree on the path decides which code they load) and `-P`, so that the folder the benchmark is
run from does not come first (before 2026-12-01 it did: `python -c` put the checkout ahead of the
old tree, and both runs measured today's code). Each child reports which tree it imported, and a
run that imported another one stops the benchmark. Medians over `--repeats`.

    .venv/bin/python benchmarks/stateful_breadth.py --baseline b81228e --num-tasks 1000 --repeats 3

`--also COMMIT` adds every stateful domain of today run on that commit (what a change gained).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One run in a child process: generate into a fresh folder, print the rate as JSON.
_CHILD = """
import json, sys, tempfile, time
from pathlib import Path
import toolscale
from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
domains, num_tasks, workers = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
with tempfile.TemporaryDirectory() as tmp:
    config = GenerateConfig(domains=domains, num_tasks=num_tasks, out=Path(tmp) / "out",
                            detours=True, workers=workers)
    start = time.perf_counter()
    summary = generate(config)
    elapsed = time.perf_counter() - start
print(json.dumps({"verified": summary["counts"]["verified"], "seconds": elapsed,
                  "tree": str(Path(toolscale.__file__).resolve().parent.parent)}))
"""


def extract(commit: str, into: Path) -> Path:
    """The tree of `commit` (its toolscale/ and domains/) in `into`."""
    archive = into / "tree.tar"
    subprocess.run(
        ["git", "-C", str(ROOT), "archive", "-o", str(archive), commit, "toolscale", "domains"],
        check=True,
    )
    with tarfile.open(archive) as tar:
        tar.extractall(into / commit, filter="data")
    return into / commit


def stateful_domains() -> list[str]:
    from toolscale.core.registry import get_domain, names

    return sorted(n for n in names() if get_domain(n).family == "stateful")


def run_once(tree: Path, domains: list[str], num_tasks: int, workers: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-P", "-c", _CHILD, ",".join(domains), str(num_tasks), str(workers)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["tree"]) != tree.resolve():
        sys.exit(f"the run meant for {tree} imported toolscale from {result['tree']}")
    return result["verified"] / result["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", default="b81228e", help="The commit before issue 24.")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="COMMIT",
        help="Also run every stateful domain of today on this commit (a change's before).",
    )
    parser.add_argument("--num-tasks", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    domains = stateful_domains()
    print(f"stateful domains now: {len(domains)} ({', '.join(domains)})", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        runs = [
            (f"railway alone @ {args.baseline}", extract(args.baseline, Path(tmp)), ["railway"])
        ]
        runs += [(f"all stateful @ {c}", extract(c, Path(tmp)), domains) for c in args.also]
        runs.append(("all stateful now", ROOT, domains))
        rates: dict[str, list[float]] = {label: [] for label, _, _ in runs}
        for repeat in range(args.repeats):
            for label, tree, names in runs:
                rates[label].append(run_once(tree, names, args.num_tasks, args.workers))
            shown = ", ".join(f"{label} {r[-1]:.0f}" for label, r in rates.items())
            print(f"run {repeat} (verified/s): {shown}", flush=True)
    medians = {label: statistics.median(r) for label, r in rates.items()}
    base = medians[runs[0][0]]
    for label, rate in medians.items():
        print(f"median {label}: {rate:.0f} verified/s, {rate / base:.2f}x the baseline")
    print(
        f"target: all stateful now >= 0.8x ({args.num_tasks} tasks, workers={args.workers}, "
        f"cores={os.cpu_count()})"
    )


if __name__ == "__main__":
    main()
