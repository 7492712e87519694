"""Bad input to synthesize: one `error:` line, exit code 2, no request sent, nothing written."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.synthesis.scripted import SynthesisPlans
from tests.teachers.fake_openai import fake_openai
from toolscale.cli.main import app


@pytest.mark.parametrize(
    ("extra", "env", "message"),
    [
        (["--domains", "nowhere"], {"OPENAI_API_KEY": "k"}, "unknown domain 'nowhere'"),
        (["--domains", "math"], {"OPENAI_API_KEY": "k"}, "orchestration domain"),
        (["--solver-attempts", "0"], {"OPENAI_API_KEY": "k"}, "--solver-attempts must be"),
        (["--decontaminate", "/no/such/dir"], {"OPENAI_API_KEY": "k"}, "does not exist"),
        (["--decontaminate", "BADFILE"], {"OPENAI_API_KEY": "k"}, "cannot read"),
        ([], {"OPENAI_API_KEY": ""}, "OPENAI_API_KEY"),
        (["--teacher", "reference"], {"OPENAI_API_KEY": "k"}, "cannot propose tasks"),
        (["--num-tasks", "0"], {"OPENAI_API_KEY": "k"}, "--num-tasks must be"),
    ],
)
def test_bad_input_is_one_line_before_any_request(tmp_path, extra, env, message):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "tasks.json").write_text("{oops")
    extra = [str(bad) if e == "BADFILE" else e for e in extra]
    out = tmp_path / "out"
    plans = SynthesisPlans("railway", 0, ["read"])
    with fake_openai(plans) as server:
        args = ["synthesize", "--base-url", server.base_url, "--model", "m", "--out", str(out)]
        result = CliRunner().invoke(app, [*args, *extra], env=env)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert plans.requests == 0
    assert not out.exists()


def test_a_run_config_file_supplies_options_and_is_checked_the_same_way(tmp_path):
    (tmp_path / "run.yaml").write_text("domains: railway\nsolver-attempts: 0\n")
    (tmp_path / "secret.yaml").write_text("api-key: sk-live\n")
    out = tmp_path / "out"
    base = ["synthesize", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--out", str(out)]
    result = CliRunner().invoke(
        app, [*base, "--config", str(tmp_path / "run.yaml")], env={"OPENAI_API_KEY": "k"}
    )
    assert result.exit_code == 2 and "--solver-attempts must be at least 1" in result.output
    result = CliRunner().invoke(
        app, [*base, "--config", str(tmp_path / "secret.yaml")], env={"OPENAI_API_KEY": "k"}
    )
    assert result.exit_code == 2 and "looks like a secret" in result.output
    assert not out.exists()
