"""Each synthesize stage on its own: parsing answers, the format filter, execution, the do-nothing
check, near-duplicates, tau2 decontamination files, and the funnel arithmetic."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.synthesis.scripted import fits, valid
from toolscale.core.contract import state_hash
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain
from toolscale.sample.stored import base_body, playable
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool
from toolscale.stats.yields import Yields
from toolscale.synthesize import dedup, filters
from toolscale.synthesize.candidates import Candidate, find_json, parse_candidate, parse_intents
from toolscale.synthesize.pipeline import base_state

DOMAIN = "railway"


def test_json_is_found_bare_fenced_or_after_prose():
    assert find_json('{"a": 1}') == {"a": 1}
    assert find_json('Sure!\n```json\n{"a": [1, 2]}\n```\nDone.') == {"a": [1, 2]}
    assert find_json('Here you go: {"a": 2} and more {"b": 3}') == {"a": 2}
    assert find_json("no json here") is None


def test_intents_parse_from_objects_lists_and_strings():
    text = '{"intents": [{"intent": "cancel", "kind": "write"}, "ask fare", {"kind": "read"}, 3]}'
    assert [(i.intent, i.kind) for i in parse_intents(text)] == [
        ("cancel", "write"),
        ("ask fare", "read"),
    ]
    assert parse_intents('[{"intent": "x", "kind": "delete"}]') == []  # unknown kind: skipped
    assert parse_intents("nothing") == []
    prose = "Here are two:\n\n1. Find a customer by email.\nA user asks.\n2) Get a refund quote\n"
    assert [i.intent for i in parse_intents(prose)] == [
        "Find a customer by email.",
        "Get a refund quote",
    ]


def test_malformed_candidates_say_why():
    assert parse_candidate('{"opening": "hi"') == (None, "the answer holds no JSON object")
    candidate, why = parse_candidate('{"reason_for_call": "x", "opening": "hi"}')
    assert candidate is None and why.startswith("field actions")
    candidate, why = parse_candidate('{"reason_for_call": " ", "opening": "hi", "actions": []}')
    assert candidate is None and "reason_for_call" in why
    candidate, why = parse_candidate(
        '{"task": {"reason_for_call": "r", "opening": "o", "known": {"booking id": 7},'
        ' "actions": [{"name": "t"}],'
        ' "communicate_info": [{"value": 4.5, "action": 0, "field": "fee"}]}}'
    )
    assert why == "" and candidate.known == {"booking id": "7"}
    assert candidate.facts == ["4.5"] and candidate.scenario().known_info == (
        "Your booking id is 7."
    )
    # A fact written as a sentence, without its source, is malformed and says what to write.
    candidate, why = parse_candidate(
        '{"reason_for_call": "r", "opening": "o", "actions": [{"name": "t"}],'
        ' "communicate_info": ["The refund is 4.50"]}'
    )
    assert candidate is None and why.startswith("field communicate_info: Value error, item 0")
    assert '{"value": ..., "action": N, "field": "..."}' in why


def test_format_filter_names_unknown_tools_and_schema_errors():
    domain = get_domain(DOMAIN)
    good = Candidate.model_validate(valid(DOMAIN, 0, 0))
    assert filters.candidate_problems(domain, good) == []
    bad = good.model_copy(
        update={
            "actions": [
                good.actions[0].model_copy(update={"name": "teleport"}),
                good.actions[0].model_copy(
                    update={"arguments": {k: [v] for k, v in good.actions[0].arguments.items()}}
                ),
            ]
        }
    )
    problems = filters.candidate_problems(domain, bad)
    assert problems[0] == "action 0: unknown tool 'teleport'"
    assert problems[1].startswith(f"action 1 ({good.actions[0].name}): ")
    assert filters.candidate_problems(domain, good.model_copy(update={"actions": []})) == [
        "the task has no gold actions"
    ]


def test_execution_filter_fails_errors_and_writes_that_change_nothing():
    ok, error = CallOutcome("fine", "ok"), CallOutcome("Error: no such booking", "error")
    assert filters.execution_problems([ok, ok], "a", "b", write=True) == []
    assert filters.execution_problems([ok], "a", "a", write=False) == []
    assert filters.execution_problems([ok], "a", "a", write=True) == [
        "the gold actions change nothing although the task asks for a change"
    ]
    assert filters.execution_problems([ok, error], "a", "b", write=False) == [
        "gold action 1 error: Error: no such booking"
    ]


def test_gold_runs_in_the_sandbox_and_do_nothing_is_judged():
    domain = get_domain(DOMAIN)
    index = next(i for i in range(50) if fits(DOMAIN, "read", i))  # a read-only task
    candidate = Candidate.model_validate(valid(DOMAIN, 0, index))
    state = base_state(domain, 0, index)

    async def run():
        async with SandboxPool(1) as pool:
            return await filters.run_gold(pool, domain, state, candidate)

    outcomes, final_hash = asyncio.run(run())
    assert [o.status for o in outcomes] == ["ok"] * len(candidate.actions)
    body = base_body(
        {
            "domain": DOMAIN,
            "seed": 0,
            "index": index,
            "difficulty": "easy",
            "gold_actions": [a.model_dump() for a in candidate.actions],
            "initial_state": state,
            "expected_state_hash": final_hash,
            "required_facts": candidate.facts,
            "user_scenario": candidate.scenario().model_dump(),
            "world": "",
            "provenance": {},
        }
    )
    task = playable(body, outcomes).task
    assert task.instruction == candidate.opening and task.template == "synthesized"
    assert task.required_facts and not filters.do_nothing_passes(task)
    # The same task whose only fact is something the user said: doing nothing passes it.
    parrot = task.model_copy(update={"required_facts": [candidate.opening.split()[1]]})
    assert final_hash == state_hash(state) and filters.do_nothing_passes(parrot)


def test_near_duplicates_are_matched_and_distinct_tasks_are_not():
    a = Candidate.model_validate(valid(DOMAIN, 0, 0))
    reworded = a.model_copy(update={"reason_for_call": a.reason_for_call + " Thank you."})
    other = Candidate.model_validate(valid(DOMAIN, 0, 3))
    seen = dedup.NearDuplicates(0.8)
    seen.add("a", dedup.candidate_features(a))
    assert seen.match(dedup.candidate_features(reworded)) == "a"
    assert seen.match(dedup.candidate_features(other)) is None


def test_tau2_files_load_and_bad_folders_are_config_errors(tmp_path):
    task = valid(DOMAIN, 0, 0)
    record = {
        "id": "t1",
        "user_scenario": {"instructions": {"reason_for_call": task["reason_for_call"]}},
        "evaluation_criteria": {"actions": task["actions"]},
    }
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "tasks.json").write_text(json.dumps({"tasks": [record, {"x": 1}]}))
    seen = dedup.load_tau2(tmp_path / "a", 0.8)
    assert len(seen) == 1
    assert seen.match(dedup.candidate_features(Candidate.model_validate(task))) == "tasks.json#t1"
    with pytest.raises(ConfigError, match="does not exist"):
        dedup.load_tau2(tmp_path / "missing", 0.8)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x.json").write_text("{not json")
    with pytest.raises(ConfigError, match="cannot read"):
        dedup.load_tau2(tmp_path / "b", 0.8)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "x.json").write_text("[1, 2]")
    with pytest.raises(ConfigError, match="holds no tau2 task"):
        dedup.load_tau2(tmp_path / "c", 0.8)


def test_funnel_steps_stop_at_the_rejecting_stage():
    assert Yields.of_candidate("parse").funnel() == {
        "proposed": 1,
        "grounded": 1,
        "well_formed": 0,
        "executes": 0,
        "not_trivial": 0,
        "unique": 0,
        "solvable": 0,
    }
    assert Yields.of_candidate("duplicate").funnel()["not_trivial"] == 1
    assert Yields.of_candidate("duplicate").funnel()["unique"] == 0
    accepted = Yields.of_candidate(None, "3/8", band=True)
    assert accepted.funnel()["solvable"] == 1 and accepted.band == 1
    total = accepted + Yields.of_candidate("solver", "0/8") + Yields.of_candidate(None, "8/8")
    assert total.passes == {"0/8": 1, "3/8": 1, "8/8": 1}
    assert (total.solvable, total.band, total.rejected_by_stage) == (2, 1, {"solver": 1})
