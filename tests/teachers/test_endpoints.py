"""Several endpoints of one model: requests are spread over them within each endpoint's slots, an
endpoint that keeps failing is taken out of rotation without losing a request or a task, and the
request cache does not depend on which endpoint answered (a --resume with other URLs sends
nothing for what was answered)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from tests.teachers.fake_openai import FakeOpenAI, Plans, gold_turns
from toolscale.generate import GenerateConfig, generate
from toolscale.llm.client import ChatClient, Endpoint, RetryPolicy, TeacherFailure
from toolscale.llm.endpoints import EndpointPool
from toolscale.llm.ledger import Budget, Ledger

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


def pool_of(urls: list[str], per_endpoint: int, max_failures: int = 3) -> EndpointPool:
    budget = Budget()
    clients = [ChatClient(Endpoint(u, "fake"), "k", FAST, Ledger(0, 0, budget)) for u in urls]
    return EndpointPool(clients, per_endpoint=per_endpoint, max_failures=max_failures)


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
