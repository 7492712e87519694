"""Several endpoints of one model: requests are spread over them within each endpoint's slots, an
endpoint that keeps failing is taken out of rotation without losing a request or a task and is
probed back in after a cool-down (a test clock, no sleeping), one that refuses the key stays out,
and the request cache does not depend on which endpoint answered (a --resume with other URLs
sends nothing for what was answered)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from tests.teachers.fake_openai import FakeOpenAI, Plans, gold_turns
from toolscale.config.generate import GenerateConfig
from toolscale.llm.client import ChatClient, Endpoint, RetryPolicy, TeacherFailure
from toolscale.llm.endpoints import EndpointPool
from toolscale.llm.ledger import Budget, Ledger
from toolscale.pipeline.generate import generate

FAST = RetryPolicy(timeout_s=0.5, max_retries=1, base_delay_s=0.01, max_delay_s=0.02)
KEY_ENV = "TOOLSCALE_TEST_KEY"


def dead_url() -> str:
    """A loopback URL where nothing listens: every connection is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


class DiesAfter(Plans):
    """Answers its first `healthy` requests, then 503 to everything (a server that went bad)."""

    def __init__(self, turns: dict[str, list[dict[str, Any]]], healthy: int) -> None:
        super().__init__(turns)
        self.healthy = healthy

    def reply(self, body: dict[str, Any], authorization: str = "") -> tuple[str, Any]:
        if self.requests > self.healthy:
            return "raw", (503, {}, '{"error": {"message": "down"}}')
        return super().reply(body, authorization)


class Clock:
    """The pool's monotonic clock, moved by the test: cool-downs pass without sleeping."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class DownUntil(Plans):
    """503 to everything while `clock` reads less than `until` (a server restarting), then the
    plans."""

    def __init__(self, turns: dict[str, list[dict[str, Any]]], clock: Clock, until: float) -> None:
        super().__init__(turns)
        self.clock = clock
        self.until = until

    def reply(self, body: dict[str, Any], authorization: str = "") -> tuple[str, Any]:
        if self.clock() < self.until:
            return "raw", (503, {}, '{"error": {"message": "restarting"}}')
        return super().reply(body, authorization)


def pool_of(
    urls: list[str], per_endpoint: int, max_failures: int = 3, **options: Any
) -> EndpointPool:
    budget = Budget()
    clients = [ChatClient(Endpoint(u, "fake"), "k", FAST, Ledger(0, 0, budget)) for u in urls]
    return EndpointPool(clients, per_endpoint=per_endpoint, max_failures=max_failures, **options)


def ask_all(pool: EndpointPool, instructions: list[str], at_once: bool = True) -> list[Any]:
    """Send one request per instruction, all at once or one after another; the answers (or
    errors) in order."""

    async def ask(instruction: str) -> Any:
        try:
            return await pool.complete([{"role": "user", "content": instruction}], [], {})
        except TeacherFailure as failure:
            return failure

    async def run() -> list[Any]:
        try:
            if at_once:
                return await asyncio.gather(*(ask(i) for i in instructions))
            return [await ask(i) for i in instructions]
        finally:
            await pool.close()

    return asyncio.run(run())


def test_two_endpoints_share_the_load_within_their_slots(monkeypatch):
    instructions = [f"question {i}" for i in range(12)]
    turns = {i: [{"content": f"answer to {i}"}] for i in instructions}
    peak: dict[str, int] = {}
    now: dict[str, int] = {}
    send = ChatClient.send

    async def counted(self, messages, tools, sampling):
        url = self.endpoint.base_url
        now[url] = now.get(url, 0) + 1
        peak[url] = max(peak.get(url, 0), now[url])
        try:
            await asyncio.sleep(0.02)  # hold the slot long enough for requests to overlap
            return await send(self, messages, tools, sampling)
        finally:
            now[url] -= 1

    monkeypatch.setattr(ChatClient, "send", counted)
    with FakeOpenAI(Plans(dict(turns))) as a, FakeOpenAI(Plans(dict(turns))) as b:
        pool = pool_of([a.base_url, b.base_url], per_endpoint=2)
        answers = ask_all(pool, instructions)
        served = (a.plans.requests, b.plans.requests)
    assert [r.message["content"] for r in answers] == [f"answer to {i}" for i in instructions]
    assert sum(served) == 12 and min(served) >= 4  # both carried a real share
    assert peak == {a.base_url: 2, b.base_url: 2}  # never more than 2 in flight on one
    summary = pool.summary()
    assert summary["requests"] == 12 and summary["rerouted"] == 0
    assert [e["requests"] for e in summary["by_url"].values()] == list(served)
    assert [e["dropped"] for e in summary["by_url"].values()] == [0, 0]


def test_a_failing_endpoint_is_dropped_and_its_requests_answered_elsewhere():
    instructions = [f"question {i}" for i in range(10)]
    turns = {i: [{"content": f"answer to {i}"}] for i in instructions}
    dead = dead_url()
    with FakeOpenAI(Plans(turns)) as good:
        pool = pool_of([dead, good.base_url], per_endpoint=1, max_failures=2)
        # One at a time, so the order is known: ties go to the endpoint given fewer requests,
        # then to the first listed; the dead one gets requests 0 and 1, both answered elsewhere.
        answers = ask_all(pool, instructions, at_once=False)
        assert good.plans.requests == 10  # every request was answered by the good one
    assert [r.message["content"] for r in answers] == [f"answer to {i}" for i in instructions]
    summary = pool.summary()
    entry = summary["by_url"][dead]
    assert entry["dropped"] == 1 and "2 requests failed in a row" in entry["dropped_because"][0]
    assert entry["failed"] == {"connection": 2} and entry["requests"] == 2
    assert summary["rerouted"] == 2 and summary["by_url"][good.base_url]["dropped"] == 0


def test_the_last_endpoint_is_never_dropped():
    pool = pool_of([dead_url()], per_endpoint=2, max_failures=1)
    answers = ask_all(pool, ["a", "b", "c"])
    assert all(isinstance(r, TeacherFailure) and r.kind == "connection" for r in answers)
    only = next(iter(pool.summary()["by_url"].values()))
    assert only["dropped"] == 0 and only["failed"] == {"connection": 3}


def answers_of(name: str, instructions: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Plans under which server `name` answers "name: instruction", so answers say who served."""
    return {i: [{"content": f"{name}: {i}"}] for i in instructions}


def ask_at(pool: EndpointPool, clock: Clock, timeline: list[tuple[float, list[str]]]) -> list[Any]:
    """For each (time, instructions): set the clock, then send those requests at once; the
    answers' texts (or errors) in order."""

    async def ask(instruction: str) -> Any:
        try:
            answer = await pool.complete([{"role": "user", "content": instruction}], [], {})
        except TeacherFailure as failure:
            return failure
        return answer.message["content"]

    async def run() -> list[Any]:
        answers = []
        try:
            for at, instructions in timeline:
                clock.now = at
                answers += await asyncio.gather(*(ask(i) for i in instructions))
        finally:
            await pool.close()
        return answers

    return asyncio.run(run())


def test_a_dropped_endpoint_comes_back_after_its_cool_down_and_takes_load_again():
    questions = [f"q{i}" for i in range(8)]
    clock = Clock()
    restarting = DownUntil(answers_of("a", questions), clock, until=10.0)
    with FakeOpenAI(restarting) as a, FakeOpenAI(Plans(answers_of("b", questions))) as b:
        pool = pool_of([a.base_url, b.base_url], per_endpoint=1, max_failures=2, clock=clock)
        times = [0, 0, 0, 29.9, 30, 30, 30, 30]
        answers = ask_at(pool, clock, [(t, [q]) for t, q in zip(times, questions, strict=True)])
    # q0, q1 fail on a (dropped at t=0, back at 30) and go to b; q3 comes before the cool-down
    # ends; q4 is a's probe; put back with b's count of requests, a wins the tie for q5, then
    # the two alternate.
    served = ["b", "b", "b", "b", "a", "a", "b", "a"]
    assert answers == [f"{s}: {q}" for s, q in zip(served, questions, strict=True)]
    summary = pool.summary()
    entry = summary["by_url"][a.base_url]
    assert entry["active"] == 1 and entry["dropped"] == 1 and entry["readmitted"] == 1
    assert "2 requests failed in a row" in entry["dropped_because"][0]
    assert "HTTP 503" in entry["dropped_because"][0]
    assert entry["requests"] == 5 and entry["failed"] == {"http_503": 2}
    assert summary["rerouted"] == 2 and summary["requests"] == 10
    other = summary["by_url"][b.base_url]
    assert (other["active"], other["dropped"], other["readmitted"]) == (1, 0, 0)
    assert other["dropped_because"] == []


def test_a_failed_probe_drops_the_endpoint_again_for_twice_the_cool_down():
    questions = [f"q{i}" for i in range(6)]
    clock = Clock()
    restarting = DownUntil(answers_of("a", questions), clock, until=45.0)
    with FakeOpenAI(restarting) as a, FakeOpenAI(Plans(answers_of("b", questions))) as b:
        pool = pool_of([a.base_url, b.base_url], per_endpoint=1, max_failures=2, clock=clock)
        times = [0, 0, 30, 89.9, 90, 90]
        answers = ask_at(pool, clock, [(t, [q]) for t, q in zip(times, questions, strict=True)])
    # Dropped at t=0 for 30 s; q2 probes at 30 (still down): out again for 60 s, so q3 at 89.9
    # is not a probe and q4 at 90 is, which succeeds (up since 45).
    served = ["b", "b", "b", "b", "a", "a"]
    assert answers == [f"{s}: {q}" for s, q in zip(served, questions, strict=True)]
    summary = pool.summary()
    entry = summary["by_url"][a.base_url]
    assert entry["active"] == 1 and entry["dropped"] == 2 and entry["readmitted"] == 1
    assert entry["dropped_because"][0].startswith("the probe after a cool-down failed")
    assert entry["requests"] == 5 and entry["failed"] == {"http_503": 3}
    assert summary["rerouted"] == 3


def test_cool_downs_double_after_each_failed_probe_up_to_the_cap():
    questions = [f"q{i}" for i in range(8)]
    clock = Clock()
    down = DownUntil(answers_of("a", questions), clock, until=float("inf"))
    with FakeOpenAI(down) as a, FakeOpenAI(Plans(answers_of("b", questions))) as b:
        pool = pool_of(
            [a.base_url, b.base_url],
            per_endpoint=1,
            max_failures=1,
            cool_down_s=1.0,
            max_cool_down_s=3.0,
            clock=clock,
        )
        # Out at 0 for 1 s, at 1 for 2 s, at 3 for 3 s (4 capped), at 6 for 3 s.
        times = [0, 0.9, 1, 2.9, 3, 5.9, 6, 8.9]
        answers = ask_at(pool, clock, [(t, [q]) for t, q in zip(times, questions, strict=True)])
        probed = sorted({body["messages"][0]["content"] for body in a.plans.bodies})
    assert probed == ["q0", "q2", "q4", "q6"]
    assert answers == [f"b: {q}" for q in questions]
    entry = pool.summary()["by_url"][a.base_url]
    assert entry["requests"] == 4 and entry["failed"] == {"http_503": 4}
    assert (entry["active"], entry["dropped"], entry["readmitted"]) == (0, 4, 0)


def test_one_probe_at_a_time_and_no_request_lost_when_many_arrive_together():
    questions = [f"q{i}" for i in range(7)]
    clock = Clock()
    dead = dead_url()
    with FakeOpenAI(Plans(answers_of("good", questions))) as good:
        pool = pool_of([dead, good.base_url], per_endpoint=2, max_failures=1, clock=clock)
        answers = ask_at(pool, clock, [(0, questions[:1]), (30, questions[1:])])
    assert answers == [f"good: {q}" for q in questions]
    entry = pool.summary()["by_url"][dead]
    assert entry["requests"] == 2  # q0, then a single probe among the six sent together
    assert (entry["active"], entry["dropped"], entry["readmitted"]) == (0, 2, 0)


def test_an_endpoint_that_refuses_the_key_is_never_put_back():
    questions = [f"q{i}" for i in range(5)]
    clock = Clock()
    refusing = Plans(answers_of("a", questions), faults=dict.fromkeys(questions, "echo_401"))
    with FakeOpenAI(refusing) as a, FakeOpenAI(Plans(answers_of("b", questions))) as b:
        pool = pool_of([a.base_url, b.base_url], per_endpoint=1, clock=clock)
        times = [0, 30, 600, 3600, 1e6]
        answers = ask_at(pool, clock, [(t, [q]) for t, q in zip(times, questions, strict=True)])
        assert a.plans.requests == 1  # q0 only: never probed, however long it has been out
    assert answers == [f"b: {q}" for q in questions]
    entry = pool.summary()["by_url"][a.base_url]
    assert (entry["active"], entry["dropped"], entry["readmitted"]) == (0, 1, 0)
    assert "answered 401" in entry["dropped_because"][0]


def rows(out: Path, config: str) -> list[dict]:
    shards = sorted((out / "data" / config).glob("*.parquet"))
    return [r for p in shards for r in pq.read_table(p).to_pylist()]


def config_for(urls: list[str], out: Path, **extra: Any) -> GenerateConfig:
    return GenerateConfig(
        domains=["math"],
        num_tasks=8,
        out=out,
        teacher="openai",
        base_url=tuple(urls),
        model="fake-model",
        api_key_env=KEY_ENV,
        chunk_size=4,
        concurrency=4,
        endpoint_concurrency=2,
        endpoint_max_failures=2,
        request_timeout_s=0.5,
        max_retries=1,
        retry_base_s=0.01,
        **extra,
    )


@pytest.mark.slow
def test_generate_drops_a_failing_endpoint_loses_no_task_and_resumes_from_the_cache(
    tmp_path, monkeypatch
):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    turns = gold_turns("math", 8)
    out = tmp_path / "out"
    with FakeOpenAI(Plans(dict(turns))) as good, FakeOpenAI(DiesAfter(dict(turns), 3)) as bad:
        summary = generate(config_for([bad.base_url, good.base_url], out))
        assert bad.plans.requests >= 4  # it answered, then failed until it was dropped
    assert summary["status"] == "complete"
    assert summary["counts"]["sampled"] == 8 and summary["counts"]["verified"] == 8
    teacher = summary["endpoints"]["teacher"]
    assert teacher["by_url"][bad.base_url]["dropped"] == 1
    assert "HTTP 503" in teacher["by_url"][bad.base_url]["dropped_because"][0]
    assert teacher["by_url"][good.base_url]["dropped"] == 0 and teacher["rerouted"] >= 2
    assert summary["config"]["base_url"] == [bad.base_url, good.base_url]
    traces = sorted(r["id"] for r in rows(out, "traces"))

    # A run killed before its second chunk was marked: --resume against another endpoint list
    # replays that chunk from the cache and sends nothing.
    last = sorted((out / ".toolscale" / "chunks").glob("*.json"))[-1]
    last.unlink()
    for shard in (out / "data").glob(f"*/{last.stem}.parquet"):
        shard.unlink()
    with FakeOpenAI(Plans(dict(turns))) as other:
        again = generate(config_for([other.base_url], out, resume=True))
        assert other.plans.requests == 0
    assert again["status"] == "complete" and again["counts"]["verified"] == 8
    assert again["endpoints"]["teacher"]["cached"] > 0
    assert again["endpoints"]["teacher"]["sent"] == 0
    assert sorted(r["id"] for r in rows(out, "traces")) == traces


@pytest.mark.slow
def test_base_url_repeats_on_the_command_line_and_lists_in_a_config_file(tmp_path):
    dead = dead_url()
    config = tmp_path / "run.yaml"
    config.write_text(f"teacher: openai\nmodel: m\nbase-url:\n  - {dead}\n  - {dead}\n")
    cmd = [sys.executable, "-m", "toolscale", "generate", "--api-key-env", "PATH"]
    twice = subprocess.run(
        [*cmd, "--config", str(config), "--out", str(tmp_path / "a")],
        capture_output=True,
        text=True,
    )
    assert twice.returncode == 2 and f"--base-url {dead} is given twice" in twice.stderr
    assert twice.stderr.count("error:") == 1 and not (tmp_path / "a").exists()
    bad = subprocess.run(
        [
            *cmd,
            "--teacher",
            "openai",
            "--model",
            "m",
            "--base-url",
            dead,
            "--base-url",
            "host:80",
            "--out",
            str(tmp_path / "b"),
        ],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "'host:80' is not an http(s) URL" in bad.stderr
    assert not (tmp_path / "b").exists()
    zero = subprocess.run(
        [
            *cmd,
            "--config",
            str(config),
            "--endpoint-concurrency",
            "0",
            "--out",
            str(tmp_path / "c"),
        ],
        capture_output=True,
        text=True,
    )
    assert zero.returncode == 2 and "--endpoint-concurrency must be at least 1" in zero.stderr
    assert zero.stderr.count("error:") == 1 and not (tmp_path / "c").exists()
