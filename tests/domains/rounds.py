"""A domain's generate -> validate round through the command line, as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from toolscale.core.contract import Domain
from toolscale.core.ids import item_rng


def toolscale(*args: str) -> str:
    """Run `toolscale ARGS` (the installed domains' entry points); its output, or a failed test."""
    done = subprocess.run(
        [sys.executable, "-m", "toolscale", *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def gold_round(domain: str, out: Path, num_tasks: int = 16) -> None:
    """Generate `num_tasks` gold attempts of `domain` into `out`: every one verifies, and the
    output validates."""
    said = toolscale(
        "generate", "--domains", domain, "--num-tasks", str(num_tasks), "--out", str(out)
    )
    assert f"{num_tasks} tasks, {num_tasks} verified traces, 0 rejected" in " ".join(said.split())
    assert "rows valid" in toolscale("validate", str(out))


def gold_tools(domain: Domain) -> set[str]:
    """The tools the gold paths of one draw of each of `domain`'s templates call."""
    return {
        action.name
        for i, kind in enumerate(domain.templates)
        for action in domain.sample_named(item_rng(domain.name, 0, i), 0, i, kind).gold_actions
    }
