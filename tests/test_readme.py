"""The README's first command really produces a >= 200-task dataset offline (setup steps aside)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def test_readme_opens_with_exactly_two_commands_and_ci_runs_the_second():
    commands = readme_commands()
    assert len(commands) == 2
    assert "generate" in commands[0] and "pytest" in commands[1]
    # CI runs its set-up, then lint and types, then its test step, in that order.
    setup, test = commands[1].rsplit(" && ", 1)
    ci = (ROOT / ".ci" / "run").read_text()
    assert setup in ci and test in ci and ci.index(setup) < ci.index(test)


@pytest.mark.slow
def test_first_command_generates_a_valid_200_task_dataset(tmp_path):
    steps = [s.strip() for s in readme_commands()[0].split("&&")]
    toolscale_steps = [shlex.split(s) for s in steps if s.startswith(".venv/bin/toolscale")]
    assert [s[1] for s in toolscale_steps] == ["generate", "validate"]
    for argv in toolscale_steps:  # the setup steps are what this test process runs in already
        subprocess.run(
            [sys.executable, "-m", "toolscale", *argv[1:]],
            cwd=tmp_path,
            check=True,
            env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"},
            capture_output=True,
        )
    export = next(shlex.split(c, comments=True) for c in quickstart() if " export " in c)
    subprocess.run([sys.executable, "-m", "toolscale", *export[1:]], cwd=tmp_path, check=True)
    assert (tmp_path / "out/sft/sft.jsonl").stat().st_size > 0
    run = json.loads((tmp_path / "out/demo/run.json").read_text())
    assert run["counts"]["sampled"] >= 200
    installed = {e.name for e in entry_points(group="toolscale.domains")}  # not test fixtures
    assert set(run["config"]["domains"]) == installed
    assert all(d["verified"] > 0 for d in run["per_domain"].values())


def quickstart() -> list[str]:
    """The Quickstart's commands, continuation lines joined."""
    text = (ROOT / "README.md").read_text()
    block = text.split("## Quickstart\n", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def test_a_screen_sized_quickstart_follows_the_two_commands():
    text = (ROOT / "README.md").read_text()
    assert text.index("## Quickstart") < text.index("```bash\n", text.index("```bash\n") + 1)
    commands = quickstart()
    assert len(commands) <= 10
    steps = " ".join(commands)
    for step in ("toolscale view", "benchmarks/nano_orchestrator.py", "toolscale-train evaluate"):
        assert step in steps
    assert "--index-url https://download.pytorch.org/whl/cpu" in steps  # CPU torch on stock PyPI


def test_the_readme_reads_on_a_screen_and_the_reference_is_in_docs_cli():
    import re

    text = (ROOT / "README.md").read_text()
    first = text.split("```bash\n", 1)[1].split("```", 1)[0]
    for line in text.replace(first, "").splitlines():
        if line.startswith("|"):
            cells = re.split(r"(?<!\\)\|", line)[1:-1]
            assert max(len(c.strip()) for c in cells) <= 200, line[:80]
        assert not ("&&" in line and len(line) >= 250), line[:80]
    from toolscale.cli.main import app

    reference = (ROOT / "docs" / "cli.md").read_text()
    for command in app.registered_commands:
        name = command.name or command.callback.__name__
        assert f"\n## {name}\n" in reference and f"`toolscale {name}`" in text, name
