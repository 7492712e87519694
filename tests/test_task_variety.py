"""The variety of the stateful domains' tasks, on a small sample as invariants (the figures on
400 tasks are benchmarks/task_diversity.py's): first messages and reasons for the call rarely
shared once names and numbers are masked, first messages not repetitive, user follow-ups and
agent turns of many wordings, a third of the users with a behaviour, task instructions of the
task's own, and no user utterance naming a tool. The measures are toolscale.check.variety's."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from toolscale.check.variety import mask, names_in, shared, trigram_ratio
from toolscale.core.records import Message
from toolscale.core.registry import get_domain
from toolscale.economics.preferences import DEFAULT_SPREAD
from toolscale.sample.tasks import build_task, gold_messages, with_preference

N = 80


def names_a_tool(text: str, tools: list[str]) -> bool:
    low = text.casefold()
    return any(
        re.search(rf"\b({t}|{t.replace('_', ' ')})\b" if "_" in t else rf"\b{t} tool\b", low)
        for t in tools
    )


@pytest.fixture(scope="module", params=["bank", "railway"])
def sample(request) -> tuple[str, list[tuple[Any, list[Message], set[str]]]]:
    domain = get_domain(request.param)
    rows = []
    names: set[str] | None = None
    for index in range(N):
        item = with_preference(build_task(domain, 0, index, 5.0), DEFAULT_SPREAD)
        names = names if names is not None else names_in(item.task.initial_state)
        rows.append(
            (item.task, gold_messages(item.task, item.gold_outcomes, item.final_message), names)
        )
    return request.param, rows


def test_first_messages_and_reasons_for_the_call_are_rarely_shared(sample):
    _, rows = sample
    firsts = [t.instruction for t, _, _ in rows]
    assert shared([mask(f, n) for f, (_, _, n) in zip(firsts, rows, strict=True)]) <= 0.1
    assert shared([mask(t.user_scenario.reason_for_call, n) for t, _, n in rows]) <= 0.1
    ratios = [trigram_ratio(random.Random(s).sample(firsts, 50)) for s in range(9)]
    assert sorted(ratios)[4] >= 0.6  # the median of nine draws of 50 first messages
    instructions = {t.user_scenario.task_instructions for t, _, _ in rows}
    assert len(instructions) >= 0.9 * N


def test_follow_ups_and_agent_turns_come_in_many_wordings(sample):
    _, rows = sample
    users, agent = set(), set()
    for _, messages, names in rows:
        talk = [m for m in messages[2:-1] if not m.tool_calls and m.role in ("user", "assistant")]
        users.update(mask(m.content, names) for m in talk if m.role == "user")
        agent.update(mask(m.content, names) for m in talk if m.role == "assistant")
    assert len(users) >= 40 and len(agent) >= 40


def test_a_third_of_the_users_behave_and_the_behaviours_show_in_the_talk(sample):
    _, rows = sample
    behaviours = Counter(t.user_scenario.behaviour for t, _, _ in rows)
    listed = sum(behaviours[b] for b in ("decline", "correct", "pieces", "change"))
    assert listed >= 0.3 * N, behaviours
    for task, messages, _ in rows:
        scenario = task.user_scenario
        said = [m.content for m in messages if m.role == "user"]
        if scenario.behaviour == "change":  # the opening asks for one thing, then another
            assert said[1] == scenario.change and scenario.first_request
        if scenario.behaviour == "correct":  # the wrong detail first, then the right one
            ((key, wrong),) = scenario.wrong.items()
            text = " ".join(said[1:])
            assert text.index(wrong) < text.rindex(scenario.known[key])


def test_no_user_utterance_names_a_tool(sample):
    name, rows = sample
    tools = sorted(get_domain(name).toolkit.specs())
    for _, messages, _ in rows:
        for m in messages:
            if m.role == "user":
                assert not names_a_tool(m.content, tools), m.content
