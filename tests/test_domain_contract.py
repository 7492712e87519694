"""Contract tests run over every registered domain (bundled ones and the test fixture)."""

from __future__ import annotations

import json
import subprocess
import sys
from types import SimpleNamespace

import pytest

from toolscale.core.contract import (
    Action,
    ToolKind,
    answer_matches,
    canonical_json,
    committed_answer,
    state_hash,
)
from toolscale.core.records import Message
from toolscale.core.registry import get_domain, names
from toolscale.dialogue.conversation import converse
from toolscale.judge.metrics import tool_call_record
from toolscale.judge.verify import outcome_problems
from toolscale.sample.tasks import build_task
from toolscale.sandbox.execute import execute, fresh_toolkit

DOMAINS = names()
INDEXES = range(40)


@pytest.mark.parametrize("name", DOMAINS)
def test_same_seed_same_task_other_seed_other_tasks(name):
    domain = get_domain(name)
    first = [build_task(domain, 7, i, 5).task for i in range(10)]
    again = [build_task(domain, 7, i, 5).task for i in range(10)]
    other = [build_task(domain, 8, i, 5).task for i in range(10)]
    assert first == again
    assert len({t.id for t in first}) == 10
    assert {t.id for t in first}.isdisjoint({t.id for t in other})


@pytest.mark.parametrize("name", DOMAINS)
def test_gold_trace_scores_one_and_empty_trace_scores_zero(name):
    domain = get_domain(name)
    for index in INDEXES:
        item = build_task(domain, 0, index, 5)
        task = item.task
        kit = fresh_toolkit(domain, canonical_json(task.initial_state))
        calls = []
        for n, action in enumerate(task.gold_actions):
            outcome = execute(kit, action["name"], action["arguments"], 5)
            assert outcome.status == "ok"
            arguments = canonical_json(action["arguments"])
            calls.append(tool_call_record(task, f"call_{n}", action["name"], arguments, outcome))
        # The gold final message states the answer and pastes no tool result; in a conversation
        # the scripted user's replies to the gold conversation say what the caller told (the
        # figures the message states are backed by them).
        actions = [Action(a["name"], a["arguments"]) for a in task.gold_actions]
        talk = converse(task.user_scenario, actions, domain.toolkit.specs())
        gold = SimpleNamespace(
            final_answer=item.final_message,
            final_state_hash=state_hash(kit.state),
            tool_calls=calls,
            messages=[
                Message(role="user", content=task.instruction),
                *(Message(role="user", content=t.reply) for t in talk if t.reply),
                Message(role="assistant", content=item.final_message),
            ],
        )
        assert outcome_problems(task, gold) == [], (name, index)
        empty = SimpleNamespace(
            final_answer="",
            final_state_hash=state_hash(task.initial_state),
            tool_calls=[],
            messages=[],
        )
        assert outcome_problems(task, empty) != [], (name, index)
        assert 1 <= len(task.gold_actions) <= 8


@pytest.mark.parametrize(
    ("message", "committed"),
    [
        ("Founded in 1821. The answer is Kelby Marsh.", "Kelby Marsh"),
        ("Answer: 42", "42"),
        ("84, then 63.\nFinal answer: $69.30", "$69.30"),
        ("The answer is 3. The answer is 3.", "3"),  # the same statement twice is one answer
        ("The answer is 3. The answer is 4.", None),  # candidates are no answer
        ("36\n4630.5", None),  # no statement
        ("", None),
    ],
)
def test_committed_answer_is_the_one_answer_statement(message, committed):
    assert committed_answer(message) == committed


@pytest.mark.parametrize(
    ("expected", "message", "matches"),
    [
        ("69.3", "The answer is $69.30.", True),
        ("8", "Together they take 2 more hours. The answer is 8 hours.", True),
        ("1200", "The answer is 1,200.", True),
        ("4197207", "The answer is 4197208.", False),  # off by one is wrong, however large
        ("1234567.89", "The answer is 1234568.89.", False),
        ("0.3", "The answer is 0.30000000000000004.", True),  # float rounding is not an error
        ("12", "The answer is 12 or 13.", False),  # two numbers in the statement
        ("12", "It takes 12 hours.", False),  # a number, but no statement
        ("Kelby Marsh", "The answer is KELBY  marsh.", True),  # case and spacing
        ("Vell", "The answer is the Vell (a river).", True),  # article, parenthesis
        ("Kelby Marsh", "The answer is Kelby Marsh Jr.", False),  # must equal, not contain
        ("Kelby Marsh", "Kelby Marsh founded it.", False),
    ],
)
def test_answer_matches_only_the_committed_statement(expected, message, matches):
    assert answer_matches(expected, message) is matches


@pytest.mark.parametrize("name", DOMAINS)
def test_every_tool_schema_derives_and_names_a_tool(name):
    toolkit = get_domain(name).toolkit
    schemas = toolkit.schemas()
    assert [s["function"]["name"] for s in schemas] == sorted(toolkit.specs())
    for schema in schemas:
        assert schema["function"]["description"].strip()
        params = schema["function"]["parameters"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        for prop in params["properties"].values():
            assert prop.get("description"), schema["function"]["name"]


@pytest.mark.slow
@pytest.mark.parametrize("name", DOMAINS)
def test_read_tools_never_change_the_state(name):
    domain = get_domain(name)
    specs = domain.toolkit.specs()
    read_calls = set()
    for index in INDEXES:
        task = build_task(domain, 0, index, 5).task
        kit = fresh_toolkit(domain, canonical_json(task.initial_state))
        for action in task.gold_actions:
            before = state_hash(kit.state)
            execute(kit, action["name"], action["arguments"], 5)
            if specs[action["name"]].kind is ToolKind.READ:
                assert state_hash(kit.state) == before, (name, action)
                read_calls.add((action["name"], json.dumps(action["arguments"], sort_keys=True)))
        # READ calls seen anywhere, replayed on this task's final state, change nothing either.
        for tool_name, arguments in sorted(read_calls)[:20]:
            before = state_hash(kit.state)
            execute(kit, tool_name, json.loads(arguments), 5)
            assert state_hash(kit.state) == before, (name, tool_name)


SCHEMAS_CHILD = """
import hashlib, json, sys
if sys.argv[1] == "torch":
    import torch  # noqa: F401
from toolscale.judge.metrics import tool_call_record
from toolscale.core.registry import get_domain, names
schemas = json.dumps([get_domain(n).toolkit.schemas() for n in sorted(names())])
print(json.dumps([hashlib.sha256(schemas.encode()).hexdigest(), "torch" in sys.modules]))
"""


def test_schemas_derive_without_importing_torch_and_equal_those_derived_with_it():
    # Sandbox workers derive schemas: importing torch there cost a second per worker start.
    def derive(preload: str) -> list:
        child = [sys.executable, "-c", SCHEMAS_CHILD, preload]
        return json.loads(subprocess.run(child, capture_output=True, check=True).stdout)

    without, with_torch = derive("none"), derive("torch")
    assert without[1] is False and with_torch[1] is True
    assert without[0] == with_torch[0]


def test_a_domain_added_through_toolscale_domains_joins_the_contract_tests():
    # tests/conftest.py adds the faulty fixture beside what TOOLSCALE_DOMAINS holds, not instead.
    from tests.fixtures.probes import registered

    collect = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(
        [*collect, __file__], capture_output=True, text=True, env=registered("probe"), timeout=120
    )
    assert result.returncode == 0, result.stdout
    ids = result.stdout.splitlines()
    for name in ("probe", "faulty", "railway"):
        assert any(i.endswith(f"test_read_tools_never_change_the_state[{name}]") for i in ids)
