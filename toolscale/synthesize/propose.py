"""The proposing stages: intents for a domain, a task per intent, a harder task per task.

Each is one chat request (cached, retried, counted by the client) whose answer is parsed into
records; the answer's text is returned beside the record, so a malformed candidate is kept in
the rejected config as the model wrote it. A request that fails for good is a `request` failure
of that candidate (the budget and an endpoint refusal stop the run instead: `StopRun`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolscale.core.contract import Domain
from toolscale.llm.client import Chat, TeacherFailure
from toolscale.synthesize import prompts
from toolscale.synthesize.candidates import (
    Candidate,
    Intent,
    declined,
    parse_candidate,
    parse_intents,
)


@dataclass(frozen=True)
class Proposal:
    """A candidate (or None) with the text it came from and why it is malformed."""

    candidate: Candidate | None
    text: str
    problem: str  # "" when the candidate parsed
    stage: str = "parse"  # the stage that rejects a failed proposal: parse, declined, request

    @classmethod
    def of_text(cls, text: str) -> Proposal:
        reason = declined(text)
        if reason is not None:
            return cls(None, text, f"the proposer declined: {reason}", "declined")
        candidate, problem = parse_candidate(text)
        return cls(candidate, text, problem)


def sampling(temperature: float, max_tokens: int | None, **key: Any) -> dict[str, Any]:
    """The request's sampling parameters; `key` entries (sent as `_name`) only shape the cache
    key, so that two requests of different stages never share an answer."""
    return {
        "temperature": temperature,
        "max_tokens": max_tokens,
        **{f"_{k}": v for k, v in key.items()},
    }


async def _text(client: Chat, messages: list[dict[str, str]], params: dict[str, Any]) -> str:
    completion = await client.complete(messages, [], params)
    return str(completion.message.get("content") or "")


async def propose_intents(
    client: Chat,
    domain: Domain,
    view: Callable[[int], str],
    count: int,
    per_request: int,
    rng: random.Random,
    params: dict[str, Any],
) -> tuple[list[tuple[Intent, int]], list[str]]:
    """Up to `count` intents, asked `per_request` at a time, each batch about the caller of its
    own view (`view(batch)`) and leaning on a different subset of the tools; returns each intent
    with its batch, and the problems met (failed or short batches)."""
    names = sorted(domain.toolkit.specs())
    intents: list[tuple[Intent, int]] = []
    problems: list[str] = []
    for batch, start in enumerate(range(0, count, per_request)):
        wanted = min(per_request, count - start)
        focus = sorted(rng.sample(names, min(4, len(names))))
        messages = prompts.intent_messages(domain, view(batch), wanted, focus)
        try:
            text = await _text(client, messages, {**params, "_stage": "intents", "_batch": batch})
        except TeacherFailure as failure:
            problems.append(f"intent batch {batch}: {failure.reason}")
            continue
        found = parse_intents(text)[:wanted]
        if len(found) < wanted:
            problems.append(f"intent batch {batch}: {len(found)} of {wanted} intents parsed")
        intents += [(intent, batch) for intent in found]
    return intents, problems


async def propose_task(
    client: Chat,
    domain: Domain,
    intent: Intent,
    view: str,
    params: dict[str, Any],
    index: int,
    judged: bool = False,
) -> Proposal:
    messages = prompts.task_messages(domain, intent.intent, intent.kind, view, judged)
    try:
        text = await _text(client, messages, {**params, "_stage": "task", "_index": index})
    except TeacherFailure as failure:
        return Proposal(None, "", failure.reason, "request")
    return Proposal.of_text(text)


async def evolve_task(
    client: Chat,
    domain: Domain,
    candidate: Candidate,
    view: str,
    params: dict[str, Any],
    index: int,
    judged: bool = False,
) -> Proposal:
    messages = prompts.evolve_messages(domain, candidate, view, judged)
    try:
        text = await _text(client, messages, {**params, "_stage": "evolve", "_index": index})
    except TeacherFailure as failure:
        return Proposal(None, "", failure.reason, "request")
    return Proposal.of_text(text)
