"""Sandboxed interpreters started ahead of time, so that a call does not wait for start-up.

A `Sandbox` is one sandboxed interpreter blocked on stdin in the bootstrap; it serves exactly one
job and is then discarded (so nothing one program leaves behind is seen by the next). The warm
pool keeps one spare per process: taking it starts the next one at once, so its start-up
overlaps the current job. A spare that died (e.g. bubblewrap's --die-with-parent fired because
the thread that started it ended) is replaced by a fresh start, never reused.

Every process of a sandbox carries its tag (`toolscale-sandbox-<pid>-<n>`) in its command line,
which is how the tests check that no process started by a call outlives it.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path

from toolscale.sandbox.command import ENV, argv
from toolscale.sandbox.isolation import dedicated_uid, sandbox_level

TAG_PREFIX = "toolscale-sandbox-"
# Dedicated uids: far above any real account; one per sandbox so that concurrent sandboxes do
# not share a process-count budget (RLIMIT_NPROC counts every process of a uid).
_UID_BASE, _UID_SPAN = 1_500_000_000, 500_000_000
_counter = itertools.count()


class Sandbox:
    """One started, not yet used, sandboxed interpreter."""

    def __init__(self) -> None:
        self.level = sandbox_level()
        n = next(_counter)
        self.tag = f"{TAG_PREFIX}{os.getpid()}-{n}"
        self.uid: int | None = None
        if dedicated_uid(self.level):
            self.uid = _UID_BASE + (os.getpid() * 64 + n) % _UID_SPAN
        self.workdir: str | None = None
        env, cwd = ENV, "/"
        if self.level != "bwrap":  # no private tmpfs: a fresh host folder instead
            self.workdir = cwd = tempfile.mkdtemp(prefix="toolscale-code-")
            env = {**ENV, "HOME": cwd}
            if self.uid is not None:
                os.chown(cwd, self.uid, self.uid)
        self.proc = subprocess.Popen(
            argv(self.level, self.tag, self.uid),
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """Kill every process of this sandbox and wait until they are gone."""
        if self.level != "rlimits" and self.alive():
            # bwrap/unshare's child is the init of the PID namespace: when it dies, the kernel
            # kills every process in the namespace, and reports the init's exit to bwrap/unshare
            # only once all of them are gone. (Killing bwrap first would return before that.)
            for child in self._children():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)
        if self.alive():  # not yet reaped, so the process group id cannot have been reused
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.level == "rlimits" and self.uid is not None:
            # No PID namespace: a process that left the process group is found by its uid.
            uid = str(self.uid)
            setpriv = ["setpriv", "--reuid", uid, "--regid", uid, "--clear-groups"]
            subprocess.run([*setpriv, "kill", "-9", "-1"], env=ENV, stderr=subprocess.DEVNULL)

    def _children(self) -> list[int]:
        pid = self.proc.pid
        try:
            return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            return []

    def close(self) -> None:
        """Kill what is left, reap the process and remove the host folder, if any."""
        self.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)


class WarmPool:
    """Hands out started sandboxes; keeps one spare starting or waiting."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._spare: Sandbox | None = None

    def take(self) -> Sandbox:
        with self._lock:
            spare, self._spare = self._spare, Sandbox()
        if spare is not None and spare.alive():
            return spare
        if spare is not None:
            spare.close()
        return Sandbox()

    def spare_tags(self) -> list[str]:
        """Tags of the sandboxes waiting for a job (their processes are expected to exist)."""
        spare = self._spare
        return [spare.tag] if spare is not None and spare.alive() else []

    def shutdown(self) -> None:
        with self._lock:
            spare, self._spare = self._spare, None
        if spare is not None:
            spare.close()


_pool = WarmPool()


def pool() -> WarmPool:
    """This process's warm pool."""
    return _pool


def _forget_after_fork() -> None:
    # A forked child must not use (or later kill) its parent's spare.
    global _pool
    _pool = WarmPool()


atexit.register(lambda: _pool.shutdown())
os.register_at_fork(after_in_child=_forget_after_fork)
