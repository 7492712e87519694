"""One OpenAI-compatible chat endpoint: cached, retried, counted, priced, and key-safe.

Transport faults (429 with Retry-After, 5xx, timeouts, dropped connections) are retried by the
`openai` client's own machinery (`max_retries`, exponential backoff with jitter, Retry-After
honoured); only the base delay is ours, so tests can use tiny delays. The HTTP client (the
client's aiohttp option) counts every HTTP try by outcome. A 200 whose body is not a JSON chat
completion is retried here with the same backoff. A request that still fails raises
`TeacherFailure`, which the teacher records as a rejected attempt. The API key lives only inside
the `openai` client: no message, log line or stored entry built here contains it, and error
excerpts from the server are scrubbed of it.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass
from typing import Any, Protocol

import httpx2
import openai

from toolscale.llm.cache import RequestCache, request_key
from toolscale.llm.ledger import Budget, EndpointRejected, Ledger


class TeacherFailure(Exception):
    """A request that failed after every retry; `kind` names the last fault."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


@dataclass(frozen=True)
class Endpoint:
    """Where to send chat requests. The key is read from the environment variable `api_key_env`
    when the client is made; it is never stored in a config."""

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    price_in: float = 0.0  # $ per 1M prompt tokens
    price_out: float = 0.0  # $ per 1M completion tokens


@dataclass(frozen=True)
class RetryPolicy:
    timeout_s: float = 60.0
    max_retries: int = 4
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0


@dataclass(frozen=True)
class Completion:
    message: dict[str, Any]
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    cached: bool

    def entry(self) -> dict[str, Any]:
        """What the request cache stores (everything but `cached`)."""
        return {
            "message": self.message,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "latency_ms": self.latency_ms,
        }


class Chat(Protocol):
    """What a teacher or user simulator asks of its endpoint: a `ChatClient`, or an
    `EndpointPool` spreading the requests over several URLs."""

    async def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], sampling: dict[str, Any]
    ) -> Completion: ...


def fault_kind(exc: BaseException) -> str:
    """The kind of a failed HTTP try, timeout or connection. The aiohttp transport reports a dropped
    connection as an httpx ConnectTimeout; its cause (an aiohttp error) tells which it was."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, TimeoutError):
            return "timeout"
        if cause.__cause__ is None and isinstance(cause, httpx2.TimeoutException):
            return "timeout"
        cause = cause.__cause__
    return "connection"


class _CountingHttp(openai.DefaultAioHttpClient):
    """The `openai` client's aiohttp-backed HTTP client (its option for many concurrent requests:
    httpx's connection pool polls every idle connection on each request, which at 64 episodes
    in flight cost more CPU than the rest of the pipeline), counting each try: sent, and
    fault:<kind> for every one that did not answer 2xx."""

    def __init__(self, ledger: Ledger, timeout_s: float) -> None:
        super().__init__(timeout=timeout_s, limits=httpx2.Limits(max_connections=1000))
        self.counts = ledger.counts

    async def send(self, request: httpx2.Request, **kwargs: Any) -> httpx2.Response:
        self.counts["sent"] += 1
        try:
            response = await super().send(request, **kwargs)
        except httpx2.TransportError as exc:
            self.counts[f"fault:{fault_kind(exc)}"] += 1
            raise
        if response.status_code >= 400:
            self.counts[f"fault:http_{response.status_code}"] += 1
        return response


class _OpenAI(openai.AsyncOpenAI):
    """The stock client with a configurable backoff base (Retry-After still wins)."""

    policy: RetryPolicy

    def _calculate_retry_timeout(
        self, remaining_retries: int, options: Any, response_headers: Any = None
    ) -> float:
        retry_after = self._parse_retry_after_header(response_headers)
        if retry_after is not None and 0 < retry_after <= 60:
            return retry_after
        return backoff(self.policy, self.max_retries - remaining_retries)


def backoff(policy: RetryPolicy, retry: int) -> float:
    """Exponential backoff with up to 25% jitter, as the `openai` client does."""
    delay = min(policy.base_delay_s * 2.0**retry, policy.max_delay_s)
    return delay * (1 - 0.25 * random.random())


def redact(text: str, secret: str) -> str:
    return text.replace(secret, "***") if secret else text


class ChatClient:
    """`await client.complete(messages, tools, sampling)` -> Completion."""

    def __init__(
        self,
        endpoint: Endpoint,
        api_key: str,
        policy: RetryPolicy,
        ledger: Ledger,
        cache: RequestCache | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.policy = policy
        self.ledger = ledger
        self.cache = cache
        self._secret = api_key
        http = _CountingHttp(ledger, policy.timeout_s)
        self._client = _OpenAI(
            api_key=api_key,
            base_url=endpoint.base_url,
            max_retries=policy.max_retries,
            timeout=policy.timeout_s,
            http_client=http,
        )
        self._client.policy = policy

    @property
    def budget(self) -> Budget:
        return self.ledger.budget

    def apart(self, policy: RetryPolicy) -> ChatClient:
        """A client of the same endpoint and key with `policy`, its own ledger on no budget and
        no cache: what it sends counts nowhere in the run (the probe, `toolscale.llm.probe`)."""
        return ChatClient(self.endpoint, self._secret, policy, Ledger(0.0, 0.0, Budget(None)))

    async def close(self) -> None:
        await self._client.close()

    async def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], sampling: dict[str, Any]
    ) -> Completion:
        """One chat completion. `sampling` holds the request's sampling parameters plus any
        extra cache-key fields (keys starting with "_", not sent). The cache key leaves the URL
        out: another endpoint serving the same model reads the same entries."""
        key = request_key(None, self.endpoint.model, messages, tools, sampling)
        entry = self.cache.get(key) if self.cache is not None else None
        if entry is not None:
            self.ledger.counts["cached"] += 1
            return Completion(**entry, cached=True)
        completion = await self.send(messages, tools, sampling)
        if self.cache is not None:
            self.cache.put(key, completion.entry())
        return completion

    async def send(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], sampling: dict[str, Any]
    ) -> Completion:
        """One chat completion from this endpoint, never from the cache; charged to the ledger."""
        self.budget.check()
        started = time.perf_counter()
        body = await self._send(messages, tools, sampling)
        usage = body.get("usage") or {}
        completion = Completion(
            message=body["choices"][0]["message"],
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_ms=round((time.perf_counter() - started) * 1000, 3),
            cached=False,
        )
        self.ledger.charge(completion.prompt_tokens, completion.completion_tokens)
        return completion

    async def _send(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], sampling: dict[str, Any]
    ) -> dict[str, Any]:
        params = {k: v for k, v in sampling.items() if not k.startswith("_") and v is not None}
        body = {"model": self.endpoint.model, "messages": messages, **params}
        if tools:
            body["tools"] = tools
        counts = self.ledger.counts
        counts["calls"] += 1
        for retry in range(self.policy.max_retries + 1):
            try:
                # The low-level post: the same retries, without `create`'s per-field transform
                # of messages and tools (milliseconds per request that we do not need).
                raw = await self._client.post(
                    "/chat/completions", cast_to=httpx2.Response, body=body
                )
            except openai.APIConnectionError as exc:  # APITimeoutError included
                if fault_kind(exc) == "timeout":
                    reason = f"no answer within {self.policy.timeout_s:g} s"
                    raise self._failed("timeout", reason) from None
                raise self._failed("connection", "the connection failed") from None
            except openai.APIStatusError as exc:
                raise self._status_error(exc) from None
            answer = _chat_body(raw.text)
            if answer is not None:
                return answer
            counts["fault:malformed"] += 1
            if retry < self.policy.max_retries:
                await asyncio.sleep(backoff(self.policy, retry))
        raise self._failed("malformed", "the answer was not a JSON chat completion")

    def _failed(self, kind: str, reason: str) -> TeacherFailure:
        self.ledger.counts[f"failed:{kind}"] += 1
        tries = self.policy.max_retries + 1
        return TeacherFailure(kind, f"{self.endpoint.model}: {reason} ({tries} tries)")

    def _status_error(self, exc: openai.APIStatusError) -> Exception:
        excerpt = redact(exc.response.text[:200], self._secret).replace("\n", " ")
        if exc.status_code in (401, 403, 404):
            return EndpointRejected(
                f"{self.endpoint.base_url} answered {exc.status_code} for model "
                f"{self.endpoint.model!r}: {excerpt}; check the URL, the model name and the key "
                f"variable {self.endpoint.api_key_env}"
            )
        return self._failed(f"http_{exc.status_code}", f"HTTP {exc.status_code}: {excerpt}")


def _chat_body(text: str) -> dict[str, Any] | None:
    """The parsed body when it is a chat completion with a message, else None."""
    try:
        body = json.loads(text)
        message = body["choices"][0]["message"]
    except (json.JSONDecodeError, KeyError, IndexError, TypeError):
        return None
    return body if isinstance(message, dict) else None
