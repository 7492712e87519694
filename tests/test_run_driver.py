"""The run driver's per-command spec (`toolscale.pipeline.driver.Command`): every command refuses
to resume an OUT another command wrote (one `error:` line, exit 2, nothing written) or a run
with other options; run.json holds the head and only the sections a command declares; a stopped
run ends the same way for every command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_shard_merge import one_error_line
from toolscale.config.generate import GenerateConfig
from toolscale.config.synthesize import SynthesizeConfig
from toolscale.core.errors import ConfigError
from toolscale.domaingen.config import DomainGenConfig
from toolscale.domaingen.domain_synthesis import SYNTHESIZE_DOMAIN_COMMAND
from toolscale.pipeline.chunk import CODE_KEY
from toolscale.pipeline.driver import HEAD, BudgetStop, written_by
from toolscale.pipeline.generate import GENERATE_COMMAND, generate
from toolscale.synthesize.synthesis import SYNTHESIZE_COMMAND
from toolscale.write.output import Output, write_json

COMMANDS = (GENERATE_COMMAND, SYNTHESIZE_COMMAND, SYNTHESIZE_DOMAIN_COMMAND)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """A finished generate output (two math tasks, the reference teacher)."""
    out = tmp_path_factory.mktemp("generated") / "out"
    generate(GenerateConfig(domains=["math"], num_tasks=2, out=out))
    return out


def synthesized(out: Path) -> Path:
    """An output folder whose run.json a synthesize run wrote (its head, as it writes it)."""
    Output(out).prepare(False)
    config = SynthesizeConfig(domains=["railway"], num_tasks=4, out=out)
    write_json(out / "run.json", SYNTHESIZE_COMMAND.run_json(config, "complete"))
    return out


def test_generate_refuses_to_resume_a_synthesize_output_and_writes_nothing(tmp_path):
    out = synthesized(tmp_path / "out")
    before = files(out)
    result = cli("generate", "--domains", "math", "--num-tasks", "2", "--out", str(out), "--resume")
    one_error_line(result, str(out), "holds a synthesize output, not a generate one")
    assert files(out) == before


def test_synthesize_refuses_to_resume_a_generate_output_before_any_request(generated):
    before = files(generated)
    # No server listens on port 9: a probe would fail with another message.
    result = cli(
        "synthesize", "--domains", "railway", "--out", str(generated), "--resume",
        "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
    )  # fmt: skip
    one_error_line(result, "holds a generate output, not a synthesize one")
    assert files(generated) == before


def test_synthesize_domain_refuses_a_synthesize_output(tmp_path):
    out = synthesized(tmp_path / "out")
    config = DomainGenConfig(topics=("dental clinic",), out=out, resume=True)
    with pytest.raises(ConfigError, match="holds a synthesize output, not a synthesize-domain"):
        SYNTHESIZE_DOMAIN_COMMAND.check_same_run(Output(out), config)


def test_a_resume_with_another_resume_key_is_refused_and_the_same_options_pass(generated):
    same = GenerateConfig(domains=["math"], num_tasks=2, out=generated, resume=True)
    GENERATE_COMMAND.check_same_run(Output(generated), same)  # the run that wrote it
    other = GenerateConfig(domains=["math"], num_tasks=2, out=generated, resume=True, seed=1)
    with pytest.raises(ConfigError, match="was written by generate with seed=0, not 1"):
        GENERATE_COMMAND.check_same_run(Output(generated), other)


def test_a_resume_its_chunk_checks_refuse_leaves_out_as_it_was(generated, tmp_path):
    """generate's own checks of a resumed OUT (here: a chunk made by other code of its domain)
    run inside `open_output`, before OUT's probe file or anything else is written."""
    out = tmp_path / "out"
    shutil.copytree(generated, out)
    marker = next((out / ".toolscale" / "chunks").glob("*.json"))
    marker.write_text(json.dumps({**json.loads(marker.read_text()), CODE_KEY: "other"}))
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    config = GenerateConfig(domains=["math"], num_tasks=2, out=out, resume=True)
    with pytest.raises(ConfigError, match="changed since"):
        generate(config)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


def test_an_unreadable_run_json_is_one_error(tmp_path):
    out = synthesized(tmp_path / "out")
    (out / "run.json").write_text("{not json")
    config = SynthesizeConfig(domains=["railway"], num_tasks=4, out=out, resume=True)
    with pytest.raises(ConfigError, match=r"run\.json cannot be read"):
        SYNTHESIZE_COMMAND.check_same_run(Output(out), config)


def test_generate_run_json_holds_the_head_and_only_declared_sections(generated):
    run = json.loads((generated / "run.json").read_text())
    assert written_by(run) == "generate" and "command" not in run
    assert {"status", "config", "isolation", "versions"} <= set(run)
    assert set(run) - set(HEAD) <= set(GENERATE_COMMAND.sections)
    assert {"counts", "attempts", "endpoints"} <= set(run)


def test_run_json_refuses_a_section_the_command_does_not_declare(tmp_path):
    config = SynthesizeConfig(domains=["railway"], num_tasks=4, out=tmp_path)
    head = SYNTHESIZE_COMMAND.run_json(config, "running")
    assert head["command"] == "synthesize" and head["status"] == "running"
    with pytest.raises(ValueError, match=r"declares no run\.json section counts"):
        SYNTHESIZE_DOMAIN_COMMAND.run_json(DomainGenConfig(out=tmp_path), "done", {"counts": {}})


def test_each_commands_resume_keys_are_in_its_resolved_config(tmp_path):
    configs = (
        GenerateConfig(domains=["math"], num_tasks=2, out=tmp_path),
        SynthesizeConfig(domains=["railway"], num_tasks=4, out=tmp_path),
        DomainGenConfig(out=tmp_path),
    )
    for command, config in zip(COMMANDS, configs, strict=True):
        missing = set(command.resume_keys) - set(config.resolved())
        assert not missing, (command.name, missing)
    assert len({c.name for c in COMMANDS}) == 3


def test_a_stopped_run_ends_the_same_way_for_every_command():
    done = {"status": "complete"}
    assert SYNTHESIZE_COMMAND.end(done) is done
    budget = {"status": "budget_exhausted", "stop_reason": "spent $1.00 of --max-cost-usd 1"}
    with pytest.raises(BudgetStop) as stopped:
        SYNTHESIZE_DOMAIN_COMMAND.end(budget)
    assert stopped.value.summary is budget
    with pytest.raises(ConfigError) as refused:
        GENERATE_COMMAND.end({"status": "stopped", "stop_reason": "the endpoint refused"})
    assert str(refused.value) == (
        "the endpoint refused; finished chunks are kept; fix it and run generate --resume"
    )
    assert SYNTHESIZE_COMMAND.budget_line("spent") == (
        "stopped: spent; continue with --resume and a higher --max-cost-usd "
        "(cached requests cost nothing)"
    )
    assert "finished topics are kept; continue" in SYNTHESIZE_DOMAIN_COMMAND.budget_line("x")
