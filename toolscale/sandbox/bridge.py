"""A SandboxPool for synchronous callers: the pool runs on its own event loop in a thread.

The trainer's tool loop (TRL) calls tools synchronously from its own thread; this bridge lets it
use the very same worker pool, episodes and verifier as generation.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from toolscale.sandbox.pool import SandboxPool

T = TypeVar("T")


class SandboxThread:
    """`SandboxThread(workers=2)`; `.run(coro)` runs a coroutine on the pool's loop and waits."""

    def __init__(self, workers: int = 2, call_timeout_s: float = 15.0) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="sandbox")
        self.thread.start()
        self.pool = SandboxPool(workers, call_timeout_s)
        self.run(self.pool.__aenter__())
        self.closed = False

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.run(self.pool.__aexit__(None, None, None))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()
