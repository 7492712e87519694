"""What the command line prints where no terminal reads it (a log, a pipe, CI): whole lines, a
plain progress line instead of a bar; `--quiet` prints errors only; `--version`."""

from __future__ import annotations

import subprocess
import sys

from toolscale import __version__


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *args], capture_output=True, text=True, timeout=300
    )


def test_version_is_printed_and_exits_0():
    result = cli("--version")
    assert result.returncode == 0 and result.stdout == f"toolscale {__version__}\n"


def test_outside_a_terminal_lines_are_whole_and_progress_is_one_plain_line(tmp_path):
    out = tmp_path / ("a-long-folder-name-so-that-the-summary-line-is-over-eighty-columns" * 2)
    result = cli("generate", "--domains", "math", "--num-tasks", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    summary = [line for line in lines if line.startswith("wrote ")]
    assert summary == [f"wrote {out}: 2 tasks, 2 verified traces, 0 rejected"]
    progress = [line for line in lines if line.startswith("generate ")]
    assert progress and all("tasks" in line and "verified" in line for line in progress)
    assert not any(mark in result.stderr for mark in ("━", "\x1b[", "\r"))  # no bar drawn


def test_quiet_prints_nothing_but_errors(tmp_path):
    result = cli("--quiet", "generate", "--domains", "math", "--num-tasks", "2", "--out",
                 str(tmp_path / "o"))  # fmt: skip
    assert result.returncode == 0 and result.stderr == "" and result.stdout == ""
    assert (tmp_path / "o" / "run.json").is_file()
    refused = cli("-q", "generate", "--num-tasks", "0", "--out", str(tmp_path / "p"))
    assert refused.returncode == 2
    assert (
        refused.stderr.splitlines()
        == [line for line in refused.stderr.splitlines() if line.startswith("error:")]
        != []
    )


def test_validate_counts_rows_only_when_it_takes_a_while():
    from rich.console import Console

    from toolscale.cli.progress import RowCount

    for every, expected in ((0.0, ["1/3", "2/3", "3/3"]), (3600.0, [])):
        out = Console(record=True, width=80)
        count = RowCount(every=every, out=out)
        for done in (1, 2, 3):
            count(done, 3)
        lines = out.export_text().splitlines()
        assert lines == [f"validate: {n} rows checked" for n in expected]
