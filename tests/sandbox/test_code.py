"""run_code: a separate limited interpreter; whatever the code does comes back as a result."""

from __future__ import annotations

import os

from toolscale.sandbox.code import run_code


def test_prints_and_exit_code():
    result = run_code("print(6 * 7)\nraise SystemExit(3)")
    assert (result.stdout, result.exit_code, result.timed_out) == ("42\n", 3, False)


def test_endless_sleep_is_killed_at_the_timeout():
    result = run_code("import time\ntime.sleep(60)", timeout_s=1)
    assert result.timed_out and result.killed_by == "SIGKILL"
    assert "time limit" in result.as_tool_output()


def test_memory_bomb_fails_inside_the_limit():
    result = run_code("x = bytearray(4 << 30)", memory_mb=256)
    assert result.exit_code != 0 and "MemoryError" in result.stderr


def test_output_is_capped_and_marked():
    result = run_code("print('a' * 100_000)", max_output=1000)
    assert result.truncated and len(result.stdout) == 1000
    assert result.as_tool_output().endswith("[output truncated]")


def test_environment_is_empty_of_secrets():
    os.environ["TOOLSCALE_FAKE_KEY"] = "sk-fake-123"
    try:
        result = run_code("import os; print(sorted(os.environ))")
    finally:
        del os.environ["TOOLSCALE_FAKE_KEY"]
    assert "sk-fake" not in result.stdout and "TOOLSCALE_FAKE_KEY" not in result.stdout


def test_site_packages_are_out_of_reach():
    result = run_code("import toolscale")
    assert "ModuleNotFoundError" in result.stderr
