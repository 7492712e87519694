"""Every user mistake we know of is one `error:` line on stderr, exit 2, and nothing written:
the issue's list (issue 50) and the ones found since, run as a user runs them, as the script."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # one small generate run, then a process per mistake

# name -> (arguments, words the line must hold). Run in a folder holding `good` (a finished
# math output), `exported` (an SFT export of it), `foreign` (a folder of someone's notes),
# `afile` (a plain file) and `bad.yaml` (a run config with a misspelt key).
MISTAKES = {
    "unknown domain": (["generate", "--domains", "math,nope", "--out", "o"], "unknown domain"),
    "no tasks": (["generate", "--num-tasks", "0", "--out", "o"], "--num-tasks must be at least 1"),
    "bad timeout": (["generate", "--call-timeout", "-1", "--out", "o"], "--call-timeout must be"),
    "seed not a number": (["generate", "--seed", "abc", "--out", "o"], "'--seed'"),
    "missing OUT": (["generate", "--domains", "math", "--num-tasks", "2"], "--out is required"),
    "OUT under a file": (["generate", "--num-tasks", "2", "--out", "afile/sub"], "not writable"),
    "OUT of someone else": (["generate", "--out", "foreign"], "not a toolscale output"),
    "OUT already a run": (["generate", "--domains", "math", "--out", "good"], "--resume"),
    "resume changes the run": (
        ["generate", "--domains", "math", "--num-tasks", "3", "--out", "good", "--resume"],
        "num_tasks",
    ),
    "OUT of another command": (["validate", "exported"], "not a toolscale output"),
    "misspelt option": (["generate", "--num-task", "3", "--out", "o"], "--num-tasks"),
    "misspelt command": (["genrate", "--out", "o"], "'generate'"),
    "unknown config key": (["generate", "--config", "bad.yaml"], "unknown option 'num_task'"),
    "missing config file": (["generate", "--config", "nope.yaml"], "nope.yaml"),
    "bad reward weight": (["generate", "--reward-weights", "w_o=x", "--out", "o"], "w_o"),
    "LLM teacher, no endpoint": (["generate", "--teacher", "openai", "--out", "o"], "--base-url"),
    "unknown export format": (["export", "good", "d", "--format", "csv"], "unknown --format"),
    "missing argument": (["export", "good"], "Missing argument 'dest'"),
    "export over a used folder": (
        ["export", "good", "exported", "--format", "sft"],
        "already holds files; choose another folder or remove it (--overwrite",
    ),
    "bad repo id": (["push", "good", "--repo-id", "not an id"], "ORG/NAME"),
    "bad domain name": (["new-domain", "Lib!", "--into", "d"], "lower-case Python identifier"),
}


def tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every path under `root` with its size and modification time."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
    }


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("start")
    for argv in (
        ["generate", "--domains", "math", "--num-tasks", "2", "--out", "good"],
        ["export", "good", "exported", "--format", "sft"],
    ):
        subprocess.run([sys.executable, "-m", "toolscale", *argv], cwd=root, check=True)
    (root / "foreign").mkdir()
    (root / "foreign" / "notes.txt").write_text("mine")
    (root / "afile").write_text("x")
    (root / "bad.yaml").write_text("num_task: 3\nout: o\n")
    return root


def test_the_list_holds_the_eighteen_of_issue_50_and_more():
    assert len(MISTAKES) >= 18


@pytest.mark.parametrize("name", list(MISTAKES))
def test_a_mistake_is_one_error_line_exit_2_and_nothing_written(name, start, tmp_path):
    args, words = MISTAKES[name]
    here = tmp_path / "here"
    shutil.copytree(start, here)
    before = tree(here)
    done = subprocess.run(
        [sys.executable, "-m", "toolscale", *args],
        cwd=here,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(Path.cwd())},
    )
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert words in lines[0], lines[0]
    assert done.returncode == 2 and done.stdout == ""
    assert tree(here) == before
