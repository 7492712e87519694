"""Synthesize over several endpoints of one model: the proposer's and solver's requests are
spread over every `--base-url` and the accepted tasks are those of a one-URL run; a dead endpoint
(also listed in a run config file) loses no task and run.json reports it dropped; a URL given
twice is one `error:` line, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.synthesis.scripted import SynthesisPlans, mix
from tests.synthesis.test_synthesize import rows
from tests.teachers.fake_openai import fake_openai
from tests.teachers.test_endpoints import dead_url
from toolscale.cli.main import app

pytestmark = pytest.mark.slow  # ~10 s per synthesize run

DOMAIN = "railway"
CASES = mix(DOMAIN, 3, ("write", "read"))


def synthesize(out: Path, *extra: str):
    args = ["synthesize", "--domains", DOMAIN, "--model", "fake", "--num-tasks", str(len(CASES))]
    args += ["--solver-attempts", "2", "--retry-base", "0.01", "--out", str(out), *extra]
    args += ["--user", "scripted"]  # the scripted solver turns answer the scripted user
    return CliRunner().invoke(app, args, env={"OPENAI_API_KEY": "sk-test"})


def urls(*servers: str) -> list[str]:
    return [arg for url in servers for arg in ("--base-url", url)]


@pytest.fixture(scope="module")
def one_url_tasks(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("one") / "out"
    with fake_openai(SynthesisPlans(DOMAIN, 0, CASES)) as server:
        result = synthesize(out, *urls(server.base_url))
    assert result.exit_code == 0, result.output
    tasks = rows(out, "tasks")
    assert tasks
    return tasks


def test_two_urls_share_the_requests_and_accept_the_same_tasks(tmp_path, one_url_tasks):
    plans = SynthesisPlans(DOMAIN, 0, CASES)  # one script behind both servers
    with fake_openai(plans) as a, fake_openai(plans) as b:
        result = synthesize(tmp_path / "out", *urls(a.base_url, b.base_url))
    assert result.exit_code == 0, result.output
    assert rows(tmp_path / "out", "tasks") == one_url_tasks
    summary = json.loads((tmp_path / "out" / "run.json").read_text())
    assert summary["config"]["base_url"] == [a.base_url, b.base_url]
    for role in ("proposer", "solver"):
        by_url = summary["endpoints"][role]["by_url"]
        assert set(by_url) == {a.base_url, b.base_url}
        assert all(entry["requests"] > 0 for entry in by_url.values()), (role, by_url)
        total = summary["endpoints"][role]["requests"]
        assert total == sum(entry["requests"] for entry in by_url.values())


def test_a_dead_url_in_a_run_config_loses_no_task_and_is_reported_dropped(tmp_path, one_url_tasks):
    dead = dead_url()
    with fake_openai(SynthesisPlans(DOMAIN, 0, CASES)) as good:
        config = tmp_path / "run.yaml"
        config.write_text(f"base-url:\n  - {dead}\n  - {good.base_url}\nendpoint-max-failures: 1\n")
        result = synthesize(tmp_path / "out", "--config", str(config), "--max-retries", "0")
    assert result.exit_code == 0, result.output
    assert rows(tmp_path / "out", "tasks") == one_url_tasks
    summary = json.loads((tmp_path / "out" / "run.json").read_text())
    assert summary["config"]["base_url"] == [dead, good.base_url]
    assert summary["config"]["endpoint_max_failures"] == 1
    for role in ("proposer", "solver"):
        report = summary["endpoints"][role]
        # Each pool sends its first request to the first URL: refused, dropped, sent elsewhere.
        assert report["by_url"][dead]["dropped"] == 1 and report["by_url"][dead]["active"] == 0
        assert report["by_url"][dead]["dropped_because"], report["by_url"][dead]
        assert report["by_url"][good.base_url]["dropped"] == 0 and report["rerouted"] >= 1


@pytest.mark.parametrize(
    ("second", "message"),
    [(None, "is given twice"), ("host:80", "'host:80' is not an http(s) URL")],
)
def test_a_bad_base_url_is_one_line_before_any_request(tmp_path, second, message):
    plans = SynthesisPlans(DOMAIN, 0, CASES)
    with fake_openai(plans) as server:
        result = synthesize(tmp_path / "out", *urls(server.base_url, second or server.base_url))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert plans.requests == 0
    assert not (tmp_path / "out").exists()
