"""Where the running toolscale came from, for run.json: its version, its libraries', and the git
commit of its source tree."""

from __future__ import annotations

import platform
import subprocess
from functools import cache
from importlib.metadata import version
from pathlib import Path


@cache
def source_commit() -> str:
    """The commit of the checkout toolscale runs from, with "+dirty" when it has uncommitted
    changes; "not a git checkout" for an installed wheel (then the version identifies it)."""
    root = Path(__file__).resolve().parents[2]  # toolscale/config/provenance.py -> the checkout
    if not (root / ".git").exists():
        return "not a git checkout"
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown (git failed)"
    return commit + ("+dirty" if dirty else "")


def run_versions() -> dict[str, str]:
    """The versions of toolscale, Python and the libraries that write rows, and the commit."""
    return {
        "toolscale": version("toolscale"),
        "python": platform.python_version(),
        "datasets": version("datasets"),
        "pyarrow": version("pyarrow"),
        "toolscale_commit": source_commit(),
    }
