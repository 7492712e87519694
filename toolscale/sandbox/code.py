"""Run untrusted Python code in a separate, resource-limited process (first version).

Covered: a separate interpreter (`python3 -I`, no site, no user env), an empty environment, a
fresh temporary working directory, a wall-clock timeout that kills the whole process group, limits
on CPU seconds, address space, file size and open files, and output capped at `max_output` bytes.
Not covered yet (see the sandbox hardening issue): network, PID and filesystem isolation
(bubblewrap), process-count limits. Never raises for what the code did.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass


@dataclass(frozen=True)
class ExecResult:
    stdout: str
    stderr: str
    exit_code: int | None
    timed_out: bool
    killed_by: str | None
    truncated: bool

    def as_tool_output(self) -> str:
        """What the model sees: stdout, then stderr and the reason when the program failed."""
        parts = [self.stdout]
        if self.exit_code not in (0, None) or self.stderr:
            parts.append(self.stderr)
        if self.timed_out:
            parts.append("[killed: time limit exceeded]")
        elif self.killed_by:
            parts.append(f"[killed by {self.killed_by}]")
        if self.truncated:
            parts.append("[output truncated]")
        return "\n".join(p for p in parts if p).strip() or "[no output]"


def _limits(memory_mb: int, cpu_s: int) -> None:
    os.setsid()
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 << 20, 16 << 20))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def _decode(data: bytes, cap: int) -> tuple[str, bool]:
    return data[:cap].decode("utf-8", "replace"), len(data) > cap


def run_code(
    code: str, *, timeout_s: float = 10, memory_mb: int = 512, max_output: int = 16_384
) -> ExecResult:
    """Run `code` with `python3 -I` in a fresh temporary folder and return what happened."""
    with tempfile.TemporaryDirectory(prefix="toolscale-code-") as workdir:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-c", code],
            cwd=workdir,
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": workdir},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=lambda: _limits(memory_mb, max(1, int(timeout_s))),
        )
        timed_out = False
        try:
            out, err = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
    stdout, cut_out = _decode(out, max_output)
    stderr, cut_err = _decode(err, max_output)
    killed_by = None
    if proc.returncode is not None and proc.returncode < 0:
        killed_by = signal.Signals(-proc.returncode).name
    return ExecResult(
        stdout=stdout,
        stderr=stderr,
        exit_code=proc.returncode,
        timed_out=timed_out,
        killed_by=killed_by,
        truncated=cut_out or cut_err,
    )
