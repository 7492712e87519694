"""A tau2 task's user as toolscale's UserScenario, and the facts tau2's reward requires."""

from __future__ import annotations

from toolscale.tau2.domain import communicated
from toolscale.tau2.scenario import (
    final_message,
    first_person,
    known,
    required_facts,
    user_scenario,
)
from toolscale.tau2.taskfile import Tau2Task


def tau2_task(basis: list[str], ticket: str | None = None) -> Tau2Task:
    return Tau2Task.model_validate(
        {
            "id": "7",
            "ticket": ticket,
            "user_scenario": {
                "persona": "Terse.",
                "instructions": {
                    "domain": "airline",
                    "reason_for_call": "You want to cancel reservation EHGLP3.",
                    "known_info": "You are Emma Kim.\nYour user id is emma_kim_9957.",
                    "unknown_info": "You do not know your card number.",
                    "task_instructions": "Insist once.",
                },
            },
            "evaluation_criteria": {
                "actions": [],
                "communicate_info": ["1,093.34", "refund"],
                "nl_assertions": ["Agent refuses."],
                "reward_basis": basis,
            },
        }
    )


def test_opening_is_the_reason_in_the_first_person_or_the_ticket() -> None:
    assert first_person("You want to cancel your trip; tell you're sorry.") == (
        "I want to cancel my trip; tell I'm sorry."
    )
    assert first_person("If the agent asks you, you were away.") == (
        "If the agent asks me, I was away."
    )
    assert user_scenario(tau2_task(["DB"])).opening == "I want to cancel reservation EHGLP3."
    assert user_scenario(tau2_task(["DB"], ticket="Cancel EHGLP3")).opening == "Cancel EHGLP3"


def test_known_info_becomes_keys_the_scripted_user_can_give() -> None:
    assert known("You are Emma Kim.\nYour user id is emma_kim_9957.") == {
        "user id": "emma_kim_9957",
        "details": "You are Emma Kim.",
    }
    scenario = user_scenario(tau2_task(["DB"]))
    assert scenario.known["user id"] == "emma_kim_9957"
    assert scenario.unknown_info == "You do not know your card number."
    assert scenario.task_instructions == "Insist once." and scenario.persona == "Terse."
    assert scenario.nl_assertions == ["Agent refuses."]


def test_communicate_info_counts_only_when_the_basis_has_communicate() -> None:
    assert required_facts(tau2_task(["DB", "COMMUNICATE"])) == ["1,093.34", "refund"]
    assert required_facts(tau2_task(["DB", "NL_ASSERTION"])) == []


def test_communicated_is_tau2s_substring_check() -> None:
    said = ["", "Your REFUND of $1,093.34 is on its way."]
    assert communicated("refund", said)
    assert communicated("1093.34", said)  # commas leave the message, not the fact
    assert not communicated("1,093.34", said)  # as in tau2: a fact with a comma never matches
    assert communicated("45", ["It costs 145 dollars."])  # a substring, as in tau2
    assert not communicated("refund", ["No money back."])


def test_the_reference_final_message_states_every_required_fact() -> None:
    task = tau2_task(["DB", "COMMUNICATE"])
    message = final_message(task)
    assert communicated("refund", [message])
    assert "1,093.34" in message
