"""Users who behave like people, on real (composed) railway tasks with hand-made scenarios: for each
behaviour the gold conversation goes through it (the scripted user's turns are the behaviour's)
and verifies, and an agent that ignores it (acts on the misread detail, on the dropped request,
makes the change the user turned down, or goes on without what the user held back) fails."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from toolscale.core.contract import Action, UserScenario
from toolscale.core.records import Message
from toolscale.core.registry import get_domain
from toolscale.core.task_state import state_json
from toolscale.dialogue.scripted_user import ScriptedUser
from toolscale.judge.verify import Verdict, verify
from toolscale.play.reference import ReferenceTeacher
from toolscale.play.transcript import close_draft, open_draft, record_call
from toolscale.sample.tasks import SampledTask, build_task
from toolscale.sandbox.pool import SandboxPool

DOMAIN = "railway"


# The tasks the tests use, by name: (railway's composed intent kind, the details the caller knows).
SHAPES = {
    "add_luggage": ("luggage", ("booking id",)),
    "refund_quote": ("refund", ("booking id",)),
    "cancel_by_email": ("cancel", ("email",)),
    "cancel_which_trip": ("cancel.which", ("email", "travel date")),
}


@pytest.fixture(scope="module")
def tasks() -> dict[str, SampledTask]:
    """The first task of each shape in SHAPES, with a plain user."""
    domain = get_domain(DOMAIN)
    found: dict[str, SampledTask] = {}
    for index in range(2000):
        item = build_task(domain, 0, index, 5.0)
        shape = (item.task.template, tuple(sorted(item.task.user_scenario.known)))
        for name, wanted in SHAPES.items():
            if shape == wanted:
                found.setdefault(name, item)
        if len(found) == len(SHAPES):
            return found
    raise AssertionError(f"railway composes no {sorted(set(SHAPES) - set(found))} in 2000 tasks")


def with_user(item: SampledTask, **fields: Any) -> SampledTask:
    """The task with its scenario's behaviour set by hand (nothing else of it changes; a
    misread detail of a drawn `correct` caller is part of the behaviour, so it goes too)."""
    plain = item.task.user_scenario
    assert plain is not None
    scenario = UserScenario(**{**plain.model_dump(), "behaviour": "", "wrong": {}, **fields})
    task = item.task.model_copy(update={"user_scenario": scenario})
    return SampledTask(task, item.final_message, item.alternatives, item.gold_outcomes)


Step = str | Action


async def _judge(item: SampledTask, steps: list[Step] | None) -> tuple[Verdict, list[Message]]:
    """The verdict of the gold conversation (steps None), or of an agent saying and calling
    `steps` in order against the scripted user, then the gold final message."""
    task = item.task
    async with SandboxPool(workers=1) as pool:
        if steps is None:
            draft = (await ReferenceTeacher().attempts(item, pool))[0]
        else:
            calls = [(s.name, s.arguments) for s in steps if isinstance(s, Action)]
            outcomes, final_hash = await pool.replay(task.domain, state_json(task), calls)
            done, user = iter(outcomes), ScriptedUser(task.user_scenario)
            draft = open_draft(task, "ignoring", 1)
            for step in steps:
                if isinstance(step, Action):
                    record_call(draft, task, step.name, step.arguments, next(done))
                    continue
                draft.messages.append(Message(role="assistant", content=step))
                answer = user.reply(step)
                draft.messages.append(Message(role="user", content=answer or ""))
            draft = close_draft(draft, item.final_message, final_hash)
        return await verify(task, draft, pool), draft.messages


def judge(item: SampledTask, steps: list[Step] | None = None) -> tuple[Verdict, list[str]]:
    """(verdict, the scripted user's turns after the opening)."""
    verdict, messages = asyncio.run(_judge(item, steps))
    return verdict, [m.content for m in messages[2:] if m.role == "user"]


def gold_calls(item: SampledTask) -> list[Action]:
    return [Action(a["name"], a["arguments"]) for a in item.task.gold_actions]


def test_correct_the_gold_agent_reads_back_and_the_ignoring_one_changes_another_booking(tasks):
    item = tasks["add_luggage"]
    booking = item.task.user_scenario.known["booking id"]
    other = next(b for b in item.task.initial_state["bookings"] if b != booking)
    user = with_user(item, behaviour="correct", wrong={"booking id": other})
    verdict, said = judge(user)
    assert verdict.verified, verdict.reasons
    assert other in said[0] and booking not in said[0]  # misread first ...
    assert f"{booking}, not {other}" in said[1] or booking in said[1]  # ... then corrected
    add = gold_calls(item)[-1]
    wrong = Action(add.name, {**add.arguments, "booking_id": other})
    ask = "Could you tell me your booking id?"
    verdict, said = judge(user, [ask, wrong])
    assert said == [ScriptedUser(user.task.user_scenario).reply(ask)]
    assert not verdict.verified and verdict.failure_stage == "outcome"


def test_change_the_gold_route_is_the_new_request_and_acting_on_the_first_fails(tasks):
    item = tasks["cancel_by_email"]
    user = with_user(
        item,
        behaviour="change",
        opening="Hello. I'd like to add a checked bag to my next trip, please.",
        first_request="add a checked bag to your next trip",
        change="Sorry, change of plan: I'd rather cancel that trip altogether.",
        declines=["add luggage"],
    )
    verdict, said = judge(user)
    assert verdict.verified, verdict.reasons
    assert said[0] == "Sorry, change of plan: I'd rather cancel that trip altogether."
    *reads, cancel = gold_calls(item)  # find by email, list the bookings, the refund quote
    bag = Action("add_luggage", {"booking_id": cancel.arguments["booking_id"], "bags": 1})
    steps: list[Step] = [
        "Sure, I can help with that.",
        "Could you tell me your email?",
        *reads,
        f"Shall I add luggage to booking {cancel.arguments['booking_id']}?",
        bag,
    ]
    verdict, said = judge(user, steps)
    assert said[0].startswith("Sorry, change of plan")
    assert user.task.user_scenario.wants in said[2]  # turned the old request down, said why
    assert not verdict.verified and verdict.failure_stage == "outcome"


def test_decline_the_offer_is_turned_down_and_making_it_anyway_fails(tasks):
    item = tasks["refund_quote"]
    booking = item.task.user_scenario.known["booking id"]
    cancel = Action("cancel_booking", {"booking_id": booking})
    user = with_user(
        item,
        behaviour="decline",
        unwanted=cancel.as_dict(),
        declines=["cancel booking"],
        wants="know what refund I would get if I cancelled",
    )
    verdict, said = judge(user)
    assert verdict.verified, verdict.reasons
    assert "know what refund I would get if I cancelled" in said[-1]
    steps: list[Step] = [
        "Could you tell me your booking id?",
        *gold_calls(item),
        "I can also cancel the booking now. Shall I?",
        cancel,
    ]
    verdict, said = judge(user, steps)
    assert "know what refund I would get if I cancelled" in said[-1]  # declined, saying why
    assert not verdict.verified and verdict.failure_stage == "outcome"


def test_pieces_the_second_detail_comes_later_and_going_on_without_it_fails(tasks):
    item = tasks["cancel_which_trip"]
    scenario = item.task.user_scenario
    user = with_user(item, behaviour="pieces")
    verdict, said = judge(user)
    assert verdict.verified, verdict.reasons
    email, date = scenario.known["email"], scenario.known["travel date"]
    assert email in said[0] and date not in said[0] and date in said[1]
    find, bookings, *_, cancel = gold_calls(item)
    state = item.task.initial_state
    mine = state["bookings"][cancel.arguments["booking_id"]]
    other = next(  # the other trip on the same route: the one the date rules out
        b
        for b, row in state["bookings"].items()
        if row["customer_id"] == mine["customer_id"]
        and b != cancel.arguments["booking_id"]
        and row["status"] == "confirmed"
    )
    steps: list[Step] = [
        "Could you give me your email and your travel date?",
        find,
        bookings,
        Action("cancel_booking", {"booking_id": other}),
    ]
    verdict, said = judge(user, steps)
    assert date not in " ".join(said)
    assert not verdict.verified and verdict.failure_stage == "outcome"


def test_ask_back_the_detail_comes_once_the_agent_says_why(tasks):
    item = tasks["add_luggage"]
    booking = item.task.user_scenario.known["booking id"]
    user = with_user(item, behaviour="ask_back")
    verdict, said = judge(user)
    assert verdict.verified, verdict.reasons
    assert said[0].endswith("?") and booking not in said[0] and booking in said[1]
    ask = "Could you tell me your booking id?"
    verdict, said = judge(user, [ask, ask])  # never says why: never told, nothing done
    assert all(booking not in s for s in said)
    assert not verdict.verified and verdict.failure_stage == "outcome"


def test_dont_know_the_agent_asks_for_what_the_user_has(tasks):
    item = tasks["cancel_by_email"]
    email = item.task.user_scenario.known["email"]
    user = with_user(item, behaviour="dont_know", lacks=["booking id"])
    verdict, said = judge(user)
    assert verdict.verified, verdict.reasons
    assert "booking id" in said[0] and email not in said[0] and email in said[1]
    guess = Action("cancel_booking", {"booking_id": "BK0001"})
    verdict, said = judge(user, ["Could you tell me your booking id?", guess])
    assert "booking id" in said[0] and email not in said[0]
    assert not verdict.verified and verdict.failure_stage == "outcome"
