"""Sandbox worker start-up with a tau2 domain against a built-in one, and what importing tau2's
package would cost.

Each figure is the median wall time of fresh interpreters that do what a worker does before its
first call: import the worker module, then load the domain (`get_domain`). `import tau2` is the
package's own __init__ (runner, agents, litellm), which toolscale's workers skip.

    TOOLSCALE_TAU2_SRC=/path/to/tau2-bench python benchmarks/tau2_worker_startup.py [REPEATS]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

WORKER = (
    "from toolscale.sandbox.worker import Worker; from toolscale.core.registry import get_domain"
)
CASES = {
    "python -c pass": "pass",
    "worker, railway": f"{WORKER}; get_domain('railway')",
    "worker, bank": f"{WORKER}; get_domain('bank')",
    "worker, tau2:retail": f"{WORKER}; get_domain('tau2:retail')",
    "worker, tau2:airline": f"{WORKER}; get_domain('tau2:airline')",
    "import tau2 (its __init__)": "import sys; sys.path.insert(0, '{src}'); import tau2",
}


def wall(code: str) -> float | None:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return time.perf_counter() - start if done.returncode == 0 else None


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    src = os.environ.get("TOOLSCALE_TAU2_SRC", "")
    src = os.path.join(src, "src") if os.path.isdir(os.path.join(src, "src")) else src
    results = {}
    for name, code in CASES.items():
        times = [wall(code.format(src=src)) for _ in range(repeats)]
        ok = [t for t in times if t is not None]
        results[name] = statistics.median(ok) if ok else None
        shown = f"{results[name]:.2f} s" if ok else "fails (see docs/tau2.md)"
        print(f"{name:<28} {shown}  (median of {len(ok)}/{repeats})")
    base = results["worker, railway"]
    for name in ("worker, tau2:retail", "worker, tau2:airline"):
        if results[name] and base:
            print(f"{name} / worker, railway = {results[name] / base:.2f}x")


if __name__ == "__main__":
    main()
