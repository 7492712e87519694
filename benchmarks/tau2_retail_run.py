"""A reference-teacher run over tau2-bench's retail tasks against one over a built-in stateful
domain of the same size: wall time, traces per second, verified share, peak memory of the run
process, and the size of what was written (the retail database is stored once, in `worlds`).

    TOOLSCALE_TAU2_SRC=/path/to/tau2-bench python benchmarks/tau2_retail_run.py [TASKS]
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CODE = """
import json, resource, sys, time
from pathlib import Path
from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
domain, tasks, out = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
start = time.perf_counter()
summary = generate(GenerateConfig(domains=[domain], num_tasks=tasks, out=out))
wall = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"wall_s": wall, "counts": summary["counts"], "peak_rss_mb": rss}))
"""


def size_kb(folder: Path) -> dict[str, int]:
    return {
        config.name: sum(f.stat().st_size for f in config.glob("*.parquet")) // 1024
        for config in sorted((folder / "data").iterdir())
    }


def main() -> None:
    tasks = int(sys.argv[1]) if len(sys.argv) > 1 else 114
    with tempfile.TemporaryDirectory() as tmp:
        for domain in ("railway", "tau2:retail"):
            out = Path(tmp) / domain.replace(":", "_")
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", CODE, domain, str(tasks), str(out)],
                capture_output=True,
                text=True,
                check=True,
            )
            total = time.perf_counter() - start
            result = json.loads(done.stdout.strip().splitlines()[-1])
            counts = result["counts"]
            print(
                f"{domain:<12} tasks {counts['sampled']:>4}  verified {counts['verified']:>4}/"
                f"{counts['attempts']:<4} generate {result['wall_s']:6.1f} s "
                f"({counts['attempts'] / result['wall_s']:.2f} traces/s; process {total:.1f} s)  "
                f"peak RSS {result['peak_rss_mb']:.0f} MB  written KB {size_kb(out)}"
            )
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"largest child process RSS: {children:.0f} MB")


if __name__ == "__main__":
    main()
