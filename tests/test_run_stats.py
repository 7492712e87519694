"""Run statistics: the funnel of one attempt, sums that do not depend on order, markers that
round-trip, errors kept per domain and stage, and run.json's report keys."""

from __future__ import annotations

import json

import pytest

from toolscale.core.records import DomainError
from toolscale.stats.attempts import attempt_report
from toolscale.stats.run_stats import ERRORS_KEPT, Funnel, PassCount, RunStats, sample_stage


@pytest.mark.parametrize(
    ("verified", "stage", "reached"),
    [
        (True, None, (1, 1, 1, 1)),
        (False, "outcome", (1, 1, 1, 0)),
        (False, "grounding", (1, 1, 0, 0)),
        (False, "execution", (1, 0, 0, 0)),
        (False, "format", (1, 0, 0, 0)),
        (False, "teacher", (1, 0, 0, 0)),  # the teacher failed before any attempt
    ],
)
def test_an_attempt_reaches_the_stages_before_the_one_it_failed(verified, stage, reached):
    funnel = Funnel.of_attempt(verified, stage)
    assert (funnel.attempts, funnel.executed, funnel.grounded, funnel.verified) == reached
    assert funnel.sampled == funnel.sample_failed == funnel.tool_crashes == 0


def error(domain: str, index: int, stage: str = "sample") -> DomainError:
    return DomainError(
        domain=domain, index=index, stage=stage, message=f"boom {index}", traceback="tb"
    )


CHUNK_A = RunStats(
    domains={"bank": Funnel(sampled=2, attempts=3, executed=3, grounded=3, verified=2)},
    rejected_by_stage={"outcome": 1},
    passes=(PassCount(verified=1, attempts=1, tasks=1), PassCount(verified=1, attempts=2, tasks=1)),
    model_errors={"unknown_tool": 1},
)
CHUNK_B = RunStats(
    domains={"bank": Funnel(sampled=1, sample_failed=1, attempts=1, executed=1, tool_crashes=2)},
    rejected_by_stage={"grounding": 1, "outcome": 2},
    passes=(PassCount(verified=1, attempts=1, tasks=4),),
    model_errors={"unknown_tool": 2, "invalid_arguments": 1},
    errors=(error("bank", 7, "tool"), error("bank", 3)),
)
CHUNK_C = RunStats(
    domains={"math": Funnel(sampled=5, attempts=5, executed=5, grounded=5, verified=5)},
    worker_restarts=1,
)


def test_sums_are_order_free_and_the_empty_record_adds_nothing():
    assert CHUNK_A + CHUNK_B == CHUNK_B + CHUNK_A
    assert (CHUNK_A + CHUNK_B) + CHUNK_C == CHUNK_A + (CHUNK_B + CHUNK_C)
    assert CHUNK_A + RunStats() == CHUNK_A
    assert RunStats.total([CHUNK_C, CHUNK_A, CHUNK_B]) == CHUNK_A + CHUNK_B + CHUNK_C


def test_the_sum_adds_every_count_by_key():
    total = CHUNK_A + CHUNK_B + CHUNK_C
    assert total.funnel("bank") == Funnel(
        sampled=3, sample_failed=1, attempts=4, executed=4, grounded=3, verified=2, tool_crashes=2
    )
    assert total.funnel().sampled == 8 and total.funnel().verified == 7
    assert total.rejected_by_stage == {"grounding": 1, "outcome": 3}
    assert total.passes == (
        PassCount(verified=1, attempts=1, tasks=5),
        PassCount(verified=1, attempts=2, tasks=1),
    )
    assert total.model_errors == {"invalid_arguments": 1, "unknown_tool": 3}
    assert total.worker_restarts == 1
    assert [(e.index, e.stage) for e in total.errors] == [(3, "sample"), (7, "tool")]


def test_a_marker_round_trips_through_json_and_an_older_one_is_not_read():
    total = CHUNK_A + CHUNK_B + CHUNK_C
    marker = json.loads(json.dumps(total.marker()))
    assert RunStats.from_marker(marker) == total
    # toolscale before typed statistics wrote string-keyed counts: that chunk is redone.
    assert RunStats.from_marker({"sampled": 5, "rejected:outcome": 1, "passes:1/1": 5}) is None
    assert RunStats.from_marker({"stats": {"domains": {"bank": {"sampled": "x"}}}}) is None
    assert RunStats.from_marker(None) is None


def test_the_first_errors_of_each_domain_and_stage_are_kept_whatever_the_order():
    chunks = [RunStats.sample_failure(error("bank", i)) for i in range(ERRORS_KEPT + 3)]
    chunks.append(RunStats.sample_failure(error("math", 40)))
    chunks.append(RunStats(errors=(error("bank", 90, "tool"),)))
    forward, backward = RunStats.total(chunks), RunStats.total(reversed(chunks))
    assert forward == backward
    assert [(e.domain, e.index, e.stage) for e in forward.errors] == [
        *(("bank", i, "sample") for i in range(ERRORS_KEPT)),
        ("bank", 90, "tool"),
        ("math", 40, "sample"),
    ]
    assert forward.funnel("bank").sample_failed == ERRORS_KEPT + 3  # counted, if not all kept


def test_report_keeps_run_json_keys_and_meanings():
    report = (CHUNK_A + CHUNK_B + CHUNK_C).report(["bank", "math", "railway"])
    assert report["counts"] == {
        "sampled": 8,
        "attempts": 9,
        "executed": 9,
        "grounded": 8,
        "verified": 7,
        "user_faults": 0,
    }
    assert report["per_domain"]["railway"] == dict.fromkeys(report["counts"], 0)
    assert report["per_domain"]["bank"]["sampled"] == 3
    assert report["rejected_by_stage"] == {"grounding": 1, "outcome": 3}
    assert (report["sample_failures"], report["tool_crashes"], report["worker_restarts"]) == (
        1,
        2,
        1,
    )
    assert report["errors"][0] == {
        "domain": "bank",
        "index": 3,
        "stage": "sample",
        "message": "boom 3",
        "traceback": "tb",
    }
    assert RunStats.model_validate(report["stats"]) == CHUNK_A + CHUNK_B + CHUNK_C


def test_attempt_report_reads_the_typed_pass_tally():
    # Tasks: 2 of 2 passed; 1 of 2; 0 of 2. pass@1 = (1 + 1/2 + 0) / 3, pass@2 = (1 + 1 + 0) / 3.
    passes = tuple(PassCount(verified=c, attempts=2, tasks=1) for c in (2, 1, 0))
    report = attempt_report(passes, {"unknown_tool": 2})
    assert report["pass_at_k"] == {"1": 0.5, "2": round(2 / 3, 6)}
    assert report["passes_histogram"] == {"0/2": 1, "1/2": 1, "2/2": 1}
    assert report["solvable_not_trivial"] == 1
    assert report["model_errors"] == {"unknown_tool": 2}
    assert attempt_report((), {}) == {}


def test_a_failed_sample_is_named_by_the_exception_the_worker_met():
    assert sample_stage("GoldError") == "gold"
    assert sample_stage("SchemaError") == "schema"
    assert sample_stage("KeyError") == "sample"
