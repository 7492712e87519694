"""The user simulator: it answers the agent's questions from its scenario, its turns are marked,
and its stop marker ends the conversation."""

from __future__ import annotations

import asyncio

from tests.teachers.fake_openai import FakeOpenAI, Plans, gold_turns
from toolscale.core.contract import UserScenario
from toolscale.core.registry import get_domain
from toolscale.economics.preferences import DEFAULT_SPREAD
from toolscale.llm.client import ChatClient, Endpoint, RetryPolicy
from toolscale.llm.ledger import Budget, Ledger
from toolscale.play import openai_teacher
from toolscale.play.openai_teacher import OpenAITeacher
from toolscale.play.usersim import UserSimulator, user_view
from toolscale.sample.tasks import build_task, with_preference
from toolscale.sandbox.pool import SandboxPool

QUESTION = "Which amount do you mean?"


def test_the_simulator_answers_then_stops_and_its_turns_are_marked(monkeypatch):
    task = with_preference(build_task(get_domain("math"), 0, 0, 15.0), DEFAULT_SPREAD).task
    gold = next(iter(gold_turns("math", 1).values()))
    turns = {
        # The agent first asks, then (after the user's reply) plays the gold route.
        task.instruction: [{"content": QUESTION}, *gold],
        # The simulator sees the agent's question as its first "user" message; its turn index
        # counts the user turns so far (1: the instruction).
        QUESTION: [{}, {"content": "The one in my message."}, {"content": "Thanks! ###STOP###"}],
    }
    scenario = UserScenario(
        reason_for_call="Get the answer.", opening=task.instruction, known={"amounts": "as said"}
    )
    monkeypatch.setattr(openai_teacher, "scenario_for", lambda _: scenario)

    async def play():
        with FakeOpenAI(Plans(turns)) as server:
            ledger = Ledger(0, 0, Budget())
            policy = RetryPolicy(timeout_s=2, max_retries=0)
            client = ChatClient(Endpoint(server.base_url, "fake"), "k", policy, ledger)
            teacher = OpenAITeacher(client, name="openai:fake", user=UserSimulator(client))
            async with SandboxPool(1) as pool:
                draft = await teacher.play(task, pool, 0)
            await client.close()
            return draft

    draft = asyncio.run(play())
    simulated = [m for m in draft.messages if m.name == "user_simulator"]
    assert [m.content for m in simulated] == ["The one in my message."]
    assert draft.failure is None
    assert draft.final_answer == gold[-1]["content"]
    assert draft.messages[-1].content == draft.final_answer  # the stop ended it
    assert len(draft.tool_calls) == len(task.gold_actions)


def test_the_user_view_swaps_roles_and_hides_tool_traffic():
    from toolscale.core.records import FunctionCall, Message

    messages = [
        Message(role="system", content="policy"),
        Message(role="user", content="hi"),
        Message(
            role="assistant",
            content="",
            tool_calls=[FunctionCall(id="c", name="t", arguments="{}")],
        ),
        Message(role="tool", content="42", tool_call_id="c", name="t"),
        Message(role="assistant", content="It is 42."),
    ]
    assert user_view(messages) == [
        {"role": "assistant", "content": "hi"},
        {"role": "user", "content": "It is 42."},
    ]
