"""The chat client against a loopback fault-injecting server: retries, counts, cache, budget,
and a key that never leaks into an error."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from pathlib import Path

import pytest

from tests.teachers.fake_openai import FakeOpenAI, Plans
from toolscale.llm.cache import RequestCache
from toolscale.llm.client import ChatClient, Endpoint, RetryPolicy, TeacherFailure
from toolscale.llm.ledger import Budget, BudgetExhausted, EndpointRejected, Ledger

KEY = "sk-FAKEKEY-do-not-leak-7c1e"
FAST = RetryPolicy(timeout_s=0.3, max_retries=2, base_delay_s=0.01, max_delay_s=0.05)
ANSWER = [{"content": "The answer is 4."}]


def ask(server: FakeOpenAI, fault: str, tmp_path=None, budget: Budget | None = None, price=0.0):
    """Send one request whose instruction carries `fault`; returns (client, result or error)."""
    server.plans.turns[fault] = ANSWER
    server.plans.faults[fault] = fault
    ledger = Ledger(price, price, budget or Budget())
    cache = RequestCache(tmp_path) if tmp_path else None
    client = ChatClient(Endpoint(server.base_url, "fake"), KEY, FAST, ledger, cache)

    async def once():
        try:
            return await client.complete([{"role": "user", "content": fault}], [], {})
        except Exception as exc:
            return exc
        finally:
            await client.close()

    return client, asyncio.run(once())


@pytest.fixture
def server():
    with FakeOpenAI(Plans({})) as running:
        yield running


@pytest.mark.parametrize(
    ("fault", "kind"),
    [("500", "http_500"), ("503", "http_503"), ("hang", "timeout"), ("drop", "connection")],
)
def test_transient_faults_are_retried_and_counted_by_kind(server, fault, kind):
    client, result = ask(server, fault)
    assert result.message["content"] == "The answer is 4."
    summary = client.ledger.summary()
    assert summary["faults"] == {kind: 1}
    assert (summary["requests"], summary["sent"], summary["retries"]) == (1, 2, 1)
    assert server.plans.requests == 2


def test_429_waits_for_retry_after(server):
    server.plans.retry_after_s = 0.4
    started = time.monotonic()
    client, result = ask(server, "429")
    assert result.message["content"] == "The answer is 4."
    assert time.monotonic() - started >= 0.4  # the backoff alone would be ~0.01 s
    assert client.ledger.summary()["faults"] == {"http_429": 1}


def test_a_malformed_body_is_retried_then_fails_as_a_teacher_failure(server):
    client, result = ask(server, "malformed")
    assert isinstance(result, TeacherFailure) and result.kind == "malformed"
    summary = client.ledger.summary()
    assert summary["faults"] == {"malformed": 3} and summary["failed"] == {"malformed": 1}
    assert server.plans.requests == 3  # max_retries 2: three tries
    _, recovered = ask(server, "malformed_once")
    assert recovered.message["content"] == "The answer is 4."


def test_a_refused_key_stops_the_run_without_showing_the_key(server):
    _, result = ask(server, "echo_401")
    assert isinstance(result, EndpointRejected)
    assert f"Bearer {KEY}" in server.plans.authorizations  # the server did receive it
    assert KEY not in str(result) and KEY not in repr(result)
    assert "***" in str(result)


def test_the_cache_answers_a_repeated_request_without_sending_it(server, tmp_path):
    _, first = ask(server, "plain", tmp_path)
    client, second = ask(server, "plain", tmp_path)
    assert server.plans.requests == 1
    assert second.cached and not first.cached
    assert (second.message, second.prompt_tokens) == (first.message, first.prompt_tokens)
    assert client.ledger.summary()["cached"] == 1
    assert RequestCache(tmp_path).count() == 1
    for path in tmp_path.rglob("*"):
        assert not path.is_file() or KEY.encode() not in path.read_bytes()


def test_usage_is_priced_and_the_budget_stops_the_next_request(server):
    budget = Budget(max_cost_usd=1e-6)
    client, first = ask(server, "plain", budget=budget, price=1.0)
    # The fake reports prompt = chars/4 + 1 = 2 tokens and 7 completion tokens, at $1 per 1M.
    assert (first.prompt_tokens, first.completion_tokens) == (2, 7)
    assert client.ledger.cost_usd == pytest.approx(9e-6)
    _, second = ask(server, "other", budget=budget, price=1.0)
    assert isinstance(second, BudgetExhausted)
    assert server.plans.requests == 1


def _first_put(folder: str, index: int, start: float) -> str:
    while time.time() < start:  # every process opens the new cache at the same moment
        pass
    try:
        RequestCache(Path(folder)).put(f"key-{index}", {"value": index})
    except Exception as exc:  # the failure is the finding, reported by the assertion
        return repr(exc)
    return "ok"


def test_processes_opening_a_new_cache_at_once_all_store_their_entry(tmp_path):
    # Switching a new SQLite file to WAL can answer "database is locked" at once while another
    # process does the same (the sandbox workers asking experts): it failed one try in four.
    context = multiprocessing.get_context("fork")
    for trial in range(12):
        folder = tmp_path / f"cache-{trial}"
        start = time.time() + 0.2
        with context.Pool(8) as pool:
            results = pool.starmap(_first_put, [(str(folder), i, start) for i in range(8)])
        assert results == ["ok"] * 8
        assert RequestCache(folder).count() == 8
