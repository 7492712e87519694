"""A state goes to a worker once: later requests carry its token, and the pool's record of what
each worker holds stays the worker's own, across evictions and a worker's restart."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections import OrderedDict

from toolscale.sandbox.pool import SandboxPool, _Process, _State
from toolscale.sandbox.worker import STATES_KEPT, States


def counter(value: int) -> str:
    return json.dumps({"counter": value})


def test_the_pool_and_the_worker_hold_the_same_states() -> None:
    proc = object.__new__(_Process)  # its LRU alone: no worker process
    proc.states, proc.tokens = OrderedDict(), itertools.count()
    held = States()
    rng = random.Random(0)
    texts = [counter(i) for i in range(3 * STATES_KEPT)]
    shipped = 0
    for _ in range(600):
        text = rng.choice(texts[:4] if rng.random() < 0.7 else texts)  # a few often, any at times
        ref = proc._ref(("replay", "faulty", _State(text), []))[2]
        shipped += ref.text is not None
        assert held.resolved(ref) == text
        assert list(proc.states.values()) == list(held.texts)  # the same tokens, in LRU order
    assert len(held.texts) == STATES_KEPT
    assert 3 * STATES_KEPT <= shipped < 400  # each text once at least; the held ones as tokens


def test_replays_on_many_states_and_after_a_restart_read_their_own_state() -> None:
    values = list(range(STATES_KEPT + 5))  # more than a worker keeps: some are sent again

    async def go() -> tuple[list[str], int]:
        async with SandboxPool(workers=1, call_timeout_s=2.0, grace_s=2.0) as pool:
            read = []
            for round_ in range(2):
                for value in values:
                    outcomes, _ = await pool.replay("faulty", counter(value), [("read", {})])
                    read.append(outcomes[0].output)
                if round_ == 0:  # the worker dies: the new one holds no state
                    await pool.episode("faulty", counter(0)).call("die", {})
            return read, pool.restarts

    read, restarts = asyncio.run(go())
    assert read == [str(v) for v in values] * 2
    assert restarts == 1
