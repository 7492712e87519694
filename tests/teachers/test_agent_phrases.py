"""The reference agent's wordings: a turn another reply has begun ("Sure, no worries.") does not
begin again with a wording's own opener ("Sure. Could you ...")."""

from __future__ import annotations

from toolscale.dialogue.agent_phrases import AGREED, ASK, OPENERS, without_opener


def test_an_opener_is_left_out_and_the_rest_begins_with_a_capital():
    assert without_opener("Sure. Could you let me know your email?") == (
        "Could you let me know your email?"
    )
    assert without_opener("I can help with that. could you?") == "Could you?"
    assert without_opener("Could I have your email?") == "Could I have your email?"
    assert without_opener("Surely not.") == "Surely not."  # a word, not the opener "Sure. "


def test_no_question_after_an_agreement_starts_with_an_interjection_again():
    for agreed in AGREED:
        for wording in ASK:
            turn = f"{agreed} {without_opener(wording.format(wanted='your email'))}"
            rest = turn[len(agreed) + 1 :]
            assert not rest.startswith(OPENERS), turn
            assert rest[0].isupper() and rest.endswith(("?", ".")), turn
