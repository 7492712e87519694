"""The NL-assertion judge: its reply is parsed strictly, a met assertion verifies, an unmet one
rejects the attempt naming it, a malformed reply or a failed request is a judge failure (neither
met nor unmet), only tasks whose reward basis holds NL_ASSERTION are judged, and run.json and the
card say which checks were applied, with a judge and without."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from tests.tau2.conftest import needs_tau2
from tests.teachers.fake_openai import FakeOpenAI, Plans
from tests.test_cli_errors import assert_one_line_error, cli
from toolscale.core.records import FunctionCall, Message
from toolscale.tau2.nl_assertions import JudgeFailure, judge_verdict, parse_reply, transcript

KEY_ENV = "TOOLSCALE_TEST_JUDGE_KEY"
CONFIRMED = "The agent confirmed the task was created"
TITLE = "The agent repeated the task's title"
DISCOUNT = "The agent offered a discount"
GREETED = "The agent greeted the user by name"
POLITE = "The agent was polite"  # the judge endpoint answers 500 for it
UNJUDGED = "The agent said goodbye"  # in a task whose reward basis lacks NL_ASSERTION
# What the fake judge answers when the request holds the assertion.
REPLIES = {
    # Both of the "met" task's assertions, out of order: matched by id, not by position.
    CONFIRMED: json.dumps(
        {
            "results": [
                {"id": 2, "met": True, "reason": "it says the title"},
                {"id": 1, "met": True, "reason": "it confirms"},
            ]
        }
    ),
    DISCOUNT: '```json\n{"results": [{"id": 1, "met": false, "reason": "no discount"}]}\n```',
    GREETED: "Yes, the agent greeted the user.",
}


def test_a_reply_is_read_by_assertion_number():
    reply = '{"results": [{"id": 2, "met": false, "reason": "b"}, {"id": 1, "met": true}]}'
    assert parse_reply(reply, 2) == [(True, ""), (False, "b")]
    fenced = '```json\n{"results": [{"id": 1, "met": true, "reason": "a"}]}\n```'
    assert parse_reply(fenced, 1) == [(True, "a")]


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("The agent did it.", "not a JSON object"),
        ('[{"id": 1, "met": true}]', 'no "results" list'),
        ('{"results": []}', "assertions not judged: 1"),  # tau2 would count this as met
        ('{"results": [{"id": 1, "met": "yes"}]}', "not true or false"),
        ('{"results": [{"id": 1, "met": 1}]}', "not true or false"),
        ('{"results": [{"id": 1, "met": true}, {"id": 1, "met": true}]}', "judged twice"),
        ('{"results": [{"id": 2, "met": true}]}', "names no assertion 1..1"),
        ('{"results": [{"id": true, "met": true}]}', "names no assertion"),
        ('{"results": [{"id": 1, "met": true, "reason": 3}]}', "not a string"),
    ],
)
def test_any_other_reply_is_a_judge_failure(reply: str, problem: str):
    with pytest.raises(JudgeFailure, match=problem):
        parse_reply(reply, 1)


def test_the_judge_reads_the_conversation_without_the_system_prompt():
    messages = [
        Message(role="system", content="POLICY"),
        Message(role="user", content="Create it."),
        Message(
            role="assistant",
            content="",
            tool_calls=[FunctionCall(id="c", name="t", arguments='{"a": 1}')],
        ),
        Message(role="tool", content="done", tool_call_id="c", name="t"),
        Message(role="assistant", content="Created."),
    ]
    assert transcript(messages) == (
        'customer: Create it.\nagent calls t {"a": 1}\nresult of t: done\nagent: Created.'
    )


def test_only_the_judges_verdicts_are_taken_as_the_judges():
    unmet = "nl_assertion not met: 'x' (judge m: no)"
    assert judge_verdict("judge", ["the NL-assertion judge failed (m): ..."])
    assert judge_verdict("outcome", [unmet])
    assert not judge_verdict(
        "outcome", [unmet, "the final state differs from the gold final state"]
    )
    assert not judge_verdict("outcome", [])
    assert not judge_verdict(None, [])


def test_judge_url_without_a_model_is_one_error_line(tmp_path: Path):
    result = cli(
        "generate", "--judge-base-url", "http://localhost:1/v1", "--out", str(tmp_path / "o")
    )
    assert_one_line_error(result, "--judge-base-url needs --judge-model")
    assert not (tmp_path / "o").exists()


class JudgePlans(Plans):
    """Answers each judge request with REPLIES' text for the assertion it holds."""

    def __init__(self) -> None:
        super().__init__({})

    def reply(self, body: dict[str, Any], authorization: str = "") -> tuple[str, Any]:
        ask = body["messages"][-1]["content"]
        if POLITE in ask:
            return "raw", (500, {}, '{"error": {"message": "down"}}')
        text = next(reply for assertion, reply in REPLIES.items() if assertion in ask)
        message = {"role": "assistant", "content": text}
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        return "json", {"choices": [{"index": 0, "message": message}], "usage": usage}


def tau2_task(task_id: str, assertions: list[str], basis: list[str]) -> dict[str, Any]:
    return {
        "id": task_id,
        "user_scenario": {
            "instructions": {
                "domain": "mock",
                "reason_for_call": f"You want a task called '{task_id}' for user_1.",
                "known_info": "Your user id is user_1.",
            }
        },
        "evaluation_criteria": {
            "actions": [
                {"name": "create_task", "arguments": {"user_id": "user_1", "title": task_id}}
            ],
            "nl_assertions": assertions,
            "reward_basis": basis,
        },
    }


@pytest.fixture
def mock_tasks(tmp_path: Path) -> str:
    """tau2's mock domain with five tasks: four judged (met, unmet, a malformed reply, a failed
    request), one with assertions that its reward basis leaves out."""
    tasks = [
        tau2_task("met", [CONFIRMED, TITLE], ["DB", "NL_ASSERTION"]),
        tau2_task("unmet", [DISCOUNT], ["DB", "COMMUNICATE", "NL_ASSERTION"]),
        tau2_task("malformed", [GREETED], ["DB", "NL_ASSERTION"]),
        tau2_task("unanswered", [POLITE], ["DB", "NL_ASSERTION"]),
        tau2_task("unjudged", [UNJUDGED], ["DB"]),
    ]
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps(tasks))
    return f"tau2:mock?tasks={path}"


def rows(out: Path, config: str) -> dict[str, dict[str, Any]]:
    """task template -> row, for the traces or rejected config."""
    tasks = {
        r["id"]: r["template"]
        for p in (out / "data" / "tasks").glob("*.parquet")
        for r in pq.read_table(p).to_pylist()
    }
    return {
        tasks[r["task_id"]]: r
        for p in (out / "data" / config).glob("*.parquet")
        for r in pq.read_table(p).to_pylist()
    }


@needs_tau2
@pytest.mark.slow
def test_a_configured_judge_decides_the_judged_tasks(
    tmp_path: Path, mock_tasks: str, monkeypatch: pytest.MonkeyPatch
):
    from toolscale.config.generate import GenerateConfig
    from toolscale.pipeline.generate import generate
    from toolscale.publish.validate import validate_output

    monkeypatch.setenv(KEY_ENV, "k")
    out = tmp_path / "out"
    plans = JudgePlans()
    with FakeOpenAI(plans) as server:
        config = GenerateConfig(
            domains=[mock_tasks],
            num_tasks=5,
            out=out,
            workers=1,
            judge_base_url=server.base_url,
            judge_model="fake-judge",
            judge_api_key_env=KEY_ENV,
            max_retries=0,
        )
        summary = generate(config)

    assert sorted(rows(out, "traces")) == ["met", "unjudged"]
    rejected = rows(out, "rejected")
    assert sorted(rejected) == ["malformed", "unanswered", "unmet"]
    assert rejected["unmet"]["failure_stage"] == "outcome"
    assert rejected["unmet"]["failure_reasons"] == [
        f"nl_assertion not met: {DISCOUNT!r} (judge fake-judge: no discount)"
    ]
    assert rejected["malformed"]["failure_stage"] == "judge"
    (reason,) = rejected["malformed"]["failure_reasons"]
    assert reason.startswith(
        "the NL-assertion judge failed (fake-judge): malformed reply (the reply is not a JSON "
        "object): Yes, the agent"
    )
    assert rejected["unanswered"]["failure_stage"] == "judge"
    (reason,) = rejected["unanswered"]["failure_reasons"]
    assert reason.startswith("the NL-assertion judge failed (fake-judge): fake-judge: HTTP 500")
    assert summary["rejected_by_stage"] == {"judge": 2, "outcome": 1}
    # One request per judged task, none for the task whose basis leaves NL_ASSERTION out.
    assert len(plans.bodies) == 4
    assert {b["model"] for b in plans.bodies} == {"fake-judge"}
    assert all(b["temperature"] == 0.0 for b in plans.bodies)
    assert not any("Mock Domain Policy" in json.dumps(b) for b in plans.bodies)
    assert summary["endpoints"]["judge"]["requests"] == 4
    checks = summary["tau2"][mock_tasks]
    assert checks["applied"] == ["DB", "COMMUNICATE", "NL_ASSERTION"]
    assert checks["not_applied"] == {}
    judged = ["met", "unmet", "malformed", "unanswered"]
    assert checks["judge"] == {"model": "fake-judge", "tasks": judged}
    card = (out / "README.md").read_text()
    assert "NL_ASSERTION by the LLM judge `fake-judge` on 4 tasks" in card
    # validate cannot ask the judge again, but re-checks every stage before it.
    assert validate_output(out, workers=1).problems == []


@needs_tau2
@pytest.mark.slow
def test_without_a_judge_the_judged_tasks_are_listed_as_not_judged(tmp_path: Path, mock_tasks: str):
    from toolscale.config.generate import GenerateConfig
    from toolscale.pipeline.generate import generate

    out = tmp_path / "out"
    summary = generate(GenerateConfig(domains=[mock_tasks], num_tasks=5, out=out, workers=1))
    assert sorted(rows(out, "traces")) == ["malformed", "met", "unanswered", "unjudged", "unmet"]
    checks = summary["tau2"][mock_tasks]
    assert checks["applied"] == ["DB", "COMMUNICATE"]
    assert checks["not_applied"] == {"NL_ASSERTION": ["met", "unmet", "malformed", "unanswered"]}
    assert "judge" not in summary["endpoints"]
    card = (out / "README.md").read_text()
    assert "NL_ASSERTION (an LLM judge) not applied to 4 tasks (met, unmet, malformed, " in card
