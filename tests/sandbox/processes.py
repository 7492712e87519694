"""Test helper: find sandbox processes in the host's process table by their command line."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from toolscale.sandbox.warm import TAG_PREFIX


def cmdlines() -> dict[int, str]:
    """Every process's command line, arguments joined by spaces and ending with one."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:  # exited while we looked
                continue
    return {pid: line.decode(errors="replace") for pid, line in found.items()}


def sandbox_processes(owners: Iterable[int]) -> list[str]:
    """Command lines of the sandbox processes started by the processes `owners`."""
    prefixes = [f"{TAG_PREFIX}{owner}-" for owner in owners]
    return [line for line in cmdlines().values() if any(p in line for p in prefixes)]
