"""code_executor latency: `run_code("print(1)")` against a bare interpreter spawn, same run.

Interleaves, in rounds, a bare `<interpreter> -c 'print(1)'` spawn (the real binary behind
`sys.executable`, with its normal start-up: site-packages included; `python3` on PATH may be a
slow pyenv shim, so it is not used), the same with `-I -S` (the sandbox's own flags),
`run_code` through the warm pool (what code_executor does), and `run_code` with a cold start
each time (the spare discarded first). Reports medians and the
ratio to the bare spawn; the target is warm <= 3x bare.

    .venv/bin/python benchmarks/sandbox_latency.py --repeats 200
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

from toolscale.sandbox.code import run_code
from toolscale.sandbox.command import interpreter
from toolscale.sandbox.isolation import isolation_level
from toolscale.sandbox.warm import pool


def _bare() -> None:
    subprocess.run([interpreter(), "-c", "print(1)"], check=True, capture_output=True)


def _bare_isolated() -> None:
    # The same flags as the sandboxed interpreter: what the sandboxing itself adds is warm - this.
    subprocess.run([interpreter(), "-I", "-S", "-c", "print(1)"], check=True, capture_output=True)


def _warm() -> None:
    result = run_code("print(1)")
    if result.stdout != "1\n":
        raise RuntimeError(f"unexpected result: {result}")


def _cold() -> None:
    pool().shutdown()  # no spare waiting: this call starts its sandbox from nothing
    _warm()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--pause-ms", type=float, default=20.0, help="between rounds")
    args = parser.parse_args()
    print(f"isolation level: {isolation_level()}; interpreter: {interpreter()}")
    runs: dict[str, list[float]] = {"bare": [], "bare -I -S": [], "warm": [], "cold": []}
    _warm()  # probe the isolation level and start the first spare
    for _ in range(args.repeats):
        steps = [("bare", _bare), ("bare -I -S", _bare_isolated), ("warm", _warm), ("cold", _cold)]
        for name, fn in steps:
            # A pause lets the spare finish starting, as it does between a model's tool calls.
            time.sleep(args.pause_ms / 1000)
            start = time.perf_counter()
            fn()
            runs[name].append((time.perf_counter() - start) * 1000)
    bare = statistics.median(runs["bare"])
    for name, values in runs.items():
        median, p90 = statistics.median(values), statistics.quantiles(values, n=10)[-1]
        ratio = median / bare
        print(f"{name:>10}: median {median:6.2f} ms, p90 {p90:6.2f} ms, ratio to bare {ratio:4.2f}")
    ratio = statistics.median(runs["warm"]) / bare
    print(f"warm / bare = {ratio:.2f} (target <= 3): {'met' if ratio <= 3 else 'NOT met'}")


if __name__ == "__main__":
    main()
