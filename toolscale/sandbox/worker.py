"""The sandbox worker process: holds episode states and executes tool calls sent by the pool.

It runs in its own process (started by `SandboxPool`), answers one request at a time over a
pipe, and never lets an exception escape: a failed request is answered with ("fail", Failure),
which keeps the exception's traceback for the run's error report.
Ctrl-C is left to the parent, which stops the workers.
"""

from __future__ import annotations

import signal
import sys
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from toolscale.core.contract import Toolkit, prime_schemas, state_hash
from toolscale.core.registry import get_domain
from toolscale.sample.tasks import GoldError, build_task
from toolscale.sandbox.execute import CallOutcome, execute, fresh_toolkit


@dataclass(frozen=True)
class Failure:
    """Why a request failed in the worker: the exception's type name, its message, and the
    traceback (for a gold action that crashed, the tool's own traceback)."""

    error: str
    message: str
    traceback: str
    template: str = ""  # the template of the task being sampled, when the exception names one

    @classmethod
    def of(cls, exc: Exception) -> Failure:
        tb = exc.traceback if isinstance(exc, GoldError) and exc.traceback else ""
        template = getattr(exc, "template", "")  # GoldError's, KitError's
        return cls(type(exc).__name__, str(exc), tb or traceback.format_exc(), template)

    def __str__(self) -> str:
        return f"{self.error}: {self.message}"


class Worker:
    def __init__(self, call_timeout_s: float) -> None:
        self.timeout = call_timeout_s
        self.episodes: dict[int, Toolkit] = {}

    def sample(self, domain: str, seed: int, index: int, template: str | None = None) -> Any:
        return build_task(get_domain(domain), seed, index, self.timeout, template)

    def _kit(self, episode: int, opening: tuple[str, str, list] | None) -> Toolkit:
        """The episode's toolkit; `opening` (domain, state JSON, calls so far) first builds it
        here, replaying the calls it already made on a worker that is gone."""
        if opening is not None:
            domain, state_json, calls = opening
            kit = fresh_toolkit(get_domain(domain), state_json)
            for name, arguments in calls:
                execute(kit, name, arguments, self.timeout)
            self.episodes[episode] = kit
        return self.episodes[episode]

    def run(self, episode: int, calls: list, opening: tuple | None = None) -> list[CallOutcome]:
        kit = self._kit(episode, opening)
        return [execute(kit, name, arguments, self.timeout) for name, arguments in calls]

    def close(self, episode: int, opening: tuple | None = None) -> str:
        self._kit(episode, opening)
        return state_hash(self.episodes.pop(episode).state)

    def replay(self, domain: str, state_json: str, calls: list) -> tuple[list[CallOutcome], str]:
        kit = fresh_toolkit(get_domain(domain), state_json)
        outcomes = [execute(kit, name, arguments, self.timeout) for name, arguments in calls]
        return outcomes, state_hash(kit.state)


READY = ("ready", None)
PRIME = "prime"  # (PRIME, schemas): tool schemas the pool's process derived (no reply)


def main() -> None:
    """`python -c ... FD TIMEOUT_S`: serve the pool on the inherited socket FD."""
    serve(Connection(int(sys.argv[1])), float(sys.argv[2]))


def serve(conn: Connection, call_timeout_s: float) -> None:
    """The worker's main loop: (op, *args) in, ("ok", result) or ("fail", Failure) out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = Worker(call_timeout_s)
    try:
        conn.send(READY)
    except (BrokenPipeError, OSError):
        return
    while True:
        try:
            op, *args = conn.recv()
        except (EOFError, OSError):
            return
        if op == PRIME:  # no reply: the pool sends it before any request
            prime_schemas(*args)
            continue
        try:
            reply = ("ok", getattr(worker, op)(*args))
        except Exception as exc:
            reply = ("fail", Failure.of(exc))
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):  # the pool went away: nothing left to serve
            return
