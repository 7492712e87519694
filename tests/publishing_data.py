"""A small real dataset for the publishing tests, generated through the command line.

24 tasks over the four bundled domains with detours and seed 5: expert-1, asked math task 3's
question on the expert route, answers it wrongly ("The answer is -1.11."), so `rejected` holds
a real outcome failure as well.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pyarrow.parquet as pq

DOMAINS = "railway,bank,math,knowledge"
NUM_TASKS = 24


def generate(out: Path) -> Path:
    args = ["generate", "--domains", DOMAINS, "--num-tasks", str(NUM_TASKS), "--detours"]
    args += ["--seed", "5", "--out", str(out)]
    result = subprocess.run(
        [sys.executable, "-m", "toolscale", *args], capture_output=True, text=True, timeout=600
    )
    if result.returncode != 0:
        raise AssertionError(result.stderr)
    return out


@cache
def shared() -> Path:
    """One generated dataset per test process, shared read-only by the publishing tests (a test
    that changes files works on a `copy`)."""
    root = Path(tempfile.mkdtemp(prefix="toolscale-publishing-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return generate(root / "out")


def copy(source: Path, dest: Path) -> Path:
    shutil.copytree(source, dest)
    return dest


def rows(out: Path, config: str) -> list[dict]:
    return [
        row
        for path in sorted((out / "data" / config).glob("*.parquet"))
        for row in pq.read_table(path).to_pylist()
    ]
