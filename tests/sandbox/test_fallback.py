"""The weaker isolation levels still contain what they claim (docs/sandbox.md): each level is
forced in turn, whatever this machine's strongest level is."""

from __future__ import annotations

import os
import time

import pytest

from tests.sandbox.processes import cmdlines, sandbox_processes
from toolscale.sandbox import warm
from toolscale.sandbox.code import run_code
from toolscale.sandbox.isolation import _works, dedicated_uid

MARKER = "27.1828"
DAEMON = (
    "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
    f"        os.execv('/bin/sleep', ['sleep', '{MARKER}'])\n    os._exit(0)\n"
    "os.wait()\nprint('daemon started')"
)


@pytest.fixture(params=["unshare", "rlimits"])
def level(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    if not _works(request.param):
        pytest.skip(f"{request.param} does not work here")
    warm.pool().shutdown()
    monkeypatch.setattr(warm, "sandbox_level", lambda: request.param)
    yield request.param
    warm.pool().shutdown()
    assert sandbox_processes([os.getpid()]) == []


def test_code_runs_with_a_clean_environment_in_a_fresh_folder(level, monkeypatch):
    monkeypatch.setenv("TOOLSCALE_FAKE_KEY", "sk-fake-777")
    code = "import os\nprint(sorted(os.environ), os.listdir('.'), os.getuid() != 0)"
    result = run_code(code)
    assert result.stdout == f"['HOME', 'LANG', 'PATH'] [] {dedicated_uid(level)}\n"


def test_timeout_and_signals_are_reported(level):
    assert run_code("import time\ntime.sleep(60)", timeout_s=1).timed_out
    assert run_code("import ctypes\nctypes.string_at(0)").killed_by == "SIGSEGV"


def test_a_daemon_is_killed_when_the_call_ends(level):
    if level == "rlimits" and not dedicated_uid(level):
        pytest.skip("without namespaces or a dedicated uid, a daemon can escape (documented)")
    start = time.monotonic()
    result = run_code(DAEMON, timeout_s=5)
    assert result.stdout == "daemon started\n" and time.monotonic() - start < 2
    assert not [line for line in cmdlines().values() if f"sleep {MARKER} " in line]
