"""Run `transformers serve` on a free loopback port for the length of a `with` block; never leak it.

`serve_local_model()` starts the server in a new session (so its own process group, out of reach of
the terminal's Ctrl-C), waits until `/health` answers (the model is loaded before the HTTP server
listens), yields where to send OpenAI requests, and on leaving the block, however it is left
(normal exit, exception, KeyboardInterrupt, SIGTERM), terminates the whole process group and waits
for it. Safety nets cover what a `with` block cannot: an atexit hook stops any server still running,
and on Linux the server is SIGKILLed by the kernel if the process that started it dies (kill -9).

What it does not do: pick a GPU (it serves on CPU, the only device here), or serve several models.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from toolscale.core.errors import ConfigError
from toolscale.llm.local.checkpoint import build_checkpoint

LOG_TAIL_LINES = 8
_STOP_GRACE_S = 5.0
_PR_SET_PDEATHSIG = 1
# Looked up before any fork: loading a library in a forked child of a threaded process can hang.
_PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform == "linux" else None
_LIVE: set[subprocess.Popen[bytes]] = set()
_LIVE_LOCK = threading.Lock()


@dataclass(frozen=True)
class LocalServer:
    """A running local server: pass `base_url` and `model` to the openai client."""

    base_url: str
    model: str
    pid: int
    log_path: Path


@contextmanager
def serve_local_model(
    model_path: str | None = None, *, device: str = "cpu", startup_timeout_s: float = 180.0
) -> Iterator[LocalServer]:
    """Serve a local HF model folder with `transformers serve` while the block runs.

    Args:
        model_path: A local HF model folder (config, weights, tokenizer with a chat template).
            None builds (once, cached) and serves the SmolLM2-135M-Instruct checkpoint.
        device: Torch device for inference.
        startup_timeout_s: How long to wait for the model to load and the server to answer.

    Yields:
        The running server; it is stopped, with its whole process group, when the block exits.

    Raises:
        ConfigError: The folder is not a model folder, or the server exited or did not become
            healthy in time (the message quotes the end of its log).
    """
    folder = _model_folder(model_path)
    port = _free_port()
    log_fd, log_name = tempfile.mkstemp(prefix="toolscale-serve-", suffix=".log")
    try:
        proc = _spawn(folder, device, port, log_fd)
    finally:
        os.close(log_fd)  # the server holds its own copy
    try:
        _wait_healthy(proc, port, Path(log_name), startup_timeout_s)
        yield LocalServer(
            base_url=f"http://127.0.0.1:{port}/v1",
            model=str(folder),
            pid=proc.pid,
            log_path=Path(log_name),
        )
    finally:
        _stop(proc)
        # A start-up failure has already quoted the log's tail in its error.
        Path(log_name).unlink(missing_ok=True)


def _model_folder(model_path: str | None) -> Path:
    """The absolute model folder to serve, built when none is given."""
    if model_path is None:
        return build_checkpoint().resolve()
    folder = Path(model_path).expanduser().resolve()
    if not (folder / "config.json").is_file():
        raise ConfigError(
            f"--model {model_path!r} is not a local Hugging Face model folder (no config.json); "
            "give a folder saved with save_pretrained, or omit --model to use SmolLM2-135M"
        )
    return folder


def _free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _die_with_parent() -> None:
    """In the child before exec: ask Linux to SIGKILL it when its parent dies."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _spawn(folder: Path, device: str, port: int, log_fd: int) -> subprocess.Popen[bytes]:
    """Start `transformers serve` in a new session, output to `log_fd`, and register it."""
    command = [
        sys.executable,
        "-m",
        "transformers.cli.transformers",
        "serve",
        str(folder),
        "--device",
        device,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    # OpenMP threads that spin while they wait for a peer burn the CPU the peer needs when the
    # machine is busy: on the shared 2-core machine (load 11-15) two 64-token answers took 244 s
    # spinning and 50 s passive (benchmarks/RESULTS.md, "Local teacher").
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    with _LIVE_LOCK:
        proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log_fd,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        _LIVE.add(proc)
    return proc


def _wait_healthy(
    proc: subprocess.Popen[bytes], port: int, log_path: Path, timeout_s: float
) -> None:
    """Poll `/health` until it answers 200; raise ConfigError if the server dies or times out."""
    deadline = time.monotonic() + timeout_s
    url = f"http://127.0.0.1:{port}/health"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ConfigError(
                f"transformers serve exited with code {proc.returncode} while starting; "
                f"last log lines: {_log_tail(log_path)}"
            )
        with suppress(OSError), urllib.request.urlopen(url, timeout=2) as response:
            if response.status == 200:
                return
        time.sleep(0.25)
    raise ConfigError(
        f"transformers serve did not answer {url} within {timeout_s:.0f} s "
        f"(raise startup_timeout_s on a slow machine); last log lines: {_log_tail(log_path)}"
    )


def _log_tail(log_path: Path) -> str:
    """The last non-empty lines of the server log, joined on one line."""
    with suppress(OSError):
        lines = [line.strip() for line in log_path.read_text(errors="replace").splitlines()]
        return " | ".join([line for line in lines if line][-LOG_TAIL_LINES:]) or "(empty log)"
    return "(no log)"


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate the server's process group, then kill what is left; reap the leader."""
    # A second Ctrl-C must not cut the cleanup short: hold SIGINT/SIGTERM until it is done.
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        _signal_group(proc, signal.SIGTERM)
        deadline = time.monotonic() + _STOP_GRACE_S
        while _group_alive(proc) and time.monotonic() < deadline:
            time.sleep(0.05)
        if _group_alive(proc):
            _signal_group(proc, signal.SIGKILL)
            while _group_alive(proc):
                time.sleep(0.05)
        with _LIVE_LOCK:
            _LIVE.discard(proc)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _signal_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    """Send `sig` to every process of the server's group (its pgid is the leader's pid)."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def _group_alive(proc: subprocess.Popen[bytes]) -> bool:
    """Whether any process of the group remains (the leader is reaped first: zombies count)."""
    proc.poll()
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return False
    return True


@atexit.register
def _stop_all() -> None:
    """Safety net: stop servers whose `with` block never closed before the interpreter exits."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for proc in live:
        _stop(proc)
