"""`generate --resume` and the domain's code: chunk markers carry its fingerprint, an unchanged
resume gives the rows of one uninterrupted run, one after an edit of a template file (in a copy of
the ledger fixture domain) is one error line and writes nothing, and `--redo-changed` redoes that
domain's chunks into the rows a fresh run of the new code gives."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.ledger.registration import with_ledger
from tests.test_shard_merge import fingerprint, one_error_line

pytestmark = pytest.mark.slow  # ~45 s: seven small generate runs

ROOT = Path(__file__).resolve().parent.parent
LEDGER = ROOT / "tests" / "fixtures" / "ledger"
ARGS = ("--domains", "ledger", "--num-tasks", "12", "--chunk-size", "4", "--detours")
CONFIGS = ("tasks", "traces", "rejected", "worlds")
WORDING = "how much is in my account"


def generate(env: dict[str, str], out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscale", "generate", *ARGS, "--out", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def rows(out: Path) -> dict[str, tuple[int, str]]:
    return {name: fingerprint(out, name) for name in CONFIGS}


@pytest.fixture
def copy(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the ledger package (importable as `ledgercopy`) and the environment that
    registers its domains."""
    package = tmp_path / "src" / "ledgercopy"
    shutil.copytree(LEDGER, package, ignore=shutil.ignore_patterns("__pycache__"))
    env = with_ledger("ledgercopy", PYTHONPATH=f"{package.parent}:{ROOT}")
    return package, env


def test_markers_carry_the_code_fingerprint_and_an_unchanged_resume_gives_the_same_rows(
    copy, tmp_path
):
    _, env = copy
    out = tmp_path / "out"
    assert generate(env, out).returncode == 0
    whole = rows(out)
    markers = sorted((out / ".toolscale" / "chunks").glob("*.json"))
    codes = {json.loads(m.read_text())["domain_code"] for m in markers}
    assert len(markers) == 3 and len(codes) == 1 and len(codes.pop()) == 16
    # An interrupted run: its middle chunk is not written; --resume redoes it alone.
    (out / ".toolscale" / "chunks" / "ledger-000004.json").unlink()
    for name in CONFIGS:
        (out / "data" / name / "ledger-000004.parquet").unlink(missing_ok=True)
    assert generate(env, out, "--resume").returncode == 0
    assert rows(out) == whole


def test_a_resume_after_a_template_edit_is_refused_and_redo_changed_redoes_the_chunks(
    copy, tmp_path
):
    package, env = copy
    out = tmp_path / "out"
    assert generate(env, out).returncode == 0
    before = rows(out)
    templates = package / "templates.py"
    assert WORDING in templates.read_text()
    templates.write_text(templates.read_text().replace(WORDING, "how much money my account holds"))
    refused = generate(env, out, "--resume")
    one_error_line(refused, "domain 'ledger' changed", "without --resume", "--redo-changed")
    assert rows(out) == before  # nothing rewritten
    redone = generate(env, out, "--resume", "--redo-changed")
    assert redone.returncode == 0, redone.stderr
    fresh = tmp_path / "fresh"
    assert generate(env, fresh).returncode == 0
    assert rows(out) == rows(fresh) != before  # the new code's tasks, and only those
    assert generate(env, out, "--resume").returncode == 0  # now it is this code's output


def test_redo_changed_without_resume_is_one_error_line(tmp_path):
    result = generate(with_ledger(), tmp_path / "out", "--redo-changed")
    one_error_line(result, "--redo-changed", "--resume")
    assert not (tmp_path / "out").exists()


def test_shards_made_by_different_code_of_a_domain_do_not_merge(copy, tmp_path):
    package, env = copy
    assert generate(env, tmp_path / "s0", "--shard", "0/2").returncode == 0
    templates = package / "templates.py"
    templates.write_text(templates.read_text().replace(WORDING, "how much money my account holds"))
    assert generate(env, tmp_path / "s1", "--shard", "1/2").returncode == 0
    shards = (str(tmp_path / "s0"), str(tmp_path / "s1"))
    merged = subprocess.run(
        [sys.executable, "-m", "toolscale", "merge", *shards, "--out", str(tmp_path / "all")],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    one_error_line(merged, "different code of domain 'ledger'", "same code")
    assert not (tmp_path / "all").exists()
