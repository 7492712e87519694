"""The agent panel's invariants on a few tasks per domain (the full table is
benchmarks/agent_panel.py): every voice plays exactly the gold calls and talks as it says it
does; the plain voice is verified on every task, as the reference teacher is; the wrong agents
that do none of the work, or the wrong work, are rejected on every task; and the rewrites say
the same facts in other formats."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.panel import rewrite
from tests.panel.agent import NEGATIVES, agreed
from tests.panel.run import panel_tasks, play
from tests.panel.voices import STYLES
from toolscale.core.registry import get_domain, names
from toolscale.sample.tasks import build_task
from toolscale.sandbox.pool import SandboxPool

pytestmark = pytest.mark.slow
PER_DOMAIN = 3
# Rejected on every panel task today: by the state, the evidence, the consent.
STATE_CHECKED = ("other_record", "unbacked", "parrot", "no_yes")


def _said(messages: list) -> list[str]:
    return [m.content for m in messages[2:] if m.role == "assistant" and not m.tool_calls]


@pytest.fixture(scope="module")
def verdicts() -> dict[tuple[str, str], list]:
    items = [item for domain in sorted(names()) for item in panel_tasks(domain, PER_DOMAIN)]

    async def main() -> dict[tuple[str, str], list]:
        out = {}
        async with SandboxPool(workers=2) as pool:
            for user in ("scripted", "llm"):
                for agent in (*STYLES, *NEGATIVES):
                    out[(user, agent)] = await play(items, agent, user, pool)
        return out

    return asyncio.run(main())


def test_every_domain_and_its_first_templates_are_in_the_panel(verdicts: dict) -> None:
    played = {(r.domain, r.template) for r in verdicts[("scripted", "plain")]}
    assert {d for d, _ in played} == set(names())
    assert len(played) >= len(names()) * (PER_DOMAIN - 1)


@pytest.mark.parametrize("user", ["scripted", "llm"])
def test_the_plain_agent_is_verified_on_every_task(verdicts: dict, user: str) -> None:
    failed = [
        (r.domain, r.template, r.reasons) for r in verdicts[(user, "plain")] if not r.verified
    ]
    assert failed == []


@pytest.mark.parametrize("user", ["scripted", "llm"])
def test_every_voice_makes_the_gold_calls_in_order(verdicts: dict, user: str) -> None:
    for style in STYLES:
        for r in verdicts[(user, style)]:
            calls = [(c.name, json.loads(c.arguments)) for c in r.transcript.tool_calls]
            if r.verified:  # a failed attempt may stop early (the user never said yes)
                gold = verdicts[(user, "plain")]
                plain = next(
                    p for p in gold if p.transcript.messages[1] == r.transcript.messages[1]
                )
                assert calls == [
                    (c.name, json.loads(c.arguments)) for c in plain.transcript.tool_calls
                ]


def test_the_voices_talk_as_they_say(verdicts: dict) -> None:
    talked = [
        r
        for r in verdicts[("scripted", "no_question_marks")]
        if len(_said(r.transcript.messages)) > 1
    ]
    assert talked and all("?" not in s for r in talked for s in _said(r.transcript.messages))
    confirms = [s for r in verdicts[("scripted", "yes_no")] for s in _said(r.transcript.messages)]
    assert any(s.endswith("Shall I go ahead (yes/no)?") for s in confirms)
    chatty = [r.transcript.final_answer for r in verdicts[("scripted", "chatty")]]
    assert all(len(c) > 120 for c in chatty)


@pytest.mark.parametrize("user", ["scripted", "llm"])
@pytest.mark.parametrize("negative", STATE_CHECKED)
def test_agents_that_do_the_wrong_work_or_none_are_rejected(
    verdicts: dict, user: str, negative: str
) -> None:
    results = verdicts[(user, negative)]
    assert results and not [(r.domain, r.template) for r in results if r.verified]


def test_the_format_rewrites_keep_the_facts_and_change_only_their_wording() -> None:
    text = "The fee is 1259.22 USD, paid on 2025-09-13; the order total is 12345 points."
    assert rewrite.money_and_dates(text, 0) == (
        "The fee is $1,259.22, paid on 13 September 2025; the order total is 12,345 points."
    )
    assert "Saturday 13 September" in rewrite.money_and_dates(text, 2)
    assert "in 2025" in rewrite.money_and_dates("It opened in 2025.", 0)  # a year stays


def test_a_wrong_amount_changes_the_required_fact_however_it_is_written() -> None:
    def priced(item: Any) -> bool:  # a saver refund of nothing states no amount
        return any(f.replace(".", "").isdigit() for f in item.task.required_facts)

    cancels = (build_task(get_domain("railway"), 0, i, 15.0, template="cancel") for i in range(40))
    item = next(i for i in cancels if priced(i))
    wrong = rewrite.wrong_amount_or_date(item.final_message, item.task)
    assert wrong is not None and wrong != item.final_message
    fact = next(f for f in item.task.required_facts if f.replace(".", "").isdigit())
    assert f"{float(fact):.2f}" in item.final_message and f"{float(fact):.2f}" not in wrong


def test_a_reply_is_read_as_yes_no_or_neither() -> None:
    assert agreed("Sounds good, go ahead!") is True
    assert agreed("No, please don't change anything.") is False
    assert agreed("No idea, I'm afraid!") is None
