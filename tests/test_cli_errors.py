"""Bad input gets one clear line and a non-zero exit, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *args], capture_output=True, text=True, timeout=300
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error:")
    for word in words:
        assert word in lines[0], lines[0]


def test_unknown_domain(tmp_path):
    result = cli(
        "generate", "--domains", "railway,nope", "--num-tasks", "4", "--out", str(tmp_path / "o")
    )
    assert_one_line_error(result, "unknown domain 'nope'", "railway")
    assert not (tmp_path / "o").exists()


def test_zero_tasks(tmp_path):
    result = cli("generate", "--num-tasks", "0", "--out", str(tmp_path / "o"))
    assert_one_line_error(result, "--num-tasks must be at least 1")


def test_a_call_timeout_that_is_not_positive_is_refused_before_anything_is_written(tmp_path):
    result = cli("generate", "--call-timeout", "-1", "--out", str(tmp_path / "o"))
    assert_one_line_error(result, "--call-timeout must be a positive number of seconds (got -1.0)")
    assert not (tmp_path / "o").exists()


def test_unwritable_out(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = cli("generate", "--num-tasks", "4", "--out", str(blocker / "sub"))
    assert_one_line_error(result, "not writable")


def test_foreign_folder_as_out_is_refused_and_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = cli("generate", "--num-tasks", "4", "--out", str(tmp_path))
    assert_one_line_error(result, "not a toolscale output")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.slow
def test_existing_output_needs_resume(tmp_path):
    out = tmp_path / "o"
    assert (
        cli("generate", "--domains", "math", "--num-tasks", "2", "--out", str(out)).returncode == 0
    )
    result = cli("generate", "--domains", "math", "--num-tasks", "2", "--out", str(out))
    assert_one_line_error(result, "--resume")
    result = cli("generate", "--domains", "math", "--num-tasks", "3", "--out", str(out), "--resume")
    assert_one_line_error(result, "num_tasks")


@pytest.mark.slow
def test_corrupted_shard_given_to_validate(tmp_path):
    out = tmp_path / "o"
    assert (
        cli("generate", "--domains", "math", "--num-tasks", "2", "--out", str(out)).returncode == 0
    )
    shard = next((out / "data" / "traces").glob("*.parquet"))
    shard.write_bytes(shard.read_bytes()[: len(shard.read_bytes()) // 2])
    assert_one_line_error(cli("validate", str(out)), "corrupted", shard.name)


@pytest.mark.parametrize("target", ["missing", "plain", "file"])
def test_validate_of_something_that_is_not_an_output(tmp_path, target):
    path = tmp_path / target
    if target == "plain":
        path.mkdir()
    if target == "file":  # a newcomer's `validate README.md`: not "does not exist"
        path.write_text("# a file\n")
        assert_one_line_error(cli("validate", str(path)), "is a file, not a folder")
        assert_one_line_error(cli("card", str(path)), "is a file, not a folder")
        return
    assert_one_line_error(cli("validate", str(path)))
