"""A run on a machine without a usable bubblewrap warns once, not once per worker process."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def test_generate_warns_once_about_a_lower_isolation_level(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()  # a PATH with neither bwrap nor unshare on it: the probe falls to rlimits
    env = {**os.environ, "PATH": str(empty), "HF_HUB_OFFLINE": "1"}
    env.pop("TOOLSCALE_SANDBOX_LEVEL", None)
    args = ["generate", "--domains", "math", "--num-tasks", "6", "--detours", "--workers", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "toolscale", *args, "--out", str(tmp_path / "out")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("bubblewrap is not usable here") == 1, done.stderr
    run = (tmp_path / "out" / "run.json").read_text()
    assert '"isolation": "rlimits' in run
