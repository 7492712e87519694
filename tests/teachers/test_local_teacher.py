"""`generate --teacher local` end to end: a real `transformers serve` process with SmolLM2-135M,
offline; real token usage and latencies in the rows; no server process left afterwards, also
after Ctrl-C (SIGINT) in the middle of the run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.signals import default_sigint

pytestmark = pytest.mark.slow
# A short conversation keeps the 135 M model's CPU time small.
SHORT = ("--max-turns", "2", "--max-tokens", "24", "--domains", "math")


def servers_of(parent: int) -> set[int]:
    """Pids of running `transformers serve` processes started by `parent`."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == parent and b"transformers" in cmdline and b" serve " in cmdline:
            found.add(int(entry.name))
    return found


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


def watch(proc: subprocess.Popen[str], until: float, stop_after_s: float | None = None):
    """Wait for `proc`, noting the servers it starts; SIGINT it `stop_after_s` seconds after
    its server appeared. Returns (server pids seen, stderr)."""
    seen: set[int] = set()
    first_seen = None
    while proc.poll() is None:
        assert time.monotonic() < until, "timed out"
        seen |= servers_of(proc.pid)
        if seen and first_seen is None:
            first_seen = time.monotonic()
        if stop_after_s is not None and first_seen and time.monotonic() - first_seen > stop_after_s:
            proc.send_signal(signal.SIGINT)
            stop_after_s = None
        time.sleep(0.2)
    return seen, Path(proc.args[-1]).with_suffix(".log").read_text()


def start(out: Path, num_tasks: int) -> subprocess.Popen[str]:
    """Run generate in the background; its stderr goes to OUT.log (a file, not a pipe that a
    long run could fill while nobody reads it)."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OPENAI_API_KEY": ""}
    with out.with_suffix(".log").open("w") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "toolscale", "generate", "--teacher", "local", *SHORT,
             "--num-tasks", str(num_tasks), "--out", str(out)],
            stdout=subprocess.DEVNULL, stderr=log, text=True, env=env, preexec_fn=default_sigint,
        )  # fmt: skip


def test_local_teacher_runs_offline_with_real_usage_and_leaves_no_server(tmp_path):
    proc = start(tmp_path / "out", 3)
    seen, stderr = watch(proc, time.monotonic() + 1500)
    assert proc.returncode == 0, stderr
    assert len(seen) == 1 and alive(seen) == set()
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["status"] == "complete" and run["counts"]["sampled"] == 3
    assert run["config"]["teacher"] == "local" and run["config"]["concurrency"] == 2
    rows = [
        r
        for config in ("traces", "rejected")
        for p in sorted((tmp_path / "out" / "data" / config).glob("*.parquet"))
        for r in pq.read_table(p).to_pylist()
    ]
    assert len(rows) == 3
    for row in rows:
        assert row["teacher"] == "local:smollm2-135m-instruct"
        assert row["teacher_prompt_tokens"] > 100  # the policy and tool schemas alone
        assert row["teacher_completion_tokens"] > 0 and row["teacher_latency_ms"] > 0
    teacher = run["endpoints"]["teacher"]
    assert teacher["prompt_tokens"] == sum(r["teacher_prompt_tokens"] for r in rows)


def test_ctrl_c_mid_run_stops_the_server(tmp_path):
    proc = start(tmp_path / "out", 20)
    # SIGINT 40 s after the server process appeared: it has loaded and is answering by then.
    seen, _ = watch(proc, time.monotonic() + 900, stop_after_s=40)
    assert proc.returncode != 0
    assert len(seen) == 1 and alive(seen) == set()
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["status"] == "interrupted"
