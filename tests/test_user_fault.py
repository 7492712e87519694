"""The user-fault check: a rejected attempt the simulated user broke (a held detail withheld, a
request hung up on, its own goal turned down) goes to stage "user"; an attempt the agent broke,
or one the user did nothing wrong in, keeps its verdict. The funnel and run.json count the user's
faults apart from the rejected ones."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pandas as pd

from toolscale.core.contract import UserScenario
from toolscale.core.records import FunctionCall, Message, Task
from toolscale.judge.user_fault import user_faults, user_verdict, write_tools
from toolscale.judge.verify import Verdict
from toolscale.stats.card_numbers import funnel
from toolscale.stats.run_stats import Funnel, RunStats

WRITES = frozenset({"return_item"})
SCENARIO = UserScenario(
    reason_for_call="It does not fit.",
    opening="I want to send back the Trail Runner from my shoe order.",
    known={"order id": "O317820"},
    stated={"item": "the Trail Runner"},
)
GOLD = [
    {"name": "get_order", "arguments": {"order_id": "O317820"}},
    {"name": "return_item", "arguments": {"order_id": "O317820", "variant_id": "V93682"}},
]


def task(scenario: UserScenario | None = SCENARIO, domain: str = "ecommerce") -> Task:
    made: Any = SimpleNamespace(user_scenario=scenario, gold_actions=GOLD, domain=domain)
    return cast(Task, made)


def talk(*turns: tuple[str, str]) -> list[Message]:
    return [Message(role=role, content=text) for role, text in turns]  # type: ignore[arg-type]


OPEN = ("user", SCENARIO.opening)


def test_a_held_detail_never_given_after_the_agent_asked_is_withheld() -> None:
    messages = talk(
        OPEN,
        ("assistant", "Could you tell me your order number?"),
        ("user", "I'm afraid I can't find one."),
        ("assistant", "Sorry, without it I cannot help."),
    )
    assert user_faults(task(), messages, WRITES) == [
        "user withheld: asked for its order id, it never gave 'O317820'"
    ]


def test_a_detail_asked_by_the_gold_arguments_name_counts_too() -> None:
    scenario = SCENARIO.model_copy(update={"known": {"purchase": "O317820"}})
    messages = talk(OPEN, ("assistant", "What is the order_id?"), ("user", "No idea."))
    messages.append(Message(role="assistant", content="Then I can't go on."))
    assert [f.split(":")[0] for f in user_faults(task(scenario), messages, WRITES)] == [
        "user withheld"
    ]


def test_a_detail_given_in_any_spacing_or_asked_back_is_not_withheld() -> None:
    given = talk(
        OPEN,
        ("assistant", "Could you tell me your order id?"),
        ("user", "Sure: o-317 820."),
        ("assistant", "Done: your return is booked."),
    )
    assert user_faults(task(), given, WRITES) == []
    asked_back = talk(
        OPEN,
        ("assistant", "Could you tell me your order id?"),
        ("user", "Why do you need it?"),
        ("assistant", "Never mind, all done."),
    )
    assert user_faults(task(), asked_back, WRITES) == []


def test_a_conversation_the_user_ended_on_an_open_request_is_hung_up() -> None:
    messages = talk(
        OPEN,
        ("assistant", "Could you tell me your order id?"),
        ("user", "It's O317820."),
        ("assistant", "Thanks. Please type the size you want back."),
    )
    assert user_faults(task(), messages, WRITES) == [
        "user hung up on the agent's request: 'Please type the size you want back.'"
    ]
    closing = [*messages[:-1], Message(role="assistant", content="Done. Anything else?")]
    assert user_faults(task(), closing, WRITES) == []  # a pleasantry is no open request


def test_saying_no_to_the_change_it_called_for_turns_down_its_own_goal() -> None:
    messages = talk(
        OPEN,
        ("assistant", "Could you tell me your order id?"),
        ("user", "It's O317820."),
        ("assistant", "Shall I return the Trail Runner from order O317820?"),
        ("user", "No, please don't change anything."),
        ("assistant", "All right, nothing was changed."),
    )
    assert user_faults(task(), messages, WRITES) == [
        "user turned down its own goal: 'Shall I return the Trail Runner from order "
        "O317820?' -> \"No, please don't change anything.\""
    ]
    only_asking = SCENARIO.model_copy(update={"accepts_changes": False})
    assert user_faults(task(only_asking), messages, WRITES) == []  # it wanted nothing changed


def test_an_attempt_with_a_write_the_gold_route_lacks_is_the_agents() -> None:
    messages = talk(OPEN, ("assistant", "Could you tell me your order id?"), ("user", "No."))
    call = FunctionCall(id="c1", name="return_item", arguments='{"order_id": "O1"}')
    messages.append(Message(role="assistant", content="", tool_calls=[call]))
    messages.append(Message(role="assistant", content="Returned."))
    assert user_faults(task(), messages, WRITES) == []
    assert user_faults(task(None), messages, WRITES) == []  # no user: no user's fault


def test_only_an_outcome_failure_a_user_can_cause_moves_to_stage_user() -> None:
    messages = talk(OPEN, ("assistant", "What is your order id?"), ("user", "Can't say."))
    messages.append(Message(role="assistant", content="Then I cannot help."))
    state = Verdict(False, "outcome", ["the final state differs from the gold final state"])
    moved = user_verdict(task(), messages, state)
    assert (moved.verified, moved.failure_stage) == (False, "user")
    assert moved.reasons[-1] == state.reasons[0] and moved.reasons[0].startswith("user withheld")
    figure = Verdict(False, "outcome", [*state.reasons, "unbacked figure: '$12.00'"])
    assert user_verdict(task(), messages, figure) is figure  # the agent's own words are wrong
    for kept in (Verdict(False, "format", ["c1: unknown tool"]), Verdict(True, None, [])):
        assert user_verdict(task(), messages, kept) is kept
    assert "return_item" in write_tools("ecommerce") and "get_order" not in write_tools("ecommerce")


def test_the_funnel_and_run_json_count_user_faults_apart() -> None:
    broken = Funnel.of_attempt(False, "user")
    assert (broken.attempts, broken.executed, broken.grounded, broken.verified) == (1, 1, 1, 0)
    stats = RunStats(domains={"ecommerce": broken + Funnel.of_attempt(True, None)})
    report = stats.report(["ecommerce"])
    assert report["counts"]["user_faults"] == 1 and report["rejected_by_stage"] == {}
    assert report["per_domain"]["ecommerce"]["user_faults"] == 1
    assert report["counts"]["attempts"] == 2 and report["counts"]["verified"] == 1
    attempts = pd.DataFrame(
        {"failure_stage": [None, "user", "outcome"], "verified": [True, False, False]}
    )
    stages = funnel(pd.DataFrame({"id": ["t"]}), attempts, 1)
    assert stages[-2:] == [("verified", 1, "33.3%"), ("user_faults", 1, "33.3%")]
