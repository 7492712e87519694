"""Hostile programs are contained: a clear result, nothing left running, and the run goes on.

Cases that depend on namespaces or on the dedicated uid are skipped, with the reason, where the
machine does not provide them (CI installs bubblewrap and runs as root, so there they all run).
After every case the fixture checks that no process of a finished call exists (every sandbox
process carries its tag in its command line; only the warm spare may remain) and that the next
call works.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.sandbox.processes import cmdlines, sandbox_processes
from toolscale.sandbox.code import MAX_PROCESSES, run_code
from toolscale.sandbox.command import TMPFS_BYTES
from toolscale.sandbox.isolation import dedicated_uid, sandbox_level
from toolscale.sandbox.warm import pool

needs_bwrap = pytest.mark.skipif(sandbox_level() != "bwrap", reason="bubblewrap is not usable")
needs_namespaces = pytest.mark.skipif(
    sandbox_level() == "rlimits", reason="no PID/network namespaces here"
)
needs_uid = pytest.mark.skipif(
    not dedicated_uid(sandbox_level()), reason="no dedicated uid here (see docs/sandbox.md)"
)
MARKER = "31.4159"  # argument of the daemon's `sleep`, to find it in the process table


def leftovers() -> list[str]:
    """Processes of finished calls: this process's sandboxes other than the waiting spare, and
    the daemon's marked sleep."""
    spares = pool().spare_tags()
    mine = [p for p in sandbox_processes([os.getpid()]) if not any(f"{t} " in p for t in spares)]
    daemons = [line for line in cmdlines().values() if f"sleep {MARKER} " in line]
    return [line[:120] for line in mine + daemons]


@pytest.fixture(autouse=True)
def contained():
    yield
    assert leftovers() == []
    assert run_code("print(1)").stdout == "1\n"  # the run goes on


def timed(code: str, **kwargs) -> tuple[float, object]:
    start = time.monotonic()
    result = run_code(code, **kwargs)
    return time.monotonic() - start, result


@needs_namespaces
def test_fork_bomb_is_killed_at_the_timeout():
    code = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass"
    elapsed, result = timed(code, timeout_s=2)
    assert result.timed_out and result.killed_by == "SIGKILL"
    assert elapsed < 5


@needs_uid
def test_process_count_is_limited_under_the_dedicated_uid():
    code = (
        "import os, time\nn = 0\nwhile True:\n    try:\n        pid = os.fork()\n"
        "    except OSError as e:\n        print(n, type(e).__name__); break\n"
        "    if pid == 0:\n        time.sleep(30); os._exit(0)\n    n += 1"
    )
    result = run_code(code, timeout_s=10)
    children, error = result.stdout.split()
    # RLIMIT_NPROC counts every process of the uid: the program itself plus its children.
    assert (int(children), error) == (MAX_PROCESSES - 1, "BlockingIOError")
    assert result.exit_code == 0  # the sleeping children died with the PID namespace


def test_memory_bomb_fails_inside_the_limit():
    code = "chunks = []\nwhile True:\n    chunks.append(bytearray(16 << 20))"
    result = run_code(code, memory_mb=256)
    assert result.exit_code == 1 and "MemoryError" in result.stderr


def test_endless_loop_is_stopped():
    elapsed, result = timed("while True:\n    pass", timeout_s=1)
    # Whichever comes first: the wall-clock timeout, or the CPU-seconds limit (SIGXCPU).
    assert result.timed_out or result.killed_by == "SIGXCPU"
    assert result.exit_code != 0 and elapsed < 3


def test_endless_sleep_is_killed_at_the_timeout():
    elapsed, result = timed("import time\ntime.sleep(3600)", timeout_s=1)
    assert result.timed_out and result.killed_by == "SIGKILL"
    assert 1 <= elapsed < 3


def test_a_gigabyte_of_output_is_cut_short():
    code = "import sys\nline = 'x' * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.write(line)"
    elapsed, result = timed(code, max_output=1000)
    assert result.truncated and result.killed_by == "output limit"
    assert result.stdout == "x" * 1000 and elapsed < 5
    assert result.as_tool_output().endswith("[output truncated]")


@needs_bwrap
def test_nothing_outside_the_tmpfs_is_writable():
    code = (
        "import os\n"
        "for path in ['/usr/evil', '/etc/evil', '/evil', '/root/evil', '/dev/shm/evil']:\n"
        "    try:\n        open(path, 'w').write('x')\n        print(path, 'WRITTEN')\n"
        "    except OSError as e:\n        print(path, type(e).__name__)\n"
        "open('/tmp/ok', 'w').write('x'); print(os.getcwd(), os.listdir('.'))"
    )
    lines = run_code(code).stdout.splitlines()
    assert not any("WRITTEN" in line for line in lines)
    assert lines[-1] == "/tmp ['ok']"


@needs_bwrap
def test_host_files_cannot_be_deleted_or_read(tmp_path: Path):
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    token = Path.home() / ".cache" / "huggingface" / "token"
    code = (
        f"import os\nfor path in [{str(precious)!r}, {str(token)!r}, {str(Path.cwd())!r}]:\n"
        "    try:\n        os.remove(path)\n        print('REMOVED')\n"
        "    except OSError as e:\n        print(type(e).__name__)\n"
        "    try:\n        print(open(path).read())\n    except OSError as e:\n"
        "        print(type(e).__name__)\n"
    )
    result = run_code(code)
    assert "REMOVED" not in result.stdout and "keep me" not in result.stdout
    assert set(result.stdout.split()) == {"FileNotFoundError"}
    assert precious.read_text() == "keep me"


def test_secrets_in_the_parent_environment_stay_invisible(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TOOLSCALE_FAKE_KEY", "sk-fake-4242")
    monkeypatch.setenv("HF_TOKEN", "hf_fake_4242")
    pool().shutdown()  # the next sandboxes start while the key is set
    code = (
        "import os\nprint(dict(os.environ))\nfor pid in os.listdir('/proc'):\n"
        "    for name in ('environ', 'cmdline'):\n        try:\n"
        "            print(pid, open(f'/proc/{pid}/{name}', 'rb').read())\n"
        "        except OSError as e:\n            print(pid, name, type(e).__name__)\n"
    )
    for _ in range(2):  # the spare's own start and a cold start
        result = run_code(code)
        assert result.exit_code == 0 and "fake" not in result.stdout + result.stderr
        assert "TOOLSCALE_FAKE_KEY" not in result.stdout and "HF_TOKEN" not in result.stdout


@needs_namespaces
def test_no_network_not_even_loopback():
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(0.5)
        port = server.getsockname()[1]
        code = (
            f"import socket\nfor address in [('127.0.0.1', {port}), ('1.1.1.1', 53)]:\n"
            "    try:\n        socket.create_connection(address, timeout=2)\n"
            "        print('CONNECTED')\n    except OSError as e:\n        print(type(e).__name__)"
        )
        result = run_code(code)
        with pytest.raises(TimeoutError):
            server.accept()  # nothing reached the host's listener
    assert result.stdout.split() == ["ConnectionRefusedError", "OSError"]


@needs_namespaces
def test_host_processes_cannot_be_signalled():
    victim = subprocess.Popen(["sleep", "30"])
    try:
        code = (
            "import os, signal\n"
            f"for pid in [{victim.pid}, {os.getpid()}, os.getppid(), 1, -1]:\n"
            "    try:\n        os.kill(pid, signal.SIGKILL)\n        print(pid, 'SENT')\n"
            "    except OSError as e:\n        print(pid, type(e).__name__)"
        )
        result = run_code(code)
        time.sleep(0.2)
        assert victim.poll() is None  # still running
    finally:
        victim.kill()
        victim.wait()
    lines = result.stdout.splitlines()
    # The host's pids do not exist in the sandbox's PID namespace.
    assert lines[0] == f"{victim.pid} ProcessLookupError" or lines[0].endswith("PermissionError")
    assert result.exit_code in (0, -9, 137)


@needs_namespaces
def test_a_double_forked_daemon_does_not_outlive_the_call():
    code = (
        "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        f"        os.execv('/bin/sleep', ['sleep', '{MARKER}'])\n    os._exit(0)\n"
        "os.wait()\nprint('daemon started')"
    )
    elapsed, result = timed(code, timeout_s=5)
    assert result.stdout == "daemon started\n" and not result.timed_out
    assert elapsed < 2  # the call did not wait for the daemon
    # (the fixture asserts the marked `sleep` is gone)


def test_segfault_is_reported_as_a_signal():
    result = run_code("import ctypes\nctypes.string_at(0)")
    assert result.killed_by == "SIGSEGV" and not result.timed_out
    assert "[killed by SIGSEGV]" in result.as_tool_output()


@needs_bwrap
def test_filling_the_tmpfs_stops_at_its_size():
    code = (
        "import os\nwritten = 0\ntry:\n    for i in range(1000):\n"
        "        with open(f'/tmp/fill{i}', 'wb') as f:\n            f.write(b'x' * (1 << 20))\n"
        "        written += 1\nexcept OSError as e:\n    print(written, e.strerror)"
    )
    result = run_code(code)
    written, error = result.stdout.split(" ", 1)
    assert error.strip() == "No space left on device"
    assert int(written) == TMPFS_BYTES >> 20  # 64 files of 1 MiB fill the 64 MiB tmpfs


THREADS = (
    "import threading, time\nthreading.stack_size(1 << 20)\nn = 0\ntry:\n"
    "    for _ in range(5000):\n"
    "        threading.Thread(target=time.sleep, args=(2,), daemon=True).start()\n"
    "        n += 1\nexcept RuntimeError as e:\n    print(n, e)\n"
)


def test_thousands_of_threads_are_refused_early():
    # Under the default 512 MB the address space runs out first (glibc reserves 64 MB per
    # thread arena), whichever limit binds, the program gets an error and exits.
    result = run_code(THREADS, timeout_s=5)
    started, message = result.stdout.split(" ", 1)
    assert message.strip() == "can't start new thread" and 0 < int(started) < MAX_PROCESSES
    assert result.exit_code == 0 and not result.timed_out


@needs_uid
def test_threads_count_against_the_process_limit():
    # With room in the address space (even one 64 MB arena per thread is 63 * 65 MB < 8 GB, all
    # of it reserved, not used), the process-count limit binds: the main thread plus 63 more.
    result = run_code(THREADS, timeout_s=5, memory_mb=8192)
    assert result.stdout == f"{MAX_PROCESSES - 1} can't start new thread\n"


def test_reading_stdin_sees_end_of_file():
    code = (
        "import sys\nprint(repr(sys.stdin.read()))\n"
        "try:\n    input()\nexcept EOFError:\n    print('EOF')"
    )
    elapsed, result = timed(code, timeout_s=5)
    assert result.stdout == "''\nEOF\n" and elapsed < 2


def test_a_dead_spare_is_replaced_by_a_fresh_start():
    run_code("print(0)")  # make sure a spare is waiting
    (tag,) = pool().spare_tags()
    spare = pool()._spare
    os.killpg(spare.proc.pid, signal.SIGKILL)
    spare.proc.wait()
    assert run_code("print(2)").stdout == "2\n"
    assert tag not in pool().spare_tags()
