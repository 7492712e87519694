"""A pool of sandbox worker processes that execute tool calls for many concurrent episodes.

Runs on the caller's asyncio loop, with no threads: requests are written to each worker's socket
without blocking (what does not fit is written when the socket has room) and replies are read by
a loop reader. Each episode is pinned to one worker, which holds its state. A worker that dies or
runs past a request's time limit is killed and replaced; the request that hung fails as a
timed-out or crashed call, and an episode that lived on that worker is rebuilt on the new one by
replaying its earlier calls. Nothing here raises for what a tool did.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import pickle
import select
import socket
import struct
import subprocess
import sys
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from toolscale.core.contract import derived_schemas
from toolscale.sandbox.contained import refuse_below_bwrap, start_worker, untrusted
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.isolation import LEVEL_ENV, sandbox_level
from toolscale.sandbox.worker import PRIME, READY, STATES_KEPT, Failure, StateRef

_MAX_IN_FLIGHT = 8
_BOOT = "from toolscale.sandbox.worker import main; main()"
# A contained worker's (`toolscale.sandbox.contained`): its argv is the bootstrap's.
_SERVE = (
    "from multiprocessing.connection import Connection\n"
    "from toolscale.sandbox.worker import serve\nserve(Connection({fd}), {timeout!r})"
)


_START_LIMIT_S = 120.0


class SandboxError(Exception):
    """A request the worker could not serve (a bug in a domain or in toolscale); `failure` says
    which exception the worker met, with its traceback."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(str(failure))
        self.failure = failure


class WorkerLost(Exception):
    """The worker died or hung while this request was queued or running on it."""

    def __init__(self, reason: str, culprit: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.culprit = culprit


@dataclass(frozen=True)
class _State:
    """A state's JSON in a request being built: `_Process._send` turns it into a `StateRef`."""

    text: str


class _Process:
    def __init__(self, pool: SandboxPool) -> None:
        self.pool = pool
        self.generation = 0
        self.pending: deque[tuple[asyncio.Future[Any], float]] = deque()
        self.slots = asyncio.Semaphore(_MAX_IN_FLIGHT)
        self.restarts = 0
        self.closed = False
        self._start()

    def _start(self) -> None:
        # A plain child interpreter on one end of a socket pair (what multiprocessing's duplex
        # Pipe is). Not multiprocessing's spawn: that re-imports the caller's __main__ in every
        # worker, which for a script or a test session is seconds of imports the worker never
        # uses. The worker reads the parent's sys.path from its command line.
        parent, child = socket.socketpair()
        boot = f"import sys; sys.path[:] = {sys.path!r}; {_BOOT}"
        if self.pool.contained:
            self.process = start_worker(_SERVE, child.fileno(), self.pool.call_timeout_s)
        else:
            self.process = subprocess.Popen(
                [sys.executable, "-c", boot, str(child.fileno()), repr(self.pool.call_timeout_s)],
                pass_fds=[child.fileno()],
                stdin=subprocess.DEVNULL,
                env={**os.environ, LEVEL_ENV: self.pool.level},  # decided once, by the parent
            )
        child.close()
        # Replies are read through a Connection (its framing, blocking reads of a reply the
        # worker is writing); requests are written here in the same framing, never blocking: a
        # large request (an episode on a database of megabytes) waits in `unsent` for room in
        # the socket while the loop stays free to read the worker's replies. No writer thread:
        # on two busy cores, handing the GIL to one per request cost more than the writes.
        self.sock = parent
        self.conn = Connection(os.dup(parent.fileno()))
        # Whether another reply is waiting, asked after each one read: `Connection.poll` builds
        # a selector per question (a few percent of a busy run's driving process), this asks
        # the kernel once. A Connection buffers nothing, so its socket's readiness is its own.
        self.readable = select.poll()
        self.readable.register(self.conn.fileno(), select.POLLIN)
        # The states this worker holds, by text, as its `States` holds them by token.
        self.states: OrderedDict[str, int] = OrderedDict()
        self.tokens = itertools.count()
        self.unsent: deque[memoryview] = deque()
        self.head_started = time.monotonic()
        self.ready = False  # a time limit runs only once the worker has said it is ready
        self.generation += 1
        self.pool.loop.add_reader(self.conn.fileno(), self._on_readable)
        # First, the tool schemas derived here, so that the worker need not import transformers
        # to derive them again; it answers nothing to this message.
        self._send((PRIME, derived_schemas()))

    def _ref(self, value: Any) -> Any:
        """`value` with each `_State` in it (or in a tuple it is) as the worker will get it: its
        token alone when the worker holds that text, else the text with a new token."""
        if isinstance(value, tuple):
            return tuple(self._ref(v) for v in value)
        if not isinstance(value, _State):
            return value
        token = self.states.get(value.text)
        if token is not None:
            self.states.move_to_end(value.text)
            return StateRef(token)
        token = self.states[value.text] = next(self.tokens)
        if len(self.states) > STATES_KEPT:
            self.states.popitem(last=False)
        return StateRef(token, value.text)

    def _send(self, message: tuple) -> None:
        """Queue one message in `multiprocessing.connection`'s framing and write what fits.
        Messages reach the worker in the order they are sent here, which is the order in which
        `_ref` changes what the worker holds."""
        data = pickle.dumps(tuple(self._ref(m) for m in message), pickle.HIGHEST_PROTOCOL)
        if len(data) > 0x7FFFFFFF:
            header = struct.pack("!iQ", -1, len(data))
        else:
            header = struct.pack("!i", len(data))
        idle = not self.unsent
        self.unsent.append(memoryview(header + data))
        if idle:
            self._write()

    def _write(self) -> None:
        unsent = self.unsent
        try:
            while unsent:
                sent = self.sock.send(unsent[0], socket.MSG_DONTWAIT)
                if sent == len(unsent[0]):
                    unsent.popleft()
                else:
                    unsent[0] = unsent[0][sent:]
        except BlockingIOError:
            pass
        except OSError:  # the worker is gone; said from the loop, not from inside a request
            unsent.clear()
            self.pool.loop.remove_writer(self.sock.fileno())
            self.pool.loop.call_soon(self._died, self.generation)
            return
        if unsent:
            self.pool.loop.add_writer(self.sock.fileno(), self._write)
        else:
            self.pool.loop.remove_writer(self.sock.fileno())

    def _died(self, generation: int) -> None:
        if generation == self.generation and not self.closed:  # not replaced nor hung up
            self.lose("the worker process died")

    def _close_socket(self) -> None:
        self.unsent.clear()
        self.pool.loop.remove_writer(self.sock.fileno())
        self.pool.loop.remove_reader(self.conn.fileno())
        self.conn.close()
        self.sock.close()

    async def request(self, message: tuple, limit_s: float) -> Any:
        async with self.slots:
            future = self.pool.loop.create_future()
            if not self.pending and self.ready:
                self.head_started = time.monotonic()
            self.pending.append((future, limit_s))
            self._send(message)
            kind, value = await future
        if kind == "fail":
            raise SandboxError(value)
        return value

    def _on_readable(self) -> None:
        try:
            while self.readable.poll(0):
                reply = self.conn.recv()
                if reply == READY:  # imports done: the first request's clock starts now
                    self.ready = True
                    self.head_started = time.monotonic()
                    continue
                future, _ = self.pending.popleft()
                self.head_started = time.monotonic()
                if not future.done():
                    future.set_result(reply)
        except (EOFError, OSError):
            self.lose("the worker process died")

    def overdue(self, now: float) -> bool:
        if not self.ready:  # starting up (importing): only a start that never ends is overdue
            return now - self.head_started > _START_LIMIT_S
        return bool(self.pending) and now - self.head_started > self.pending[0][1]

    def lose(self, reason: str) -> None:
        """Kill this worker, fail everything queued on it, start a fresh one."""
        self._close_socket()
        self.process.kill()
        self.process.wait(timeout=5)
        for position, (future, _) in enumerate(self.pending):
            if not future.done():
                future.set_exception(WorkerLost(reason, culprit=position == 0))
        self.pending.clear()
        self.restarts += 1
        self._start()

    def hang_up(self) -> None:
        """Close the pipe: the worker exits by itself, releasing what it holds."""
        self.closed = True
        self._close_socket()

    def reap(self, deadline: float) -> None:
        """Wait for the hung-up worker until `deadline`; then kill it."""
        try:
            self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)


class SandboxPool:
    """`async with SandboxPool(workers=2) as pool:` then `pool.call`, `pool.episode`,
    `pool.replay`. `call_timeout_s` bounds each tool call. The isolation level of untrusted code
    is found here, once, and handed to every worker (`toolscale.sandbox.isolation`). Workers
    start in bubblewrap when a model wrote one of `domains` (default: any installed domain) and
    no person marked it trusted (`toolscale.sandbox.contained`)."""

    def __init__(
        self,
        workers: int = 2,
        call_timeout_s: float = 15.0,
        grace_s: float = 5.0,
        domains: Sequence[str] | None = None,
    ) -> None:
        self.level = ""
        self.domains = domains
        self.contained = False
        self.size = workers
        self.call_timeout_s = call_timeout_s
        self.grace_s = grace_s
        self.procs: list[_Process] = []
        self._ids = itertools.count()

    async def __aenter__(self) -> SandboxPool:
        self.loop = asyncio.get_running_loop()
        self.level = sandbox_level()
        model_written = untrusted(self.domains)
        if model_written:
            refuse_below_bwrap(model_written)
        self.contained = bool(model_written)
        self.procs = [_Process(self) for _ in range(self.size)]
        self._watchdog = asyncio.create_task(self._watch())
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._watchdog.cancel()
        for proc in self.procs:  # all at once: the workers wind down in parallel
            proc.hang_up()
        deadline = time.monotonic() + 2.0
        for proc in self.procs:
            proc.reap(deadline)

    @property
    def restarts(self) -> int:
        return sum(p.restarts for p in self.procs)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(0.1)
            now = time.monotonic()
            for proc in self.procs:
                if proc.overdue(now):
                    proc.lose("timed out")

    def pick(self) -> _Process:
        return min(self.procs, key=lambda p: len(p.pending))

    def limit(self, calls: int = 1) -> float:
        return self.call_timeout_s * max(1, calls) + self.grace_s

    async def call(
        self, function: Callable[..., Any], args: tuple[Any, ...], what: str, calls: int = 8
    ) -> Any:
        """`function(*args, call_timeout_s)` in a worker, under the time limit of `calls` tool
        calls; `function` is sent by reference (a module-level function), `what` names the work
        in an error. A worker lost under it for another request's sake is no failure of the
        work: it runs again."""
        try:
            return await self.pick().request(("call", function, args), self.limit(calls))
        except WorkerLost as lost:
            if not lost.culprit:
                return await self.call(function, args, what, calls)
            raise SandboxError(Failure("WorkerLost", f"{what} {lost.reason}", "")) from None

    async def replay(
        self,
        domain: str,
        state_json: str,
        calls: Sequence[tuple[str, Any]],
        own: bool = False,
    ) -> tuple[list[CallOutcome], str]:
        """Run `calls` in order on a fresh copy of the state; return outcomes and final hash.
        `own`: the calls are a route of the domain's own (`Toolkit.own_programs`), never a
        model's. A worker lost under the replay for another request's sake runs it again; one
        the replay itself hung or killed runs it again call by call, so the call that did fails
        alone (in the sandbox: the same outcomes an own route would get)."""
        message = ("replay", domain, _State(state_json), list(calls), own)
        try:
            return await self.pick().request(message, self.limit(len(calls)))
        except WorkerLost as lost:
            if not lost.culprit:
                return await self.replay(domain, state_json, calls, own)
        episode = self.episode(domain, state_json)
        outcomes = await episode.run(calls)
        return outcomes, await episode.finish()

    def episode(self, domain: str, state_json: str) -> Episode:
        return Episode(self, next(self._ids), domain, state_json)


class Episode:
    """One episode's state, living in a worker. `run` executes calls in order; `finish` returns
    the final state hash and frees the state."""

    def __init__(self, pool: SandboxPool, ident: int, domain: str, state_json: str) -> None:
        self.pool = pool
        self.ident = ident
        self.domain = domain
        self.state_json = state_json
        self.executed: list[tuple[str, Any]] = []
        self.proc: _Process | None = None
        self.generation = -1

    def _placed(self) -> tuple[_Process, tuple | None]:
        """The worker holding this episode, and what it needs to open the episode first (sent
        with the next request) when it does not hold it yet: on first use, or after the worker
        that held it was replaced."""
        proc = self.proc
        if proc is not None and proc.generation == self.generation:
            return proc, None
        proc = self.proc = self.pool.pick()
        self.generation = proc.generation
        return proc, (self.domain, _State(self.state_json), list(self.executed))

    async def run(self, calls: Sequence[tuple[str, Any]]) -> list[CallOutcome]:
        calls = list(calls)
        proc, opening = self._placed()
        limit = self.pool.limit(len(calls) + (len(opening[2]) + 1 if opening else 0))
        try:
            outcomes = await proc.request(("run", self.ident, calls, opening), limit)
        except WorkerLost as lost:
            if len(calls) > 1:  # find the culprit: one call at a time
                return [(await self.run([call]))[0] for call in calls]
            if not lost.culprit:
                return await self.run(calls)
            status = "timeout" if lost.reason == "timed out" else "crash"
            trace = "" if status == "timeout" else f"no Python traceback: {lost.reason}"
            output = f"Error: {calls[0][0]} failed: {lost.reason}"
            return [CallOutcome(output, status, traceback=trace)]
        self.executed.extend(calls)
        return outcomes

    async def call(self, name: str, arguments: Any) -> CallOutcome:
        return (await self.run([(name, arguments)]))[0]

    async def finish(self) -> str:
        proc, opening = self._placed()
        limit = self.pool.limit(len(opening[2]) + 1 if opening else 1)
        try:
            return await proc.request(("close", self.ident, opening), limit)
        except WorkerLost as lost:
            if lost.culprit:  # closing (replaying the calls that worked) cannot hang: a bug
                raise
            return await self.finish()  # rebuilt on the new worker from the calls that worked
