"""The held-out split is content-disjoint: the same problem under another id (another seed,
price table or profile) is on the same side, and `overlap` finds a held-out task that is a
training task in all but its id."""

from __future__ import annotations

import json

import pytest

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from trainer.args import ToolscaleArguments
from trainer.data import grpo_rows
from trainer.split import content_key, disjoint, overlap, split


def row(instruction: str, answer: str | None, profile_text: str = "", state: str = "") -> dict:
    text = f"{instruction} {profile_text}".strip()
    preference = json.dumps({"instruction": profile_text})
    return {
        "instruction": text,
        "expected_answer": answer,
        "preference": preference,
        "expected_state_hash": state,
    }


def test_the_key_ignores_the_profile_sentence_case_and_spacing():
    plain = row("What is 7 * 2?", "14")
    cheap = row("what is  7 * 2?", "14", "Keep it cheap: use the least expensive tools.")
    assert content_key(plain) == content_key(cheap) == "what is 7 * 2?|14"
    assert content_key(row("What is 7 * 2?", "15")) != content_key(plain)  # another answer
    # A stateful task: the gold final state stands for the answer.
    assert content_key(row("Cancel my trip.", None, state="abc")).endswith("|abc")


def test_overlap_names_a_held_out_task_that_is_a_training_task():
    training = [row("What is 7 * 2?", "14"), row("What is 3 + 4?", "7")]
    heldout = [row("What is 9 - 1?", "8"), row("WHAT IS 3 + 4?", "7", "Answer fast.")]
    assert overlap(training, heldout) == [1]
    assert disjoint(training, heldout) == [0]


def test_every_task_of_one_content_is_on_one_side():
    rows = [
        row(f"Problem {i % 7}", str(i % 7), profile)
        for i in range(70)
        for profile in ("", "Be quick.")
    ]
    train, heldout = split(rows, 0.3)
    assert sorted(train + heldout) == list(range(len(rows)))
    assert train and heldout
    assert not overlap([rows[i] for i in train], [rows[i] for i in heldout])


@pytest.mark.slow
def test_the_trainer_splits_its_tasks_without_shared_content(tmp_path):
    data = tmp_path / "data"
    generate(GenerateConfig(domains=["bank"], num_tasks=30, out=data))
    options = ToolscaleArguments(dataset=str(data), domains="bank", heldout_fraction=0.3)
    training, heldout = grpo_rows(options), grpo_rows(options, heldout=True)
    training_ids, heldout_ids = list(training["id"]), list(heldout["id"])
    assert len(training) + len(heldout) == 30 and len(heldout) > 0
    assert overlap(list(training), list(heldout)) == []
    every = grpo_rows(ToolscaleArguments(dataset=str(data), domains="bank"))
    assert sorted(training_ids + heldout_ids) == sorted(every["id"])
