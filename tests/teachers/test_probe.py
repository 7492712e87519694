"""Every endpoint of a run is asked once before any task: `generate` and `synthesize` against an
endpoint that does not answer (a port nobody listens on) are one `error:` line naming the role
and the URL, exit 2, and nothing written, where they once wrote a rejected row per task ("the
connection failed (5 tries)") and exited 0. A role with one answering URL among dead ones runs
(tests/teachers/test_endpoints.py); the probe is not counted in run.json."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tests.teachers.fake_openai import FakeOpenAI, Plans, gold_turns
from tests.teachers.test_endpoints import dead_url
from toolscale.cli.main import app

ENV = {"PROBE_KEY": "sk-test"}
FAST = ("--api-key-env", "PROBE_KEY", "--retry-base", "0.01", "--request-timeout", "2")


def one_error_line(output: str, *parts: str) -> str:
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith("error:"), output
    for part in parts:
        assert part in lines[0], (part, lines[0])
    return lines[0]


@pytest.mark.parametrize("command", ["generate", "synthesize"])
def test_a_teacher_endpoint_that_does_not_answer_is_one_line_and_writes_nothing(tmp_path, command):
    url = dead_url()
    out = tmp_path / "out"
    domain = "railway" if command == "synthesize" else "math"
    args = [command, "--teacher", "openai", "--base-url", url, "--model", "m", *FAST]
    args += ["--domains", domain, "--num-tasks", "3", "--out", str(out)]
    result = CliRunner().invoke(app, args, env=ENV)
    assert result.exit_code == 2, result.output
    role = "teacher" if command == "generate" else "proposer"
    one_error_line(result.output, f"{role}:", url, "does not answer", "--base-url")
    assert not out.exists()


def test_a_user_endpoint_that_does_not_answer_is_named_with_its_flags(tmp_path):
    url = dead_url()
    with FakeOpenAI(Plans(gold_turns("math", 1))) as server:
        args = ["generate", "--teacher", "openai", "--base-url", server.base_url, "--model", "m"]
        args += [*FAST, "--user-base-url", url, "--user-model", "u", "--domains", "railway"]
        result = CliRunner().invoke(
            app, [*args, "--num-tasks", "2", "--out", str(tmp_path)], env=ENV
        )
        assert (server.plans.probes, server.plans.requests) == (1, 0)  # the teacher's probe
    assert result.exit_code == 2, result.output
    one_error_line(result.output, "user:", url, "--user-base-url and --user-model")
    assert list(tmp_path.iterdir()) == []


def test_the_probe_is_sent_once_per_endpoint_and_not_counted_in_run_json(tmp_path):
    turns = gold_turns("math", 2)
    with FakeOpenAI(Plans(turns)) as server:
        args = ["generate", "--teacher", "openai", "--base-url", server.base_url, "--model", "m"]
        args += [*FAST, "--domains", "math", "--num-tasks", "2", "--out", str(tmp_path / "o")]
        result = CliRunner().invoke(app, args, env=ENV)
    assert result.exit_code == 0, result.output
    assert server.plans.probes == 1
    run = json.loads((tmp_path / "o" / "run.json").read_text())
    assert run["endpoints"]["teacher"]["sent"] == server.plans.requests > 0
