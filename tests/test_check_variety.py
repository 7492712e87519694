"""The variety measures on inputs worked by hand (3-gram ratios, sharing, masking, the gold
conversation's turns, the figures of a few tasks), the floor scaled to another task count, and
`below`: one problem line per figure under the floor, naming it, none at the floor."""

from __future__ import annotations

import pytest

from toolscale.check.variety import (
    FLOOR,
    Floor,
    Told,
    below,
    conversation,
    drawn_trigram_ratio,
    figures,
    mask,
    names_in,
    shared,
    trigram_ratio,
    weakest,
)
from toolscale.core.records import FunctionCall, Message


def test_the_trigram_ratio_counts_distinct_word_trigrams_over_all() -> None:
    # "the cat sat on the mat": the cat sat, cat sat on, sat on the, on the mat (4);
    # "the cat sat down": the cat sat (again), cat sat down (2): 5 distinct of 6
    assert trigram_ratio(["the cat sat on the mat", "the cat sat down"]) == 5 / 6
    assert trigram_ratio(["A b C", "a B c"]) == 1 / 2  # folded
    assert trigram_ratio(["too short", "a"]) == 0.0
    # fewer than 50 texts: every draw holds them all, so the median is the ratio of all
    texts = ["we want a bike", "we want a car today", "please call me"]  # 5 distinct of 6
    assert drawn_trigram_ratio(texts) == trigram_ratio(texts) == 5 / 6


def test_sharing_is_the_share_of_items_equal_to_another() -> None:
    assert shared(["x", "y", "x", "z"]) == 0.5
    assert shared(["x", "x", "x"]) == 1.0
    assert shared(["x", "y"]) == 0.0 and shared([]) == 0.0


def test_masking_hides_names_emails_and_every_token_with_a_digit() -> None:
    state = {"people": [{"name": "Ada Byron", "city": "Leeds"}], "payee": {"name": "Bo"}}
    names = names_in(state)
    assert names == {"ada", "byron", "bo"}  # the city is no name field
    text = "Call Ada Byron at ada@byron.org about order #A12 on 2025-07-14, in Leeds."
    assert mask(text, names) == "call <name> <name> at <email> about order <n> on <n> in leeds."


def test_the_conversation_splits_follow_ups_confirmations_and_agent_turns() -> None:
    call = FunctionCall(id="c1", name="get_rental", arguments="{}")
    messages = [
        Message(role="system", content="policy"),
        Message(role="user", content="Hi, cancel my rental."),
        Message(role="assistant", content="Which rental?"),
        Message(role="user", content="The one on Sunday."),
        Message(role="assistant", content="", tool_calls=[call]),
        Message(role="tool", content="{}", tool_call_id="c1"),
        Message(role="assistant", content="It costs $6. Shall I go ahead?"),
        Message(role="user", content="Yes please."),
        Message(role="assistant", content="Done."),  # the final message: left out
    ]
    users, confirmations, agent = conversation(messages)
    assert users == ["The one on Sunday.", "Yes please."]
    assert confirmations == ["Yes please."]
    assert agent == ["Which rental?", "It costs $6. Shall I go ahead?"]


def _told(first: str, reason: str, said: tuple[str, ...], names: set[str]) -> Told:
    return Told(first, reason, f"instructions of {first}", "plain", said, (), (), frozenset(names))


def test_the_figures_of_three_tasks() -> None:
    rows = [
        _told("I want to cancel rental R1", "Ada wants to cancel.", ("It is R1.",), {"ada"}),
        _told("I want to cancel rental R2", "Bo wants to cancel.", ("It is R2.",), {"bo"}),
        _told("please book a bike today", "You need a bike.", ("Yes.", "It is R3."), set()),
    ]
    found = figures(rows)
    # masked first messages: two alike ("... rental <n>"); the reasons of Ada and Bo alike
    assert found["tasks"] == 3 and found["dup_share"] == 2 / 3 and found["surface_forms"] == 2
    assert found["reason_shared"] == 2 / 3
    # 3-grams: i want to, want to cancel, to cancel rental, cancel rental r1 / ... r2 (8 in
    # all, 5 distinct), please book a, book a bike, a bike today (3): 8 distinct of 11
    assert found["trigram_ratio"] == 8 / 11
    assert found["user_followups"] == 2  # "it is <n>" and "yes."
    assert found["task_instructions"] == 3 and found["behaviour_share"] == 0.0


def test_the_floor_is_the_weakest_figures_and_scales_its_follow_ups() -> None:
    rows = [
        {"tasks": 400, "trigram_ratio": 0.7, "reason_shared": 0.0, "user_followups": 300},
        {"tasks": 400, "trigram_ratio": 0.65, "reason_shared": 0.01, "user_followups": 310},
    ]
    assert weakest(rows) == Floor(400, 0.65, 0.01, 300)
    assert Floor(400, 0.65, 0.01, 265).at(100) == Floor(100, 0.65, 0.01, 66)  # 265/4, down
    assert FLOOR.tasks == 400 and FLOOR.at(400) == FLOOR


def test_below_says_each_figure_under_the_floor_and_nothing_at_it() -> None:
    floor = Floor(400, 0.63, 0.01, 265)
    at = {"tasks": 400, "trigram_ratio": 0.63, "reason_shared": 0.01, "user_followups": 265}
    assert below(at, floor) == []
    worse = {"tasks": 400, "trigram_ratio": 0.41, "reason_shared": 0.025, "user_followups": 90}
    problems = below(worse, floor)
    assert len(problems) == 3
    assert problems[0].startswith(
        "first-message 3-gram ratio 0.4100 is below the bundled domains' floor 0.6300 (400 tasks)"
    )
    # four places: 0.6289 against 0.6319 no longer reads "0.63 is below 0.63"
    close = {**at, "trigram_ratio": 0.6289}
    assert below(close, Floor(400, 0.6319, 0.01, 265))[0].startswith(
        "first-message 3-gram ratio 0.6289 is below the bundled domains' floor 0.6319"
    )
    assert problems[1].startswith(
        "2.5% of the tasks share their masked reason for the call, above the bundled domains' "
        "floor 1.0% (400 tasks)"
    )
    assert problems[2].startswith(
        "90 distinct user follow-ups is below the bundled domains' floor 265 (400 tasks)"
    )
    assert below(at | {"trigram_ratio": 0.62}, floor)[0].startswith("first-message 3-gram")
    with pytest.raises(ValueError, match="figures of 100 tasks against a floor of 400"):
        below(at | {"tasks": 100}, floor)
