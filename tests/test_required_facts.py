"""Required facts are what the caller asked for or must be told, never the ids of records the
caller already had (issue 33): a refusal a careful grader passes is verified, one without its
look-up or with another value is not."""

from __future__ import annotations

import pytest

from toolscale.core.contract import canonical_json, state_hash
from toolscale.core.registry import get_domain
from toolscale.judge.verify import outcome_problems
from toolscale.kit.shots import held
from toolscale.play.transcript import Transcript, close_draft, open_draft, record_call
from toolscale.sample.tasks import SampledTask, build_task
from toolscale.sandbox.execute import execute, fresh_toolkit

STATEFUL = (
    "bank",
    "basketball",
    "ecommerce",
    "medicine",
    "movie",
    "railway",
    "restaurant",
    "school",
    "travel",
    "weather",
)


def held_ids(item: SampledTask) -> list[str]:
    """The required facts that are ids of records the task's world holds before it starts."""
    return [f for f in item.task.required_facts if held(item.task.initial_state, f)]


def test_held_is_an_existing_record_id_with_a_digit() -> None:
    world = {"fans": {"F12": {}}, "visas": {"Turkey": {}}, "today": "2025-09-13"}
    assert held(world, "F12")
    assert not held(world, "F13")  # made by a write: not in the world before the task
    assert not held(world, "Turkey")  # a name keying a table is no id
    assert not held(world, "2025-09-13")


@pytest.mark.parametrize("name", STATEFUL)
def test_no_required_fact_is_an_id_the_world_already_held(name: str) -> None:
    domain = get_domain(name)
    for index in range(30):
        item = build_task(domain, 0, index, 5.0)
        assert held_ids(item) == [], (name, index, item.task.template)


def attempt(item: SampledTask, final: str, calls: bool = True) -> Transcript:
    """The gold calls (or none), then `final`: an attempt as the verifier sees it."""
    task = item.task
    draft = open_draft(task, "test", 0)
    kit = fresh_toolkit(get_domain(task.domain), canonical_json(task.initial_state))
    for action in task.gold_actions if calls else []:
        outcome = execute(kit, action["name"], action["arguments"], 5.0)
        record_call(draft, task, action["name"], action["arguments"], outcome)
    return close_draft(draft, final, state_hash(kit.state))


def sold_out() -> SampledTask:
    """The issue's example: a basketball upgrade refused because the section is sold out."""
    return build_task(get_domain("basketball"), 0, 0, 5.0, template="upgrade.no.sold_out")


def test_a_refusal_requires_its_reason_not_the_callers_ids() -> None:
    item = sold_out()
    task = item.task
    known = set(task.user_scenario.known.values())
    ticket_and_game = {a["arguments"].get(k) for a in task.gold_actions for k in a["arguments"]}
    assert task.required_facts, "a refusal states its reason"
    assert not known & set(task.required_facts)
    assert not ticket_and_game & set(task.required_facts)  # no ticket, game or fan id
    assert all(not f[0].isalpha() or not any(c.isdigit() for c in f) for f in task.required_facts)


def test_a_correct_refusal_without_the_ids_is_verified() -> None:
    item = sold_out()
    (left,) = item.task.required_facts  # the seats left in the wanted section
    seats = "seat is" if left == "1" else "seats are"
    said = (
        f"Sorry, I can't upgrade your tickets: only {left} {seats} left in that section for "
        "the game, not enough for your party. Nothing has been changed or charged."
    )
    assert outcome_problems(item.task, attempt(item, said)) == []
    # The same words without the look-up, or another number, are not verified.
    assert outcome_problems(item.task, attempt(item, said, calls=False))
    wrong = said.replace(f"only {left} ", f"only {int(left) + 7} ")
    assert any("not stated" in p for p in outcome_problems(item.task, attempt(item, wrong)))


def test_a_refusal_whose_reason_the_caller_gave_still_needs_its_look_up() -> None:
    domain = get_domain("railway")
    item = build_task(domain, 0, 0, 5.0, template="change.no.saver_fixed")
    assert item.task.required_facts == []  # "saver" is the caller's own word
    said = "I'm sorry, saver tickets can't be changed, so your booking stays as it is."
    assert outcome_problems(item.task, attempt(item, said)) == []
    problems = outcome_problems(item.task, attempt(item, said, calls=False))
    assert any("no look-up establishes" in p for p in problems)
