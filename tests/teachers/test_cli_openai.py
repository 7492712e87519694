"""The `generate` command with an LLM teacher: a run config file with flags overriding it, and a
recognisable fake key that appears nowhere (files under OUT, parquet rows, stdout, stderr)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.teachers.fake_openai import FakeOpenAI, Plans, gold_turns

pytestmark = pytest.mark.slow
KEY = "sk-TOOLSCALE-LEAK-CANARY-93f1c2"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CANARY_KEY": KEY}
    return subprocess.run(
        [sys.executable, "-m", "toolscale", "generate", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def leaks(out: Path) -> list[str]:
    """Every file under OUT holding the key, in its bytes or in its decoded parquet rows."""
    found = []
    for path in out.rglob("*"):
        if not path.is_file():
            continue
        if KEY.encode() in path.read_bytes():
            found.append(str(path))
        if path.suffix == ".parquet" and KEY in json.dumps(pq.read_table(path).to_pylist()):
            found.append(f"{path} (rows)")
    return found


def test_config_file_flags_override_and_the_key_leaks_nowhere(tmp_path):
    turns = gold_turns("math", 4)
    faults = dict(zip(turns, ["500", "malformed", "unknown_tool", "hermes"], strict=True))
    with FakeOpenAI(Plans(turns, faults)) as server:
        config = tmp_path / "run.yaml"
        config.write_text(
            f"domains: math\nnum-tasks: 9\nteacher: openai\nbase-url: {server.base_url}\n"
            "model: fake-model\napi_key_env: CANARY_KEY\nrequest-timeout: 0.5\n"
            "retry-base: 0.01\nmax-retries: 1\nteacher-price-in: 2.5\n"
        )
        out = tmp_path / "out"
        result = cli("--config", str(config), "--num-tasks", "4", "--out", str(out))
        assert result.returncode == 0, result.stderr
        assert f"Bearer {KEY}" in server.plans.authorizations
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["num_tasks"] == 4  # the flag beats the file
    assert run["config"]["model"] == "fake-model" and run["config"]["teacher_price_in"] == 2.5
    assert run["config"]["api_key_env"] == "CANARY_KEY"
    assert run["rejected_by_stage"] == {"format": 1, "teacher": 1}
    assert leaks(out) == []
    assert KEY not in result.stdout + result.stderr


def test_a_refused_key_fails_in_one_line_without_the_key(tmp_path):
    turns = gold_turns("math", 1)
    with FakeOpenAI(Plans(turns, dict.fromkeys(turns, "echo_401"))) as server:
        out = tmp_path / "out"
        result = cli(
            *("--teacher", "openai", "--base-url", server.base_url, "--model", "m"),
            *("--api-key-env", "CANARY_KEY", "--domains", "math", "--num-tasks", "1"),
            *("--out", str(out)),
        )
    assert result.returncode == 2
    assert "answered 401" in result.stderr and "Traceback" not in result.stderr
    assert KEY not in result.stdout + result.stderr
    assert json.loads((out / "run.json").read_text())["status"] == "stopped"
    assert leaks(out) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("num-taks: 3\n", "unknown option 'num_taks'"),
        ("api_key: sk-123\n", "looks like a secret"),
        ("num-tasks: many\n", "num_tasks"),
    ],
)
def test_a_bad_config_file_is_one_line_and_exit_2(tmp_path, text, message):
    config = tmp_path / "run.yaml"
    config.write_text(text)
    result = cli("--config", str(config), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr and "sk-123" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_openai_without_a_key_variable_fails_before_anything_runs(tmp_path):
    result = cli(
        *("--teacher", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"),
        *("--api-key-env", "NO_SUCH_VARIABLE_SET", "--out", str(tmp_path / "out")),
    )
    assert result.returncode == 2 and "NO_SUCH_VARIABLE_SET" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_cache_that_is_not_a_database_is_one_line_and_kept(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "requests.sqlite").write_text("not a database\n")
    result = cli(
        *("--teacher", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"),
        *("--api-key-env", "CANARY_KEY", "--cache-dir", str(cache)),
        *("--domains", "math", "--num-tasks", "1", "--out", str(tmp_path / "out")),
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "cannot use the request cache" in result.stderr and "--cache-dir" in result.stderr
    assert (cache / "requests.sqlite").read_text() == "not a database\n"
    assert not (tmp_path / "out").exists()
