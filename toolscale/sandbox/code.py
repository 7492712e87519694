"""Run untrusted Python code in a separate, resource-limited process (first version).

Covered: a separate interpreter (`python -I -S`: isolated mode, no site-packages, so the code
sees the standard library only), an empty environment, a fresh temporary working directory, a
wall-clock timeout that kills the whole process group, limits on CPU seconds, address space, file
size and open files (set by a short bootstrap before the code runs), and output capped at
`max_output` bytes. Not covered yet (see the sandbox hardening issue): network, PID and filesystem
isolation (bubblewrap), process-count limits. Never raises for what the code did.

The bootstrap, rather than a `preexec_fn`, applies the limits so that the child is started with
vfork/posix_spawn instead of a full fork of the (large) worker process: about 8 ms per run here
instead of about 30 ms.
"""

from __future__ import annotations

import os
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


_BOOTSTRAP = """\
import resource as r, sys
cpu, memory = int(sys.argv[1]), int(sys.argv[2]) << 20
r.setrlimit(r.RLIMIT_CPU, (cpu, cpu + 1))
r.setrlimit(r.RLIMIT_AS, (memory, memory))
r.setrlimit(r.RLIMIT_FSIZE, (16 << 20, 16 << 20))
r.setrlimit(r.RLIMIT_NOFILE, (64, 64))
code = sys.argv[3]
del r, cpu, memory
sys.argv = ["<code>"]
exec(compile(code, "<code>", "exec"), {"__name__": "__main__"})
"""
MAX_CODE_CHARS = 100_000


def _decode(data: bytes, cap: int) -> tuple[str, bool]:
    return data[:cap].decode("utf-8", "replace"), len(data) > cap


def run_code(
    code: str, *, timeout_s: float = 10, memory_mb: int = 512, max_output: int = 16_384
) -> ExecResult:
    """Run `code` with `python -I -S` in a fresh temporary folder and return what happened."""
    if len(code) > MAX_CODE_CHARS:
        return ExecResult(
            "", f"code too long (at most {MAX_CODE_CHARS} characters)", None, False, None, False
        )
    limits = [str(max(1, int(timeout_s))), str(memory_mb)]
    with tempfile.TemporaryDirectory(prefix="toolscale-code-") as workdir:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _BOOTSTRAP, *limits, code],
            cwd=workdir,
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": workdir},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
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
