"""Without a usable bubblewrap, an LLM teacher's code is refused (exit 2, one line, nothing
written) unless the run accepts the weaker level, which run.json and the card then say.

bubblewrap is hidden for real: the command runs in a private mount namespace where /dev/null
(missing) or a program that fails as bubblewrap does when namespaces are forbidden is mounted
over the `bwrap` binary, so the probe genuinely starts it and sees it fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.teachers.fake_openai import FakeOpenAI, Plans, gold_turns

pytestmark = pytest.mark.slow
KEY_ENV = "TOOLSCALE_TEST_KEY"
FORBIDDEN = (
    "bwrap: No permissions to create new namespace, likely because the kernel does not allow "
    "non-privileged user namespaces."
)
WHY = {"missing": "`bwrap` is not installed", "forbidden": f"`bwrap` failed: {FORBIDDEN}"}


def _can_hide() -> bool:
    try:
        done = subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


needs_hiding = pytest.mark.skipif(
    shutil.which("bwrap") is not None and not _can_hide(),
    reason="bwrap is installed and no private mount namespace can hide it",
)


def hidden(how: str, folder: Path, argv: list[str]) -> list[str]:
    """`argv` run where bwrap is missing or forbidden (see the module docstring)."""
    found = shutil.which("bwrap")
    if found is None:
        return argv  # already missing
    cover = "/dev/null"
    if how == "forbidden":
        cover = str(folder / "bwrap")
        Path(cover).write_text(f"#!/bin/sh\necho '{FORBIDDEN}' >&2\nexit 1\n")
        Path(cover).chmod(0o755)
    script = 'mount --bind "$0" "$1" && shift && exec "$@"'
    return ["unshare", "-m", "--", "sh", "-c", script, cover, os.path.realpath(found), *argv]


def generate(how: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, KEY_ENV: "sk-test", "HF_HUB_OFFLINE": "1"}
    env.pop("TOOLSCALE_SANDBOX_LEVEL", None)
    argv = [sys.executable, "-m", "toolscale", "generate", "--domains", "math", *args]
    return subprocess.run(
        hidden(how, tmp_path, argv), env=env, capture_output=True, text=True, timeout=300
    )


def validate(how: str, tmp_path: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("TOOLSCALE_SANDBOX_LEVEL", None)
    argv = [sys.executable, "-m", "toolscale", "validate", str(out), *args]
    return subprocess.run(
        hidden(how, tmp_path, argv), env=env, capture_output=True, text=True, timeout=300
    )


def openai(server: FakeOpenAI, out: Path) -> list[str]:
    return [
        *("--teacher", "openai", "--base-url", server.base_url, "--model", "fake-model"),
        *("--api-key-env", KEY_ENV, "--num-tasks", "1", "--out", str(out)),
        *("--request-timeout", "10", "--max-retries", "0"),
    ]


@needs_hiding
@pytest.mark.parametrize("how", ["missing", "forbidden"])
def test_an_llm_teacher_over_code_is_refused_in_one_line_and_nothing_is_written(how, tmp_path):
    turns = gold_turns("math", 1)  # task 0's gold route is code_executor
    with FakeOpenAI(Plans(turns)) as server:
        out = tmp_path / "out"
        done = generate(how, tmp_path, *openai(server, out))
        assert server.plans.requests == 0
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("error: model-written code would run at")
    assert "isolation level 'unshare" in lines[0] and WHY[how] in lines[0]
    assert "apt-get install bubblewrap" in lines[0]
    assert lines[0].endswith("--isolation unshare")
    assert not out.exists()


@needs_hiding
def test_with_the_opt_in_it_runs_and_run_json_and_the_card_warn(tmp_path):
    turns = gold_turns("math", 1)
    with FakeOpenAI(Plans(turns)) as server:
        out = tmp_path / "out"
        done = generate("missing", tmp_path, *openai(server, out), "--isolation", "unshare")
    assert done.returncode == 0, done.stderr
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["isolation"] == "unshare"
    assert run["isolation"].startswith("unshare")
    assert run["counts"]["verified"] == 1  # its program ran, at the weaker level
    assert run["isolation_warning"].startswith("model-written code (math/code_executor) ran at")
    card = (out / "README.md").read_text()
    assert "> **Warning: weaker sandbox.**" in card and run["isolation_warning"] in card
    # replaying those rows runs the model's program again: refused, unless accepted the same way
    refused = validate("missing", tmp_path, out)
    lines = (refused.stdout + refused.stderr).strip().splitlines()
    assert refused.returncode == 2 and len(lines) == 1, refused.stdout + refused.stderr
    assert lines[0].startswith("error: model-written code would run at")
    accepted = validate("missing", tmp_path, out, "--isolation", "unshare")
    assert accepted.returncode == 0 and "rows valid" in accepted.stdout + accepted.stderr


@needs_hiding
def test_the_reference_teacher_still_runs_its_own_programs(tmp_path):
    out = tmp_path / "out"
    done = generate("missing", tmp_path, "--num-tasks", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    run = json.loads((out / "run.json").read_text())
    assert run["isolation"].startswith("unshare") and "isolation_warning" not in run
    assert f"isolation: {run['isolation']}." in (out / "README.md").read_text()
