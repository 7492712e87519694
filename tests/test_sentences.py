"""Messages split into sentences as a reader splits them (`toolscale.core.sentences`): not after
"e.g.", "i.e." or a title, and at every other full stop, question mark or line break."""

from __future__ import annotations

from toolscale.core.sentences import END, sentences


def test_abbreviations_and_titles_stay_inside_their_sentence() -> None:
    said = "Thanks. Which day (e.g. 2025-10-09)? With Dr. David Le or Mrs. Hahn? Yes."
    assert sentences(said) == [
        "Thanks.",
        "Which day (e.g. 2025-10-09)?",
        "With Dr. David Le or Mrs. Hahn?",
        "Yes.",
    ]
    assert sentences("One line\nAnother, i.e. the second! Done") == [
        "One line",
        "Another, i.e. the second!",
        "Done",
    ]


def test_a_sentences_end_is_not_an_abbreviations_stop() -> None:
    text = "Pick one (e.g. Friday). Thanks"
    assert [m.start() for m in END.finditer(text)] == [len("Pick one (e.g. Friday)")]
