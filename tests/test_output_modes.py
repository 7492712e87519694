"""Output files get the permissions the umask gives, as `open` would (not mkstemp's 0600)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolscale.write.output import Output, atomic_write, write_json


@pytest.fixture(params=[0o022, 0o077, 0o002])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_written_file_has_the_mode_the_umask_gives(tmp_path, umask):
    expected = 0o666 & ~umask  # 022 -> 0644, 077 -> 0600, 002 -> 0664
    atomic_write(tmp_path / "a" / "card.md", b"x")
    write_json(tmp_path / "run.json", {"a": 1})
    output = Output(tmp_path / "out")
    output.prepare(resume=False)
    output.write_shard("tasks", "math-000000", [])
    output.write_readme("t")
    written = [
        tmp_path / "a" / "card.md",
        tmp_path / "run.json",
        output.shard_path("tasks", "math-000000"),
        tmp_path / "out" / "README.md",
    ]
    assert {p.name: mode(p) for p in written} == {p.name: expected for p in written}


def test_rewriting_keeps_no_temporary_file_and_replaces_the_content(tmp_path, umask):
    path = tmp_path / "f.bin"
    atomic_write(path, b"one")
    atomic_write(path, b"two")
    assert path.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]
