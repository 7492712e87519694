"""The worker pool contains tools that hang, crash or kill their process; episodes go on."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from tests.sandbox.processes import sandbox_processes
from toolscale.core.contract import canonical_json
from toolscale.sample.in_worker import sample_in
from toolscale.sandbox.pool import SandboxPool

STATE = json.dumps({"counter": 10})


def run(coro):
    return asyncio.run(coro)


def test_episode_keeps_its_own_state_and_fresh_copies_start_clean():
    async def go():
        async with SandboxPool(workers=2) as pool:
            first, second = pool.episode("faulty", STATE), pool.episode("faulty", STATE)
            a = await first.run([("add", {"amount": 5}), ("add", {"amount": 1})])
            b = await second.call("add", {"amount": 2})
            return [o.output for o in a], b.output

    assert run(go()) == (["15", "16"], "12")


def test_model_errors_are_tool_messages():
    async def go():
        async with SandboxPool(workers=1) as pool:
            episode = pool.episode("faulty", STATE)
            return await episode.run(
                [("add", {"amount": -1}), ("add", {"amount": "x"}), ("nope", {}), ("read", {})]
            )

    outcomes = run(go())
    assert [o.status for o in outcomes] == ["error", "error", "error", "ok"]
    assert outcomes[0].output == "Error: amount must not be negative"
    assert "invalid arguments for add" in outcomes[1].output
    assert "unknown tool 'nope'" in outcomes[2].output
    assert outcomes[3].output == "10"


@pytest.mark.slow
def test_hang_crash_and_death_fail_one_call_and_the_episode_goes_on():
    async def go():
        async with SandboxPool(workers=1, call_timeout_s=2.0, grace_s=2.0) as pool:
            episode = pool.episode("faulty", STATE)
            outcomes = await episode.run(
                [
                    ("add", {"amount": 1}),
                    ("hang", {"seconds": 30}),  # stopped by the in-worker alarm
                    ("crash", {}),
                    ("die", {}),  # the worker exits: replaced, episode rebuilt
                    ("spin", {}),  # a long C call: stopped by the alarm (re checks signals)
                    ("stuck", {}),  # the alarm blocked: the watchdog kills the worker
                    ("add", {"amount": 2}),
                ]
            )
            return outcomes, await episode.finish(), pool.restarts

    outcomes, _, restarts = run(go())
    statuses = ["ok", "timeout", "crash", "crash", "timeout", "timeout", "ok"]
    assert [o.status for o in outcomes] == statuses
    assert outcomes[-1].output == "13"  # state survived both worker replacements
    assert restarts >= 2


def test_replay_reproduces_outputs_and_final_hash():
    async def go():
        async with SandboxPool(workers=2) as pool:
            calls = [("add", {"amount": 3}), ("read", {})]
            return await pool.replay("faulty", STATE, calls), await pool.replay(
                "faulty", STATE, calls
            )

    (first, hash1), (second, hash2) = run(go())
    assert [o.output for o in first] == ["13", "13"] == [o.output for o in second]
    assert hash1 == hash2


def test_code_executor_runs_in_the_workers_and_leaves_no_process_behind():
    async def go():
        async with SandboxPool(workers=2) as pool:
            sampled = await sample_in(pool, "math", 0, 0)
            episode = pool.episode("math", canonical_json(sampled.task.initial_state))
            outcome = await episode.call("code_executor", {"code": "print(6 * 7)"})
            workers = [proc.process.pid for proc in pool.procs]
        return outcome, workers

    outcome, workers = run(go())
    assert (outcome.status, outcome.output) == ("ok", "42")
    # Each worker kept a warm spare; with the worker gone, the spare exits (bubblewrap's
    # --die-with-parent, or end-of-file on its stdin at the other levels).
    deadline = time.monotonic() + 5
    while sandbox_processes(workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sandbox_processes(workers) == []


@pytest.mark.slow
def test_a_call_the_watchdog_kills_fails_alone_and_stalls_no_other_request():
    """One worker: a call that hangs in C (out of the alarm's reach) is killed with its worker;
    the replay, the sample and the other episode's close queued behind it on that worker run
    again on the new one (none raises), and everything ends within the limit plus a little."""

    async def go():
        async with SandboxPool(workers=1, call_timeout_s=1.0, grace_s=1.0) as pool:
            other = pool.episode("faulty", STATE)
            await other.call("add", {"amount": 4})
            hung = pool.episode("faulty", STATE)
            started = time.monotonic()
            results = await asyncio.gather(
                hung.call("stuck", {}),
                pool.replay("faulty", STATE, [("add", {"amount": 1})]),
                sample_in(pool, "faulty", 0, 0),
                other.finish(),
            )
            return results, time.monotonic() - started, pool.restarts

    (spun, (replayed, _), sampled, closed), took, restarts = run(go())
    assert spun.status == "timeout" and spun.output == "Error: stuck failed: timed out"
    assert [o.output for o in replayed] == ["11"]
    assert sampled.task.domain == "faulty"
    assert closed  # the other episode's final hash, its add replayed on the new worker
    assert restarts == 1
    assert took < 6.0  # the watchdog's 2 s, a worker start, the requests run again


@pytest.mark.slow
def test_a_replay_whose_own_call_hangs_fails_that_call_only():
    async def go():
        async with SandboxPool(workers=1, call_timeout_s=1.0, grace_s=1.0) as pool:
            calls = [("add", {"amount": 2}), ("stuck", {}), ("read", {})]
            return await pool.replay("faulty", STATE, calls)

    outcomes, digest = run(go())
    assert [o.status for o in outcomes] == ["ok", "timeout", "ok"]
    assert outcomes[2].output == "12"
    assert digest == run(_hash_after_add_2())


async def _hash_after_add_2() -> str:
    async with SandboxPool(workers=1) as pool:
        return (await pool.replay("faulty", STATE, [("add", {"amount": 2})]))[1]


def test_replies_that_arrive_together_each_reach_their_request():
    # Many requests in flight on one worker: its replies queue up in the socket and are read in
    # one go after one readiness (the connection's own poll); each must reach its own request.
    async def go():
        async with SandboxPool(workers=1) as pool:
            episodes = [pool.episode("faulty", STATE) for _ in range(40)]
            return await asyncio.gather(
                *(e.call("add", {"amount": n}) for n, e in enumerate(episodes))
            )

    assert [o.output for o in run(go())] == [str(10 + n) for n in range(40)]
