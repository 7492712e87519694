"""`toolscale generate` fails loudly on domain bugs: each broken probe domain (registered through
TOOLSCALE_DOMAINS) ends in one `error:` line naming the bug and a non-zero exit, with the first
errors and a traceback printed and kept in run.json; what was written stays valid, and a fixed
domain fills its chunks in on --resume. A model-caused ToolError stays data."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.fixtures.probes import FIXED, registered

pytestmark = pytest.mark.slow


def generate(
    domain: str, out: Path, *args: str, fixed: bool = False
) -> subprocess.CompletedProcess[str]:
    env = registered(domain)
    if fixed:
        env[FIXED] = "1"
    command = ["generate", "--domains", domain, "--num-tasks", "8", "--out", str(out), *args]
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *command],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def error_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


def rows(out: Path, config: str) -> list[dict]:
    shards = sorted((out / "data" / config).glob("*.parquet"))
    return [r for p in shards for r in pq.read_table(p).to_pylist()]


@pytest.mark.parametrize(
    ("probe", "stage", "words"),
    [
        (
            "probe_sampler",
            "sample",
            (
                "domain 'probe_sampler' yielded no task: all 8 samples failed",
                "ValueError: the probe sampler is broken on purpose",
            ),
        ),
        (
            "probe_gold",
            "gold",
            ("yielded no task", "gold action add failed: Error: amount must be at least 1"),
        ),
        (
            "probe_read",
            "gold",
            ("yielded no task", "READ tool read changed the state"),
        ),
    ],
)
def test_a_domain_whose_samples_all_fail_exits_1_naming_the_bug(tmp_path, probe, stage, words):
    result = generate(probe, tmp_path / "out")
    assert result.returncode == 1, result.stderr
    (line,) = error_lines(result)
    assert line == result.stderr.splitlines()[-1]
    for word in (*words, f"toolscale check-domain {probe}", "generate --resume"):
        assert word in line, line
    assert f"{probe} task 0 ({stage}):" in result.stderr  # the first errors, one line each
    assert "Traceback (most recent call last)" in result.stderr
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["status"] == "failed" and run["sample_failures"] == 8
    assert run["failures"] == [line.removeprefix("error: ")]
    assert [e["index"] for e in run["errors"]] == [0, 1, 2, 3, 4]  # the first five are kept
    assert {e["stage"] for e in run["errors"]} == {stage}
    assert all(e["traceback"].startswith("Traceback") for e in run["errors"])


def test_a_crashed_tool_call_fails_the_run_and_is_never_rejected_data(tmp_path):
    out = tmp_path / "out"
    result = generate("probe_crash", out, "--detours")
    assert result.returncode == 1, result.stderr
    (line,) = error_lines(result)
    assert line.startswith("error: 8 tool calls crashed (first: probe_crash task 0 (tool): tool ")
    assert "a crash is a bug in the tool, never training data" in line
    # The tool's own traceback, not the pipeline's.
    assert 'self.state["countr"] += amount' in result.stderr
    assert "KeyError: 'countr'" in result.stderr
    run = json.loads((out / "run.json").read_text())
    assert run["tool_crashes"] == 8 and run["errors"][0]["stage"] == "tool"
    assert "KeyError: 'countr'" in run["errors"][0]["traceback"]
    # Crashed attempts are in neither config; the others are written and counted as usual.
    written = rows(out, "traces") + rows(out, "rejected")
    assert written and all(
        call["name"] != "add_checked" for row in written for call in row["tool_calls"]
    )
    assert run["counts"]["attempts"] == len(written)
    assert "execution" not in run["rejected_by_stage"]
    # What was written stays valid.
    check = [sys.executable, "-m", "toolscale", "validate", str(out)]
    valid = subprocess.run(check, capture_output=True, text=True, env=registered("probe_crash"))
    assert valid.returncode == 0 and f"{len(written) + 8} rows valid" in valid.stderr
    # The reward check plays the same routes: it refuses rather than tabulate fewer rows.
    check = [sys.executable, "-m", "toolscale", "check-rewards", str(out), "--tasks", "2"]
    gaming = subprocess.run(check, capture_output=True, text=True, env=registered("probe_crash"))
    assert gaming.returncode == 2
    assert gaming.stderr.startswith("error: ")
    assert "domain errors, the first: probe_crash task 0" in gaming.stderr


def test_a_model_caused_tool_error_stays_data(tmp_path):
    # The sound probe's alternative route first makes a call its tool refuses (a ToolError).
    out = tmp_path / "out"
    result = generate("probe", out, "--detours")
    assert result.returncode == 0, result.stderr
    refused = [
        call
        for row in rows(out, "traces")
        for call in row["tool_calls"]
        if call["status"] == "error"
    ]
    assert len(refused) == 8 and refused[0]["output"] == "Error: amount must be at least 1"
    assert json.loads((out / "run.json").read_text())["errors"] == []


def test_a_tool_without_an_args_entry_is_refused_before_anything_is_written(tmp_path):
    result = generate("probe_args", tmp_path / "out")
    assert result.returncode == 2
    assert result.stderr.splitlines() == error_lines(result)  # one line, no traceback
    (line,) = error_lines(result)
    assert "domain 'probe_args': tool ArgsTools.add:" in line
    assert "no description for the argument 'amount'" in line
    assert "toolscale check-domain probe_args" in line
    assert not (tmp_path / "out").exists()


def test_the_failure_share_is_a_stated_threshold(tmp_path):
    # probe_flaky fails every fourth task: 2 of 8.
    result = generate("probe_flaky", tmp_path / "strict")
    assert result.returncode == 1
    (line,) = error_lines(result)
    assert line.startswith(
        "error: 2 of 8 samples failed, more than --max-sample-failure-share 0.1 (in probe_flaky)"
    )
    lenient = generate("probe_flaky", tmp_path / "lenient", "--max-sample-failure-share", "0.3")
    assert lenient.returncode == 0, lenient.stderr
    assert "probe_flaky task 4 (sample): ValueError: the probe sampler fails task 4" in (
        lenient.stderr
    )
    run = json.loads((tmp_path / "lenient" / "run.json").read_text())
    assert run["status"] == "complete" and run["counts"]["sampled"] == 6
    assert [(e["index"], e["stage"]) for e in run["errors"]] == [(0, "sample"), (4, "sample")]
    bad = generate("probe_flaky", tmp_path / "bad", "--max-sample-failure-share", "1.5")
    assert error_lines(bad) == [
        "error: --max-sample-failure-share must be between 0 and 1 (got 1.5)"
    ]


def test_resume_after_fixing_the_domain_gives_the_rows_of_a_clean_run(tmp_path):
    out = tmp_path / "out"
    assert generate("probe_sampler", out, "--chunk-size", "4").returncode == 1
    resumed = generate("probe_sampler", out, "--chunk-size", "4", "--resume", fixed=True)
    assert resumed.returncode == 0, resumed.stderr
    clean = generate("probe_sampler", tmp_path / "clean", "--chunk-size", "4", fixed=True)
    assert clean.returncode == 0
    for config in ("tasks", "traces", "rejected"):
        key = lambda r: r["id"]  # noqa: E731
        assert sorted(rows(out, config), key=key) == sorted(
            rows(tmp_path / "clean", config), key=key
        )
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "complete" and run["errors"] == [] and run["counts"]["sampled"] == 8
