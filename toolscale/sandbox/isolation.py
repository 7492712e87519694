"""Find, once per process, the strongest isolation this machine allows for untrusted code.

The probe starts a real sandboxed interpreter at each level, strongest first (bwrap, unshare,
rlimits; see `toolscale.sandbox.command`) and keeps the first that runs; `problem(level)` says why
a level does not run (not installed, or its namespaces refused). `found_level()` only probes;
`sandbox_level()`, called where sandboxes start, also logs a level below bwrap as a warning once
per run: the process that starts the sandbox workers (`toolscale.sandbox.pool`) decides and hands
its decision to them in the environment variable `TOOLSCALE_SANDBOX_LEVEL`, so a worker neither
probes again nor warns again. `isolation_level()` is what run.json and the data card record: the
level, plus `+uid` when the code runs under a dedicated unprivileged uid (possible only when
toolscale runs as root), which is what makes the kernel enforce the process-count limit.
Whether model-written code may run at the level found is `toolscale.sandbox.guard`'s decision.
"""

from __future__ import annotations

import logging
import os
import shutil
import stat
import subprocess
import sysconfig
from functools import cache
from pathlib import Path

from toolscale.sandbox.command import ENV, argv

log = logging.getLogger(__name__)

LEVELS = ("bwrap", "unshare", "rlimits")
# Set by the parent for its worker processes: the level it found (see the module docstring).
LEVEL_ENV = "TOOLSCALE_SANDBOX_LEVEL"
_PROBE_JOB = b"1 256 16\nprint('ok')"


def _others_can_read(folder: str) -> bool:
    """Whether a uid with no relation to the owner can reach and list `folder`."""
    path = Path(folder).resolve()
    steps = [path, *path.parents]
    return all(p.stat().st_mode & stat.S_IXOTH for p in steps) and bool(
        path.stat().st_mode & stat.S_IROTH
    )


def dedicated_uid(level: str) -> bool:
    """Whether sandboxed code at `level` runs under its own uid: only root may switch uids, and
    without bubblewrap's private view the uid must be able to read the standard library where it
    is (a pyenv install under /root is not)."""
    if os.geteuid() != 0:
        return False
    return level == "bwrap" or _others_can_read(sysconfig.get_paths()["stdlib"])


@cache
def problem(level: str) -> str | None:
    """Why `level` does not work here, in a few words (None: it works). The probe really starts
    a sandboxed interpreter, so namespaces the kernel or a container runtime forbids show here
    as bubblewrap's own error line."""
    if level != "rlimits" and shutil.which(level) is None:
        return f"`{level}` is not installed"
    uid = 2**31 - 2 if dedicated_uid(level) else None
    try:
        done = subprocess.run(
            argv(level, "toolscale-sandbox-probe", uid),
            input=_PROBE_JOB,
            capture_output=True,
            env=ENV,
            cwd="/",
            timeout=30,
        )
    except OSError as exc:
        return f"`{level}` could not start ({exc.strerror})"
    except subprocess.TimeoutExpired:
        return f"`{level}` did not start a sandbox within 30 s"
    if done.returncode == 0 and done.stdout == b"ok\n":
        return None
    said = done.stderr.decode(errors="replace").strip().splitlines()
    return f"`{level}` failed: {said[-1][:200] if said else f'exit code {done.returncode}'}"


def _works(level: str) -> bool:
    return problem(level) is None


@cache
def found_level() -> str:
    """The strongest level that works here: "bwrap", "unshare" or "rlimits"; in a worker, the
    level its parent found (`LEVEL_ENV`), without probing again. Warns about nothing, so that a
    command refusing to run at this level (`toolscale.sandbox.guard`) says so in one line."""
    given = os.environ.get(LEVEL_ENV)
    if given in LEVELS:
        return given
    return next(lv for lv in LEVELS if _works(lv))


@cache
def sandbox_level() -> str:
    """`found_level()`, for a sandbox about to start: a level below bwrap is logged as a warning
    once per process, and not in a worker (its parent warned)."""
    level = found_level()
    if level != "bwrap" and os.environ.get(LEVEL_ENV) not in LEVELS:
        log.warning(
            "bubblewrap is not usable here (%s): untrusted code runs with isolation level %r "
            "(see docs/sandbox.md; install the `bubblewrap` package for full isolation)",
            problem("bwrap"),
            level,
        )
    return level


def isolation_level() -> str:
    """The level as recorded in run.json: e.g. "bwrap+uid", "bwrap", "unshare+uid", "rlimits"."""
    level = found_level()
    return level + ("+uid" if dedicated_uid(level) else "")
