"""Finding tau2 and refusing what cannot load, before tau2 is imported (no tau2 needed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolscale.core.errors import ConfigError
from toolscale.tau2 import source


def test_a_source_path_without_tau2_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(source.ENV, str(tmp_path))
    with pytest.raises(ConfigError, match="holds no tau2-bench source"):
        source.locate()


def test_the_layouts_of_a_checkout_are_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "src" / "tau2"
    (package / "environment").mkdir(parents=True)
    (package / "environment" / "toolkit.py").write_text("")
    for given in (tmp_path, tmp_path / "src", package):
        monkeypatch.setenv(source.ENV, str(given))
        assert source.locate() == package


def cli(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **env}
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def one_error_line(result: subprocess.CompletedProcess[str], says: str) -> None:
    assert result.returncode == 2, result.stderr + result.stdout
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert says in " ".join(lines[0].split()), lines[0]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "not_a_domain").mkdir()
    tasks = tmp_path / "tasks.json"
    tasks.write_text(
        json.dumps(
            [
                {
                    "id": "1",
                    "user_scenario": {"instructions": {"reason_for_call": "x"}},
                    "evaluation_criteria": {"actions": [], "reward_basis": ["DB", "ACTION"]},
                }
            ]
        )
    )
    (tmp_path / "broken.json").write_text("[{")
    return tmp_path


@pytest.mark.slow
def test_bad_input_is_one_error_line_and_writes_nothing(workdir: Path) -> None:
    out = workdir / "out"
    cases = [
        (["--domains", "tau2:retail"], {source.ENV: str(workdir / "nowhere")}, "no tau2-bench"),
        (["--domains", "tau2:./not_a_domain"], {}, "is not a tau2 domain folder"),
        (
            ["--domains", "tau2:./not_a_domain", "--tau2-tasks", "broken.json"],
            {},
            "broken.json is not valid JSON",
        ),
        (
            ["--domains", "tau2:./not_a_domain", "--tau2-tasks", "tasks.json"],
            {},
            "unsupported reward basis ACTION",
        ),
        (["--domains", "railway", "--split", "test"], {}, "apply to tau2 domains"),
    ]
    for args, env, says in cases:
        result = cli(["generate", *args, "--num-tasks", "2", "--out", str(out)], workdir, **env)
        one_error_line(result, says)
        assert not out.exists()
    result = cli(["check-domain", "tau2:./not_a_domain"], workdir)
    one_error_line(result, "is not a tau2 domain folder")
