"""Experts with skill profiles: right with the probability their profile gives for the kind and
difficulty they read, billed for what they write, described by measured capability sentences."""

from __future__ import annotations

import dataclasses

from domains.math import MathDomain
from toolscale.core.contract import answer_matches, item_rng
from toolscale.economics.prices import text_tokens
from toolscale.tools import capabilities
from toolscale.tools.capabilities import sentences
from toolscale.tools.experts import simulated_answer
from toolscale.tools.skills import PROFILES, Known


def test_a_reply_bills_its_stated_reasoning_plus_its_own_text():
    reply, usage = simulated_answer("expert-2", "What is 2 + 3?", Known("5", kind="arithmetic"))
    reasoning = int(reply.split("reasoned for ")[1].split(" tokens")[0].replace(",", ""))
    low, high = PROFILES["expert-2"].reasoning["medium"]
    assert low <= reasoning <= high
    assert usage.completion_tokens == reasoning + text_tokens(reply)
    assert "Confidence 0.98" in reply  # its profile's accuracy on medium arithmetic


def test_right_with_the_profiles_probability_by_kind():
    for alias, profile in PROFILES.items():
        right = 0
        for i in range(600):  # 600 different problems of one kind and difficulty
            known = Known(str(1000 + i), kind="program", difficulty="hard")
            right += answer_matches(known.answer, simulated_answer(alias, "question?", known)[0])
        assert abs(right / 600 - profile.p_correct("program", "hard")) < 0.06, alias


def test_a_problem_gets_the_same_answer_however_it_is_worded():
    known = Known("4197207", kind="program", difficulty="hard")
    replies = {simulated_answer("expert-3", q, known)[0] for q in ("Q?", "Q? Keep it cheap.")}
    assert len(replies) == 1


def test_changing_a_profile_changes_the_capability_sentence():
    domain = MathDomain()
    before = sentences(domain, PROFILES, tasks=60)
    weak = dataclasses.replace(
        PROFILES["expert-1"], accuracy={**PROFILES["expert-1"].accuracy, "program": (0, 0, 0)}
    )
    after = sentences(domain, {**PROFILES, "expert-1": weak}, tasks=60)
    assert before[1:] == after[1:]  # the other aliases' sentences are unchanged
    assert before[0] != after[0] and " 0% of program questions" in after[0]
    assert " 0% of program questions" not in before[0]


def test_the_system_prompt_carries_the_measured_sentences():
    from toolscale.sample.tasks import build_task

    task = build_task(MathDomain(), 0, 0, 15.0).task
    measured = capabilities.capability_text(MathDomain)
    assert measured in task.system_prompt
    for line in sentences(MathDomain(), PROFILES):
        assert line in task.system_prompt


def test_the_expert_reads_kind_and_difficulty_from_the_question_not_the_task():
    domain = MathDomain()
    kinds = set()
    for i in range(60):
        spec = domain.sample(item_rng("math", 0, i), 0, i)
        kit = domain.toolkit({})
        found = kit.known(spec.instruction)
        assert found is not None and found.answer == spec.answer
        kinds.add(found.kind)
        assert kit.known(spec.instruction + " Please.") == found
    assert kinds == {"arithmetic", "word problem", "program", "math fact"}
