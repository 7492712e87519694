"""Run untrusted Python code in an isolated, resource-limited interpreter and report what it did.

`run_code` hands the code to a sandboxed interpreter from the warm pool (`toolscale.sandbox.warm`)
at the strongest isolation level this machine allows (`toolscale.sandbox.isolation`; what each
level covers and what it does not is in docs/sandbox.md). The bootstrap inside limits CPU seconds,
address space, file size, open files and (under a dedicated uid) the number of processes and
threads; here the call is bounded by a wall-clock timeout that kills every process of the
sandbox, and the output is capped. It never raises for what the code did: a crash, a timeout, a
signal or too much output is a field of the `ExecResult`.
"""

from __future__ import annotations

import math
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, cast

from toolscale.sandbox.warm import Sandbox, pool

if TYPE_CHECKING:
    from _typeshed import FileDescriptorLike

MAX_CODE_CHARS = 100_000
# Processes plus threads a program may have (enforced under a dedicated uid only).
MAX_PROCESSES = 64
# Output beyond `max_output` is read and dropped, up to this many bytes in all; then the program
# is killed, so that a program printing gigabytes costs milliseconds, not a gigabyte of memory.
DRAIN_LIMIT = 4 << 20
MEMORY_MB = 512  # a program's address space, by default
MAX_OUTPUT = 16_384  # bytes of stdout (and of stderr) kept, by default


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


@dataclass
class _Output:
    data: bytes = b""
    seen: int = 0


def _collect(sandbox: Sandbox, deadline: float, cap: int) -> tuple[_Output, _Output, str | None]:
    """Read stdout and stderr until both close; returns them and why the sandbox was killed."""
    # A sandbox's interpreter starts with its three streams piped (toolscale.sandbox.warm).
    stdout, stderr = cast(IO[bytes], sandbox.proc.stdout), cast(IO[bytes], sandbox.proc.stderr)
    streams: dict[FileDescriptorLike, _Output] = {stdout: _Output(), stderr: _Output()}
    selector = selectors.DefaultSelector()
    for stream in streams:
        selector.register(stream, selectors.EVENT_READ)
    reason, swept = None, False
    try:
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                reason = "timeout"
                break
            if not swept and sandbox.proc.poll() is not None:
                # The program has exited but something still holds its output open: a process
                # that escaped it (possible without a PID namespace). Kill it and read on.
                sandbox.kill()
                swept = True
            for key, _ in selector.select(min(remaining, 0.05)):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                output = streams[key.fileobj]
                output.seen += len(chunk)
                if len(output.data) <= cap:
                    output.data += chunk[: cap + 1 - len(output.data)]
            if sum(o.seen for o in streams.values()) > DRAIN_LIMIT:
                reason = "output limit"
                break
    finally:
        selector.close()
    out, err = streams.values()
    return out, err, reason


def _exit_status(returncode: int, level: str) -> tuple[int, str | None]:
    """bubblewrap and unshare report a child killed by signal n as exit code 128 + n."""
    if returncode < 0:
        return returncode, signal.Signals(-returncode).name
    if level != "rlimits" and 128 < returncode < 128 + signal.NSIG:
        return returncode, signal.Signals(returncode - 128).name
    return returncode, None


def _send(sandbox: Sandbox, job: bytes) -> None:
    stdin = cast(IO[bytes], sandbox.proc.stdin)  # piped, as stdout and stderr
    stdin.write(job)
    stdin.close()


def _start(job: bytes) -> Sandbox:
    sandbox = pool().take()
    try:
        _send(sandbox, job)
    except OSError:  # the spare died between the check and the write: start a fresh one
        sandbox.close()
        sandbox = Sandbox()
        _send(sandbox, job)
    return sandbox


def run_code(
    code: str,
    *,
    timeout_s: float = 10,
    memory_mb: int = MEMORY_MB,
    max_output: int = MAX_OUTPUT,
) -> ExecResult:
    """Run `code` in a sandbox and return what happened (see the module docstring)."""
    if len(code) > MAX_CODE_CHARS:
        return ExecResult(
            "", f"code too long (at most {MAX_CODE_CHARS} characters)", None, False, None, False
        )
    header = f"{max(1, math.ceil(timeout_s))} {memory_mb} {MAX_PROCESSES}\n"
    deadline = time.monotonic() + timeout_s
    sandbox = _start(header.encode() + code.encode("utf-8", "surrogatepass"))
    try:
        out, err, reason = _collect(sandbox, deadline, max_output)
        if reason is None:
            try:
                sandbox.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                reason = "timeout"
        if reason is not None:
            sandbox.kill()
        returncode = sandbox.proc.wait()
    finally:
        sandbox.close()
    exit_code, killed_by = _exit_status(returncode, sandbox.level)
    return ExecResult(
        stdout=out.data[:max_output].decode("utf-8", "replace"),
        stderr=err.data[:max_output].decode("utf-8", "replace"),
        exit_code=exit_code,
        timed_out=reason == "timeout",
        killed_by="output limit" if reason == "output limit" else killed_by,
        truncated=out.seen > max_output or err.seen > max_output,
    )
