"""An endpoint that sends hostile arguments to every tool of every bundled domain (the values of
toolscale.check.hostile, arithmetic bombs, argument texts Python's JSON parser refuses) fails
calls,
never the run: generate finishes, no call is counted as crashed, and every attempt is rejected
with its stage (format for the unreadable texts, outcome for the others)."""

from __future__ import annotations

import json

import pytest

from tests.teachers.fake_openai import Plans, fake_openai, hostile_turns
from toolscale.pipeline.generate import GenerateConfig, generate

pytestmark = pytest.mark.slow
DOMAINS = ["railway", "bank", "math", "knowledge"]


def test_hostile_arguments_to_every_tool_are_rejected_attempts_not_a_failed_run(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("HOSTILE_KEY", "sk-test")
    turns = {k: v for d in DOMAINS for k, v in hostile_turns(d, 2).items()}
    with fake_openai(Plans(turns)) as server:
        summary = generate(
            GenerateConfig(
                domains=DOMAINS,
                num_tasks=8,
                out=tmp_path / "out",
                teacher="openai",
                base_url=server.base_url,
                model="fake",
                api_key_env="HOSTILE_KEY",
                user="scripted",  # the fake plays hostile agents, not callers
            )
        )
    counts = summary["counts"]
    assert counts["attempts"] == 8 and counts["verified"] == 0
    assert summary["tool_crashes"] == 0
    # Task 1 of each domain also sends the unreadable texts (format); task 0's hostile calls are
    # all schema-valid and answered with tool errors, so it fails only for giving up (outcome).
    assert summary["rejected_by_stage"] == {"format": 4, "outcome": 4}
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["errors"] == [] and run["tool_crashes"] == 0
    requests = server.plans.requests
    assert requests >= 8 * 3  # three turns per task: every hostile call was sent
