"""Hostile programs at every level this machine runs: each level contains what docs/sandbox.md's
table says, and a level that lets any of them through is refused for model-written code.

Each level is forced in turn (as in test_fallback.py). Every program tries one harm against the
host and prints nothing useful; whether it got through is read on the host afterwards.
"""

from __future__ import annotations

import os
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sandbox.processes import sandbox_processes
from toolscale.sandbox import warm
from toolscale.sandbox.code import run_code
from toolscale.sandbox.guard import INSTALL, refusal
from toolscale.sandbox.isolation import LEVELS, _works, dedicated_uid

FORKS = 150  # children the fork program tries for; the limit under a dedicated uid is 63
SECRET = "host-secret-2718"
CLASSES = ("fork", "write", "delete", "read", "shared_tmp", "network", "processes", "environment")
# What gets through at each level (docs/sandbox.md, "What each level contains"). Under +uid the
# host folder is root's (0755, the secret 0600), as a user's home is theirs.
GETS_THROUGH = {
    "bwrap+uid": set(),
    "bwrap": {"fork"},
    "unshare+uid": {"shared_tmp"},
    "unshare": {"fork", "write", "delete", "read", "shared_tmp"},
    "rlimits+uid": {"shared_tmp", "network"},
    "rlimits": {"fork", "write", "delete", "read", "shared_tmp", "network", "processes"},
}


@pytest.fixture(params=LEVELS)
def level(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if not _works(request.param):
        pytest.skip(f"{request.param} does not work here")
    warm.pool().shutdown()
    monkeypatch.setattr(warm, "sandbox_level", lambda: request.param)
    yield request.param + ("+uid" if dedicated_uid(request.param) else "")
    warm.pool().shutdown()
    assert sandbox_processes([os.getpid()]) == []


def attempts(host: Path, tmp_name: str, port: int, pid: int) -> dict[str, str]:
    """One program per class of harm (see the module docstring)."""
    forks = (
        f"import os\nr, w = os.pipe()\nn = 0\nwhile n < {FORKS}:\n"
        "    try:\n        pid = os.fork()\n    except OSError:\n        break\n"
        "    if pid == 0:\n        os.close(w); os.read(r, 1); os._exit(0)\n    n += 1\nprint(n)"
    )
    return {
        "fork": forks,
        "write": f"open('{host}/written', 'w').write('x')",
        "delete": f"import os\nos.remove('{host}/keep')",
        "read": f"print(open('{host}/secret').read())",
        "shared_tmp": f"open('/tmp/{tmp_name}', 'w').write('x' * 4096)",
        "network": f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=2)",
        "processes": f"import os\nos.kill({pid}, 0)\nprint('signalled')",
        "environment": "import os\nprint(dict(os.environ))",
    }


def through(host: Path, tmp_name: str, server: socket.socket) -> dict[str, object]:
    """How, on the host, each class shows that it got through."""
    server.setblocking(False)
    try:
        server.accept()[0].close()
        reached = True
    except BlockingIOError:
        reached = False
    return {
        "write": (host / "written").exists(),
        "delete": not (host / "keep").exists(),
        "shared_tmp": Path("/tmp", tmp_name).exists(),
        "network": reached,
    }


def test_each_level_contains_what_the_table_says_and_weaker_ones_are_refused(
    level: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLSCALE_FAKE_KEY", "sk-fake-4242")
    host = tmp_path / "home"
    host.mkdir(mode=0o755)
    (host / "keep").write_text("keep")
    (host / "secret").write_text(SECRET)
    (host / "secret").chmod(0o600)
    tmp_name = f"toolscale-hostile-{uuid.uuid4().hex}"
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        with socket.create_server(("127.0.0.1", 0)) as server:
            programs = attempts(host, tmp_name, server.getsockname()[1], sleeper.pid)
            results = {name: run_code(code, timeout_s=10) for name, code in programs.items()}
            seen = through(host, tmp_name, server)
    finally:
        sleeper.kill()
        sleeper.wait()
        Path("/tmp", tmp_name).unlink(missing_ok=True)
    seen |= {
        "fork": results["fork"].stdout.strip() == str(FORKS),
        "read": SECRET in results["read"].stdout,
        "processes": results["processes"].stdout == "signalled\n",
        "environment": "sk-fake-4242" in results["environment"].stdout,
    }
    assert results["environment"].exit_code == 0  # the programs really ran
    assert {name for name in CLASSES if seen[name]} == GETS_THROUGH[level], level
    refused = refusal("bwrap", level)
    if GETS_THROUGH[level] - {"fork"}:  # fork unbounded alone: rootless bwrap (docs/sandbox.md)
        assert refused is not None
        assert f"isolation level {level!r}" in refused and INSTALL in refused
        assert refused.endswith(f"--isolation {level.removesuffix('+uid')}")
        assert refusal(level.removesuffix("+uid"), level) is None  # the explicit opt-in
    else:
        assert refused is None
