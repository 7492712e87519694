"""Spread one role's chat requests over several endpoints serving the same model.

`EndpointPool.complete` has `ChatClient.complete`'s signature, so the teacher and the user
simulator take either. A request is answered from the request cache when it can (the cache key
holds the model and the request, never the URL, so any endpoint list reads the same entries);
otherwise it goes to the active endpoint with the fewest requests in flight that has a free slot
(at most `per_endpoint` each). A request that fails there after every retry of that endpoint's
client, for a reason that is the endpoint's (a timeout, a dropped connection, a malformed answer,
429 or 5xx), goes to another active endpoint it has not tried, so an attempt is not lost to one
bad server. An endpoint whose last `max_failures` requests all failed that way, or that refuses
the key, model or route (401/403/404), is taken out of rotation for the rest of the run; the last
active endpoint never is (with nowhere else to go, its failures reject attempts as with a single
endpoint, and a refusal stops the run). `summary()` is run.json's `endpoints.<role>`: the sums
over the endpoints plus one entry per URL saying whether and why it was dropped.

What it does not do: put a dropped endpoint back (restart the run with `--resume`), or weigh
endpoints by speed beyond the requests they have in flight.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any

from toolscale.llm.cache import RequestCache, request_key
from toolscale.llm.client import ChatClient, Completion, TeacherFailure
from toolscale.llm.ledger import Budget, EndpointRejected, Ledger

# Failure kinds that say the endpoint, not the request, is at fault (the openai client retried
# them already): these count towards taking it out and send the request elsewhere.
ENDPOINT_FAULTS = ("timeout", "connection", "malformed", "http_408", "http_409", "http_429")


def endpoint_fault(kind: str) -> bool:
    return kind in ENDPOINT_FAULTS or kind.startswith("http_5")


@dataclass
class _Member:
    """One endpoint of the pool and its routing state."""

    client: ChatClient
    in_flight: int = 0
    routed: int = 0  # requests given to it: ties go to the least used, so load alternates
    failures_in_a_row: int = 0
    dropped: str = ""  # why it left the rotation; empty while active


class EndpointPool:
    """`await pool.complete(messages, tools, sampling)` -> Completion, from the cache or from one
    of `clients` (one per URL, same model, each with its own Ledger on one shared Budget)."""

    def __init__(
        self,
        clients: list[ChatClient],
        *,
        per_endpoint: int,
        max_failures: int = 3,
        cache: RequestCache | None = None,
    ) -> None:
        if not clients:
            raise ValueError("an endpoint pool needs at least one client")
        self.members = [_Member(c) for c in clients]
        self.per_endpoint = per_endpoint
        self.max_failures = max_failures
        self.cache = cache
        self.model = clients[0].endpoint.model
        self.counts: Counter[str] = Counter()  # cached answers, requests sent elsewhere
        self._free = asyncio.Condition()

    @property
    def budget(self) -> Budget:
        return self.members[0].client.budget

    @property
    def cost_usd(self) -> float:
        return sum(m.client.ledger.cost_usd for m in self.members)

    async def close(self) -> None:
        for member in self.members:
            await member.client.close()

    async def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], sampling: dict[str, Any]
    ) -> Completion:
        """One chat completion; `sampling` as for `ChatClient.complete`."""
        key = request_key(None, self.model, messages, tools, sampling)
        entry = self.cache.get(key) if self.cache is not None else None
        if entry is not None:
            self.counts["cached"] += 1
            return Completion(**entry, cached=True)
        completion = await self._route(messages, tools, sampling)
        if self.cache is not None:
            self.cache.put(key, completion.entry())
        return completion

    async def _route(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], sampling: dict[str, Any]
    ) -> Completion:
        tried: set[int] = set()
        while True:
            member = await self._acquire(tried)
            try:
                completion = await member.client.send(messages, tools, sampling)
            except TeacherFailure as failure:
                if not endpoint_fault(failure.kind):
                    raise
                member.failures_in_a_row += 1
                if member.failures_in_a_row >= self.max_failures:
                    in_a_row = member.failures_in_a_row
                    self._drop(member, f"{in_a_row} requests failed in a row: {failure.reason}")
                tried.add(id(member))
                if not self._candidates(tried):
                    raise
                self.counts["rerouted"] += 1
                continue
            except EndpointRejected as refused:
                self._drop(member, str(refused))
                tried.add(id(member))
                if not self._candidates(tried):
                    raise
                self.counts["rerouted"] += 1
                continue
            finally:
                await self._release(member)
            member.failures_in_a_row = 0
            return completion

    def _active(self) -> list[_Member]:
        return [m for m in self.members if not m.dropped]

    def _candidates(self, tried: set[int]) -> list[_Member]:
        return [m for m in self._active() if id(m) not in tried]

    def _drop(self, member: _Member, reason: str) -> None:
        """Take `member` out of rotation, unless it is the last active endpoint."""
        if not member.dropped and len(self._active()) > 1:
            member.dropped = reason

    async def _acquire(self, tried: set[int]) -> _Member:
        """The untried active endpoint with the fewest requests in flight, once it has a free
        slot; raises the reason when none is left."""
        async with self._free:
            while True:
                candidates = self._candidates(tried)
                if not candidates:  # only reachable when the caller's last choice was dropped
                    raise TeacherFailure("connection", "no endpoint left to try")
                member = min(candidates, key=lambda m: (m.in_flight, m.routed))
                if member.in_flight < self.per_endpoint:
                    member.in_flight += 1
                    member.routed += 1
                    return member
                await self._free.wait()

    async def _release(self, member: _Member) -> None:
        async with self._free:
            member.in_flight -= 1
            self._free.notify_all()

    def summary(self) -> dict[str, Any]:
        """The role's totals (as a single endpoint reports them), `rerouted`, and `by_url`: per
        URL its counts, `dropped` (1 if taken out) and `dropped_because`. Numbers, dicts and lists
        only, so summaries of several pools (Ray workers) add up field by field."""
        total = Ledger(0.0, 0.0, self.budget)
        for member in self.members:
            total.counts.update(member.client.ledger.counts)
            total.cost_usd += member.client.ledger.cost_usd
        total.counts["cached"] += self.counts["cached"]
        report = total.summary()
        report["rerouted"] = self.counts["rerouted"]
        report["by_url"] = {
            m.client.endpoint.base_url: {
                **{k: v for k, v in m.client.ledger.summary().items() if k != "cached"},
                "dropped": int(bool(m.dropped)),
                "dropped_because": [m.dropped] if m.dropped else [],
            }
            for m in self.members
        }
        return report
