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
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from toolscale.core.contract import Toolkit, prime_schemas, state_hash
from toolscale.core.registry import get_domain
from toolscale.sandbox.execute import CallOutcome, execute, fresh_toolkit, replayed

# States a worker keeps by token; the pool mirrors the same LRU to know which ones it holds.
STATES_KEPT = 16


@dataclass(frozen=True)
class StateRef:
    """A state's JSON in a request: the text with its token the first time this worker gets it,
    then the token alone. A task's state (a world of hundreds of kilobytes) goes to a worker once,
    not with every replay and episode of the task."""

    token: int
    text: str | None = None


class States:
    """The last STATES_KEPT state texts by token, evicted oldest-used first. The pool keeps the
    same LRU per worker and changes it in the order its requests reach the worker, so the two
    always hold the same tokens."""

    def __init__(self) -> None:
        self.texts: OrderedDict[int, str] = OrderedDict()

    def text(self, ref: StateRef) -> str:
        if ref.text is not None:
            self.texts[ref.token] = ref.text
            if len(self.texts) > STATES_KEPT:
                self.texts.popitem(last=False)
            return ref.text
        try:
            self.texts.move_to_end(ref.token)
        except KeyError:  # the pool's LRU and this one disagree: a bug in toolscale
            raise RuntimeError(f"state token {ref.token} is not held by this worker") from None
        return self.texts[ref.token]

    def resolved(self, value: Any) -> Any:
        """`value` with each StateRef in it, or in a tuple it is, replaced by its text."""
        if isinstance(value, StateRef):
            return self.text(value)
        if isinstance(value, tuple):
            return tuple(self.resolved(v) for v in value)
        return value


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
        tb = getattr(exc, "traceback", "")  # GoldError's: the tool's own traceback
        tb = tb if isinstance(tb, str) else ""
        template = getattr(exc, "template", "")  # GoldError's, KitError's
        return cls(type(exc).__name__, str(exc), tb or traceback.format_exc(), template)

    def __str__(self) -> str:
        return f"{self.error}: {self.message}"


class Worker:
    def __init__(self, call_timeout_s: float) -> None:
        self.timeout = call_timeout_s
        self.episodes: dict[int, Toolkit] = {}

    def call(self, function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """`function(*args, call_timeout_s)`: work a higher stage sends here by reference (a
        task built and its gold executed: `toolscale.sample.in_worker`), so that it runs beside
        the states and with the isolation of the worker."""
        return function(*args, self.timeout)

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

    def replay(
        self, domain: str, state_json: str, calls: list, own: bool = False
    ) -> tuple[list[CallOutcome], str]:
        return replayed(get_domain(domain).toolkit, state_json, calls, self.timeout, own)


READY = ("ready", None)
PRIME = "prime"  # (PRIME, schemas): tool schemas the pool's process derived (no reply)


def main() -> None:
    """`python -c ... FD TIMEOUT_S`: serve the pool on the inherited socket FD."""
    serve(Connection(int(sys.argv[1])), float(sys.argv[2]))


def serve(conn: Connection, call_timeout_s: float) -> None:
    """The worker's main loop: (op, *args) in, ("ok", result) or ("fail", Failure) out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = Worker(call_timeout_s)
    states = States()
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
            args = [states.resolved(a) for a in args]  # in order: before anything can fail
            reply = ("ok", getattr(worker, op)(*args))
        except Exception as exc:
            reply = ("fail", Failure.of(exc))
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):  # the pool went away: nothing left to serve
            return
