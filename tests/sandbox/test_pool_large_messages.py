"""Megabyte requests and replies in flight at once on one worker do not block each other.

A tau2 domain's state is its whole database (retail: ~3 MB of JSON), sent with every episode
opening; a worker's reply can be as large. Before requests were written by a thread, the pool's
event loop blocked writing a large request while the worker blocked writing a large reply: the
loop could not even run the watchdog, and the run hung for good (this test then never ends; its
timeout fails it). Here one worker gets a large reply and a large request at the same moment.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from toolscale.sandbox.pool import SandboxPool


@pytest.mark.timeout(120)
def test_a_large_request_and_a_large_reply_cross_without_a_hang() -> None:
    big = "x" * (4 << 20)
    state_json = json.dumps({"counter": 0, "padding": big})

    async def run() -> tuple[list, list, float]:
        async with SandboxPool(workers=1, call_timeout_s=60.0) as pool:
            episode = pool.episode("faulty", state_json)
            start = time.monotonic()
            # An unknown tool's error names it: a 4 MB name gives a 4 MB reply, while the
            # episode's opening, a 4 MB request, goes to the same worker.
            replies = await asyncio.gather(
                pool.replay("faulty", json.dumps({"counter": 0}), [(big, {})]),
                episode.run([("add", {"amount": 2})]),
            )
            return replies[0][0], replies[1], time.monotonic() - start

    replayed, added, seconds = asyncio.run(run())
    assert replayed[0].status == "error" and len(replayed[0].output) > len(big)
    assert added[0].status == "ok" and added[0].output == "2"
    assert seconds < 30
