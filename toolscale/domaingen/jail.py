"""Run a generated domain's gates in a sandbox at the code executor's isolation level.

One run is one sandboxed interpreter (`toolscale.sandbox.command`: at `bwrap`, new network, PID,
IPC and mount namespaces, a private /tmp, a dedicated uid as root, the bootstrap's CPU, memory
and file limits), which sees, read-only, only the folders on this interpreter's path (toolscale
and its libraries) and the candidate package, mounted at /candidate; it imports the package and
runs `toolscale.domaingen.inside`, whose check-domain starts its own workers inside the same
sandbox. The home folder is never mounted (a path entry that holds it is refused). The run is
killed at `timeout_s`; what the gates found comes back as lines tagged with a nonce on stdout,
what the audit hook blocked as lines on stderr (`toolscale.domaingen.audit`).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.domaingen import audit
from toolscale.sandbox.command import ENV, argv
from toolscale.sandbox.isolation import LEVEL_ENV, dedicated_uid, found_level

INSIDE = "/candidate"
HOOK = "/toolscale-hook"
PROCESSES = 256  # the gate, check-domain's workers and their threads
_UID_BASE, _UID_SPAN = 1_000_000_000, 400_000_000  # below the code sandbox's uids


@dataclass(frozen=True)
class JailResult:
    """What one sandboxed gate run reported: its nonce-tagged lines, the calls the hook blocked,
    and how the interpreter ended."""

    lines: list[dict[str, Any]]
    blocked: list[dict[str, Any]] = field(default_factory=list)
    timed_out: bool = False
    exit_code: int | None = None
    stderr: str = ""


def library_roots() -> list[str]:
    """The folders the sandbox mounts read-only: toolscale's and every folder on the path."""
    roots = [str(Path(__file__).resolve().parents[2])]  # the folder holding toolscale/
    roots += [os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)]
    home = os.path.realpath(os.path.expanduser("~"))
    for root in roots:
        if home == root or home.startswith(root.rstrip("/") + "/"):
            raise ConfigError(
                f"the Python path holds {root}, which contains the home folder {home}: generated "
                "code would see it; run from a path outside the home folder"
            )
    return list(dict.fromkeys(roots))


def _binds(roots: list[str], candidate: Path, hook: Path) -> list[str]:
    args: list[str] = []
    for source, target in [*((r, r) for r in roots), (str(candidate), INSIDE), (str(hook), HOOK)]:
        parents = [str(p) for p in reversed(Path(target).parents) if str(p) != "/"]
        args += [a for p in parents for a in ("--dir", p)]
        args += ["--ro-bind", source, target]
    return args


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill the sandbox's init (the PID namespace goes with it), then bubblewrap."""
    pid = proc.pid
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(child), signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def run_gates(
    candidate: Path, request: dict[str, Any], *, timeout_s: float, memory_mb: int
) -> JailResult:
    """Run `toolscale.domaingen.inside.main(request)` on the package folders under `candidate`
    in the sandbox; never raises for what the code did."""
    level = found_level()
    roots = library_roots()
    nonce = secrets.token_hex(8)
    uid = _UID_BASE + secrets.randbelow(_UID_SPAN) if dedicated_uid(level) else None
    with tempfile.TemporaryDirectory(prefix="toolscale-gate-") as scratch:
        hook = Path(scratch, "hook")
        hook.mkdir()
        source = Path(audit.__file__).read_text(encoding="utf-8") + "\ninstall()\n"
        (hook / "sitecustomize.py").write_text(source, encoding="utf-8")
        os.chmod(scratch, 0o755)
        os.chmod(hook, 0o755)
        inside, hook_path = (INSIDE, HOOK) if level == "bwrap" else (str(candidate), str(hook))
        command = argv(level, f"toolscale-domaingen-{nonce}", uid)
        if level == "bwrap":  # the library folders join the sandbox's view, before its program
            split = command.index("--")
            command[split:split] = _binds(roots, candidate, hook)
        env = {
            **ENV,
            "PYTHONPATH": hook_path,
            LEVEL_ENV: "rlimits",  # check-domain's workers: plain processes in this sandbox
            "TOOLSCALE_AUDIT_WATCHED": ":".join(_watched()),
            "TOOLSCALE_AUDIT_ALLOWED": ":".join([*roots, *_interpreter_dirs(), inside]),
            "HF_HUB_OFFLINE": "1",
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
        }
        code = "\n".join(
            [
                "import sys",
                f"sys.path[:0] = {[inside, *roots]!r}",
                source,
                "from toolscale.domaingen.inside import main",
                f"main({json.dumps({**request, 'nonce': nonce})!r})",
            ]
        )
        cwd = "/" if level == "bwrap" else scratch
        out, err = Path(scratch, "stdout"), Path(scratch, "stderr")
        with out.open("wb") as stdout, err.open("wb") as stderr:
            proc = subprocess.Popen(
                command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=stdout, stderr=stderr,
                start_new_session=True,
            )  # fmt: skip
            header = f"{max(1, math.ceil(timeout_s))} {memory_mb} {PROCESSES}\n"
            try:
                proc.communicate(header.encode() + code.encode(), timeout=timeout_s)
                timed_out = False
            except subprocess.TimeoutExpired:
                timed_out = True
            _kill(proc)
            proc.wait()
        return _result(out.read_bytes(), err.read_bytes(), nonce, timed_out, proc.returncode)


def _interpreter_dirs() -> list[str]:
    return [os.path.realpath(sys.base_prefix), os.path.dirname(os.path.realpath(sys.executable))]


def _watched() -> list[str]:
    home = os.path.realpath(os.path.expanduser("~"))
    return list(dict.fromkeys([home, "/root", "/home", "/etc/shadow", "/etc/passwd"]))


def _result(stdout: bytes, stderr: bytes, nonce: str, timed_out: bool, code: int) -> JailResult:
    lines, blocked, other = [], [], []
    for line in stdout.decode("utf-8", "replace").splitlines():
        if line.startswith(nonce + " "):
            with contextlib.suppress(json.JSONDecodeError):
                lines.append(json.loads(line[len(nonce) + 1 :]))
    for line in stderr.decode("utf-8", "replace").splitlines():
        if line.startswith(audit.AUDIT_PREFIX):
            with contextlib.suppress(json.JSONDecodeError):
                blocked.append(json.loads(line[len(audit.AUDIT_PREFIX) :]))
        else:
            other.append(line)
    return JailResult(lines, blocked, timed_out, code, "\n".join(other[-20:]))
