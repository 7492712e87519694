"""`generate --teacher openai` end to end against a loopback server that injects every fault:
nothing is lost or duplicated, faults are counted by kind, the cache makes a rerun free, the budget
stops cleanly and resumably, and K attempts give pass@k."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.teachers.fake_openai import FakeOpenAI, Plans, gold_turns, planned
from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate

pytestmark = pytest.mark.slow
KEY_ENV = "TOOLSCALE_TEST_KEY"
FAULTS = [
    "",
    "429",
    "500",
    "503",
    "hang",
    "drop",
    "malformed_once",
    "malformed",
    "unknown_tool",
    "wrong_types",
    "unparsable",
    "hermes",
    "bare_json",
]
# What each task ends as: verified, or rejected at this stage.
EXPECTED = {
    "malformed": "teacher",
    "unknown_tool": "format",
    "wrong_types": "format",
    "unparsable": "format",
}


def rows(out: Path, config: str) -> list[dict]:
    found = sorted((out / "data" / config).glob("*.parquet"))
    return [r for p in found for r in pq.read_table(p).to_pylist()]


def config_for(server: FakeOpenAI, out: Path, num_tasks: int, **extra) -> GenerateConfig:
    return GenerateConfig(
        domains=["math"],
        num_tasks=num_tasks,
        out=out,
        teacher="openai",
        base_url=server.base_url,
        model="fake-model",
        api_key_env=KEY_ENV,
        chunk_size=5,
        request_timeout_s=2.0,  # well below the fake hang (5 s), well above a reply under load
        max_retries=2,
        retry_base_s=0.01,
        **extra,
    )


@pytest.fixture(scope="module")
def faulty_run(tmp_path_factory):
    turns = gold_turns("math", len(FAULTS))
    plans = Plans(turns, dict(zip(turns, FAULTS, strict=True)))
    plans.retry_after_s = 0.05
    out = tmp_path_factory.mktemp("openai") / "out"
    with pytest.MonkeyPatch.context() as patch, FakeOpenAI(plans) as server:
        patch.setenv(KEY_ENV, "sk-test")
        summary = generate(config_for(server, out, len(FAULTS)))
        first_requests = plans.requests
        again = generate(
            config_for(
                server, out.parent / "again", len(FAULTS), cache_dir=out / ".toolscale/cache"
            )
        )
        yield out, summary, first_requests, plans.requests, again, turns


def test_every_task_ends_as_exactly_one_row_at_the_expected_stage(faulty_run):
    out, summary, *_, turns = faulty_run
    tasks = {r["id"]: r for r in rows(out, "tasks")}
    ended = rows(out, "traces") + rows(out, "rejected")
    assert len(tasks) == len(FAULTS) and len(ended) == len(FAULTS)
    assert sorted(r["task_id"] for r in ended) == sorted(tasks)  # none lost, none twice
    fault_of = dict(zip(turns, FAULTS, strict=True))
    for row in ended:
        fault = fault_of[planned(fault_of, tasks[row["task_id"]]["instruction"])]
        assert row["failure_stage"] == EXPECTED.get(fault), (fault, row["failure_reasons"])
    assert summary["status"] == "complete"
    assert summary["counts"]["verified"] == len(FAULTS) - len(EXPECTED)


def test_run_json_counts_retries_faults_and_model_mistakes_by_kind(faulty_run):
    _, summary, first_requests, *_ = faulty_run
    teacher = summary["endpoints"]["teacher"]
    assert teacher["faults"] == {
        "connection": 1,
        "http_429": 1,
        "http_500": 1,
        "http_503": 1,
        "malformed": 4,  # malformed_once: 1; malformed: 3 tries
        "timeout": 1,
    }
    assert teacher["failed"] == {"malformed": 1}
    assert teacher["sent"] == first_requests
    assert teacher["retries"] == 8  # 5 transport faults + 1 + 2 malformed re-sends
    assert summary["attempts"]["model_errors"] == {
        "invalid_arguments": 1,
        "unknown_tool": 1,
        "unparsable_arguments": 1,
    }
    on_disk = json.loads((faulty_run[0] / "run.json").read_text())
    assert on_disk["endpoints"] == summary["endpoints"]
    assert on_disk["config"]["model"] == "fake-model"


def test_text_embedded_calls_are_recorded_as_structured_calls(faulty_run):
    out, *_, turns = faulty_run
    tasks = {r["id"]: planned(turns, r["instruction"]) for r in rows(out, "tasks")}
    hermes = next(t for t in rows(out, "traces") if tasks[t["task_id"]] == list(turns)[11])
    first_call = next(m for m in hermes["messages"] if m["tool_calls"])
    assert first_call["content"] == "Let me check."
    assert first_call["tool_calls"][0]["id"] == "call_0"


def test_a_rerun_over_the_cache_resends_only_what_failed_and_gives_the_same_rows(faulty_run):
    out, _, first_requests, after_rerun, again, _ = faulty_run
    # Only the request that failed for good (3 malformed tries) is not cached, so it is tried
    # again; every answered request comes from the cache.
    assert after_rerun - first_requests == 3
    assert again["endpoints"]["teacher"]["sent"] == 3
    assert again["endpoints"]["teacher"]["failed"] == {"malformed": 1}
    key = lambda r: (r["id"], r["teacher_prompt_tokens"], r["verified"])  # noqa: E731
    assert sorted(map(key, rows(out.parent / "again", "traces"))) == sorted(
        map(key, rows(out, "traces"))
    )


def test_the_budget_stops_cleanly_and_a_resume_finishes_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    turns = gold_turns("math", 6)
    with FakeOpenAI(Plans(turns)) as server:
        priced = {"teacher_price_in": 1.0, "teacher_price_out": 1.0, "concurrency": 1}
        config = config_for(server, tmp_path / "out", 6, max_cost_usd=0.002, **priced)
        stopped = generate(config)
        assert stopped["status"] == "budget_exhausted"
        assert stopped["counts"]["sampled"] < 6
        sent_before = server.plans.requests
        done = generate(replace(config, max_cost_usd=None, resume=True))
    assert done["status"] == "complete" and done["counts"]["sampled"] == 6
    assert done["endpoints"]["teacher"]["cached"] >= 1  # the stopped chunk's answers were reused
    assert sorted(r["task_id"] for r in rows(tmp_path / "out", "traces")) == sorted(
        r["id"] for r in rows(tmp_path / "out", "tasks")
    )
    assert server.plans.requests - sent_before == done["endpoints"]["teacher"]["sent"]


def test_k_attempts_give_pass_at_k_and_the_solvable_band(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    turns = gold_turns("math", 4)
    # Two tasks answer wrongly on the second of three identical first requests: 2 passes of 3.
    faults = dict(zip(turns, ["flaky", "flaky", "", ""], strict=True))
    with FakeOpenAI(Plans(turns, faults)) as server:
        summary = generate(config_for(server, tmp_path / "out", 4, attempts=3))
        # A rerun over the cache sends zero requests; the three attempts are three entries.
        sent = server.plans.requests
        cache = tmp_path / "out/.toolscale/cache"
        rerun = generate(config_for(server, tmp_path / "again", 4, attempts=3, cache_dir=cache))
        assert server.plans.requests == sent
    report = summary["attempts"]
    assert report["passes_histogram"] == {"2/3": 2, "3/3": 2}
    assert report["solvable_not_trivial"] == 2
    assert report["pass_at_k"] == {"1": round((2 / 3 + 2 / 3 + 1 + 1) / 4, 6), "2": 1.0, "3": 1.0}
    assert len(rows(tmp_path / "out", "traces")) + len(rows(tmp_path / "out", "rejected")) == 12
    assert summary["config"]["temperature"] == 1.0
    assert rerun["attempts"] == report
    assert rerun["endpoints"]["teacher"]["cached"] == summary["endpoints"]["teacher"]["requests"]
