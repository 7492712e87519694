"""The local teacher's speed: tasks per minute of `toolscale generate --teacher local`, end to end.

Runs the command a user runs (server start-up, the tasks, the card) in a subprocess into a fresh
folder and reads the counts back from run.json; extra arguments go to `generate` unchanged, so
settings can be compared in one invocation on one machine (rates move 3x between machines).

    .venv/bin/python benchmarks/local_teacher.py --num-tasks 3
    .venv/bin/python benchmarks/local_teacher.py --num-tasks 3 -- --max-tokens 1024
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(num_tasks: int, extra: list[str], timeout_s: float) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        command = [sys.executable, "-m", "toolscale", "generate", "--teacher", "local"]
        command += ["--domains", "math", "--num-tasks", str(num_tasks), "--out", str(out), *extra]
        started = time.perf_counter()
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                env={**os.environ, "HF_HUB_OFFLINE": "1"},
                timeout=timeout_s,
            )
        except subprocess.TimeoutExpired:  # the child is killed; its server dies with it
            return {"tasks": num_tasks, "finished": False, "wall_s": timeout_s}
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"generate failed ({done.returncode}): {done.stderr[-2000:]}")
        summary = json.loads((out / "run.json").read_text())
    teacher = summary["endpoints"]["teacher"]
    return {
        "finished": True,
        "wall_s": round(wall, 1),
        "tasks": summary["counts"]["sampled"],
        "tasks_per_min": round(summary["counts"]["sampled"] / wall * 60, 2),
        "verified": summary["counts"]["verified"],
        "requests": teacher["requests"],
        "completion_tokens": teacher["completion_tokens"],
        "completion_tok_per_s": round(teacher["completion_tokens"] / wall, 1),
        "max_tokens": summary["config"]["max_tokens"],
        "concurrency": summary["config"]["concurrency"],
        "stderr_lines": len(done.stderr.splitlines()),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=3)
    parser.add_argument("--timeout-s", type=float, default=900.0)
    parser.add_argument("extra", nargs="*", help="after --: more generate options")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    result = run(args.num_tasks, args.extra, args.timeout_s)
    print(json.dumps({**result, "load_before": load, "load_after": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
