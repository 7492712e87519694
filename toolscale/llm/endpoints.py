"""Spread one role's chat requests over several endpoints serving the same model.

`EndpointPool.complete` has `ChatClient.complete`'s signature, so the teacher and the user
simulator take either. A request is answered from the request cache when it can (the cache key
holds the model and the request, never the URL, so any endpoint list reads the same entries);
otherwise it goes to the active endpoint with the fewest requests in flight that has a free slot
(at most `per_endpoint` each). A request that fails there after every retry of that endpoint's
client, for a reason that is the endpoint's (a timeout, a dropped connection, a malformed answer,
429 or 5xx), goes to another endpoint it has not tried, so an attempt is not lost to one bad
server. The last active endpoint is never taken out (with nowhere else to go, its failures reject
attempts as with a single endpoint, and a refusal stops the run); otherwise:

- an endpoint that refuses the key, model or route (401/403/404) is out for the rest of the run;
- an endpoint whose last `max_failures` requests all failed that way is out for a cool-down
  (`cool_down_s`, 30 s). Once it has passed, the next request the pool routes is sent to it as a
  probe (one probe at a time), whichever endpoint that request would have gone to: a server back
  from a restart takes load at once, and a failed probe costs one request the time of that
  endpoint's retries. An answer puts it back in rotation; an endpoint-fault failure takes it out
  again for twice the last cool-down (at most `max_cool_down_s`, 10 minutes) and the request goes
  elsewhere as above. A drop after a successful probe starts from `cool_down_s` again. Time is
  read from `clock` (`time.monotonic`), which tests replace.

`summary()` is run.json's `endpoints.<role>`: the sums over the endpoints plus one entry per URL
saying whether it is active, how often it was dropped and put back, and the last drop's reason.

What it does not do: probe a dropped endpoint in the background (a probe is a real request, sent
only when there is one), or weigh endpoints by speed beyond the requests they have in flight.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
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
    active: bool = True
    refused: bool = False  # out for a 401/403/404: never probed
    cool_down_s: float = 0.0  # the last cool-down it was given
    back_at: float = 0.0  # clock time from which a request may probe it
    probing: bool = False  # a probe request is in flight on it
    drops: int = 0  # times taken out of rotation, failed probes included
    readmitted: int = 0  # times put back by a probe
    last_drop: str = ""  # the reason of the last drop


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
        cool_down_s: float = 30.0,
        max_cool_down_s: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not clients:
            raise ValueError("an endpoint pool needs at least one client")
        self.members = [_Member(c) for c in clients]
        self.per_endpoint = per_endpoint
        self.max_failures = max_failures
        self.cache = cache
        self.cool_down_s = cool_down_s
        self.max_cool_down_s = max_cool_down_s
        self.clock = clock
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
            probe = member.probing
            try:
                completion = await member.client.send(messages, tools, sampling)
                if probe:
                    self._readmit(member)
                member.failures_in_a_row = 0
                return completion
            except TeacherFailure as failure:
                if not endpoint_fault(failure.kind):
                    raise  # the request's fault: a probe tells nothing, the next one probes
                member.failures_in_a_row += 1
                if probe:
                    reason = f"the probe after a cool-down failed: {failure.reason}"
                    self._drop(member, reason, probe=True)
                elif member.failures_in_a_row >= self.max_failures:
                    in_a_row = member.failures_in_a_row
                    self._drop(member, f"{in_a_row} requests failed in a row: {failure.reason}")
                tried.add(id(member))
                if not self._candidates(tried):
                    raise
                self.counts["rerouted"] += 1
            except EndpointRejected as refused:
                self._drop(member, str(refused), probe=probe, refused=True)
                tried.add(id(member))
                if not self._candidates(tried):
                    raise
                self.counts["rerouted"] += 1
            finally:
                await self._release(member, probe)

    def _active(self) -> list[_Member]:
        return [m for m in self.members if m.active]

    def _probation(self, member: _Member, now: float) -> bool:
        """Out for failures, its cool-down over and no probe in flight: the next request probes."""
        out = not member.active and not member.refused and not member.probing
        return out and now >= member.back_at

    def _candidates(self, tried: set[int]) -> list[_Member]:
        now = self.clock()
        fit = [m for m in self.members if m.active or self._probation(m, now)]
        return [m for m in fit if id(m) not in tried]

    def _drop(
        self, member: _Member, reason: str, *, probe: bool = False, refused: bool = False
    ) -> None:
        """Take `member` out of rotation, unless it is the last active endpoint: for good after a
        refusal, else for a cool-down (twice the last one when `probe`, the failed request, was
        its probe)."""
        if member.active and len(self._active()) == 1:
            return
        if not member.active and not probe and not refused:
            return  # a request sent before it was taken out failed too: it is out already
        if member.active or probe:
            member.drops += 1
        last = member.cool_down_s
        member.cool_down_s = min(2 * last, self.max_cool_down_s) if probe else self.cool_down_s
        member.back_at = self.clock() + member.cool_down_s
        member.active = False
        member.refused = member.refused or refused
        member.last_drop = reason

    def _readmit(self, member: _Member) -> None:
        """Its probe was answered: back in rotation, with as many requests routed as the least
        used active endpoint, so that ties alternate rather than all going to it."""
        member.routed = max(member.routed, min((m.routed for m in self._active()), default=0))
        member.active = True
        member.failures_in_a_row = 0
        member.readmitted += 1

    async def _acquire(self, tried: set[int]) -> _Member:
        """The untried endpoint on probation if there is one, else the untried active endpoint with
        the fewest requests in flight, once it has a free slot; raises when none is left."""
        async with self._free:
            while True:
                candidates = self._candidates(tried)
                if not candidates:  # its last choice was dropped, or another request probes
                    raise TeacherFailure("connection", "no endpoint left to try")
                free = [m for m in candidates if m.in_flight < self.per_endpoint]
                if free:
                    probes = [m for m in free if not m.active]
                    member = (
                        probes[0] if probes else min(free, key=lambda m: (m.in_flight, m.routed))
                    )
                    member.probing = not member.active
                    member.in_flight += 1
                    member.routed += 1
                    return member
                await self._free.wait()

    async def _release(self, member: _Member, probe: bool) -> None:
        async with self._free:
            member.in_flight -= 1
            if probe:  # not a request sent before it was taken out, still in flight
                member.probing = False
            self._free.notify_all()

    def summary(self) -> dict[str, Any]:
        """The role's totals (as a single endpoint reports them), `rerouted`, and `by_url`: per
        URL its counts, `active` (1 while in rotation), `dropped` (times taken out, failed probes
        included), `readmitted` (times put back) and `dropped_because` ([the last drop's reason],
        [] if never dropped). Numbers, dicts and lists only, so summaries of several pools (Ray
        workers) add up field by field."""
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
                "active": int(m.active),
                "dropped": m.drops,
                "readmitted": m.readmitted,
                "dropped_because": [m.last_drop] if m.last_drop else [],
            }
            for m in self.members
        }
        return report
