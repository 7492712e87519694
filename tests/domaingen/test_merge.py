"""`toolscale merge` of synthesize-domain shards: two shards of a three-topic run merge into the
unsharded run's funnel, accepted and rejected domains and records (timings aside), a
near-duplicate accepted by another shard than its twin's is rejected by merge without importing
it, and bad input is one error line, exit 2, nothing written."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.domaingen.fake_author import AuthorPlans
from tests.domaingen.test_synthesize_domain import run
from tests.teachers.fake_openai import fake_openai
from toolscale.cli.main import app

pytestmark = pytest.mark.slow  # a module fixture runs whole synthesize-domain runs

# bike rental and diner in shard 0/2, ebike share (bike rental's near-duplicate) in 1/2
TOPICS = "bike rental,ebike share,diner"


def merge(*args: Path | str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["merge", *map(str, args)])
    return result.exit_code, result.output


def read(root: Path) -> dict:
    return json.loads((root / "run.json").read_text())


def files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    """The unsharded run, its two shards (each in its own folder), and their merge."""
    root = tmp_path_factory.mktemp("sdom-merge")
    with pytest.MonkeyPatch.context() as patch, fake_openai(AuthorPlans()) as server:
        patch.setenv("OPENAI_API_KEY", "test-key")
        for name, extra in (("whole", []), ("s0", ["--shard", "0/2"]), ("s1", ["--shard", "1/2"])):
            code, said = run(server.base_url, root / name, TOPICS, "--repairs", "1", *extra)
            assert code == 0, said
    merged = merge(root / "s1", root / "s0", "--out", root / "merged")  # in any order
    return root, merged


def test_merged_shards_equal_the_unsharded_run(runs) -> None:
    root, (code, said) = runs
    assert code == 0, said
    said = " ".join(said.split())  # rich wraps the line
    assert "2 outputs merged: proposed 3 -> spec 3 -> files 3 -> import 3" in said
    whole, merged = read(root / "whole"), read(root / "merged")
    assert merged["status"] == "complete" and merged["command"] == "synthesize-domain"
    for key in ("funnel", "rejected_by_stage", "cost"):
        assert merged["domaingen"][key] == whole["domaingen"][key], key
    assert whole["domaingen"]["funnel"]["accepted"] == 1
    assert whole["domaingen"]["cost"]["by_request"]["repair"]["requests"] == 1  # ebike's import

    def untimed(summary: dict) -> dict:
        return {n: {**t, "wall_s": 0} for n, t in summary["domaingen"]["topics"].items()}

    assert untimed(merged) == untimed(whole)
    assert merged["config"] == {**whole["config"], "out": str(root / "merged")}
    assert [m["shard"] for m in merged["merged_from"]] == ["1/2", "0/2"]
    for folder in ("domains/bike_rental", "rejected/ebike_share", "rejected/diner"):
        assert files(root / "merged" / folder) == files(root / "whole" / folder), folder
    assert sorted(p.name for p in (root / "merged/domains").iterdir()) == [
        "README.md",
        "bike_rental",
    ]
    lines = (root / "merged/domains/README.md").read_text().splitlines()
    assert lines[-1] == (root / "whole/domains/README.md").read_text().splitlines()[-1]
    assert str((root / "merged/domains").resolve()) in lines[3]  # DEST's, not the temp folder's
    assert [p.name for p in root.iterdir() if p.name.startswith(".")] == []


def test_a_near_duplicate_across_shards_is_rejected_by_merge(runs) -> None:
    root, _ = runs
    in_shard = read(root / "s1")["domaingen"]["topics"]["ebike_share"]
    assert in_shard["stage"] == "accepted"  # its shard never saw bike_rental
    assert (root / "s1/domains/ebike_share").is_dir()
    topic = read(root / "merged")["domaingen"]["topics"]["ebike_share"]
    assert topic["stage"] == "near_duplicate" and not topic["accepted"]
    assert topic["problems"] == ["its tools are a near-duplicate of bike_rental's (Jaccard 1.00)"]
    assert topic["measured"]["closest"] == {"domain": "bike_rental", "jaccard": 1.0}
    assert not (root / "merged/domains/ebike_share").exists()
    reason = json.loads((root / "merged/rejected/ebike_share/reason.json").read_text())
    assert reason["stage"] == "near_duplicate" and "bike_rental" in reason["problems"][0]
    marker = json.loads((root / "merged/.toolscale/topics/ebike_share.json").read_text())
    assert marker["stage"] == "near_duplicate" and marker["shingles"]  # the merged DIR resumes
    assert "ebike_share" not in sys.modules and "bike_rental" not in sys.modules


def _copy(root: Path, name: str, tmp: Path) -> Path:
    return Path(shutil.copytree(root / name, tmp / name))


def _edit(folder: Path, change: Callable[[dict], None]) -> Path:
    summary = read(folder)
    change(summary)
    (folder / "run.json").write_text(json.dumps(summary))
    return folder


def _clash(root: Path, tmp: Path) -> list[Path]:
    """Shard 1 also holding shard 0's accepted bike_rental, its record and its marker."""
    s1 = _copy(root, "s1", tmp)
    shutil.copytree(root / "s0/domains/bike_rental", s1 / "domains/bike_rental")
    marker = root / "s0/.toolscale/topics/bike_rental.json"
    shutil.copy(marker, s1 / ".toolscale/topics")
    entry = json.loads(marker.read_text())
    _edit(s1, lambda s: s["domaingen"]["topics"].update(bike_rental=entry))
    return [root / "s0", s1]


def _generate_output(tmp: Path) -> Path:
    (tmp / "gen/.toolscale").mkdir(parents=True)
    (tmp / "gen/run.json").write_text(
        json.dumps({"status": "complete", "config": {"shard": "1/2"}})
    )
    return tmp / "gen"


def _more_repairs(summary: dict) -> None:
    summary["config"]["repairs"] = 2


def _stopped(summary: dict) -> None:
    summary["status"] = "stopped"


CASES: dict[str, tuple[Callable[[Path, Path], list[Path]], str]] = {
    "missing shard": (lambda r, t: [r / "s0"], "the inputs lack shard 1/2"),
    "a shard twice": (lambda r, t: [r / "s0", r / "s1", r / "s0"], "are both shard 0/2"),
    "unsharded": (lambda r, t: [r / "whole", r / "s1"], "is an unsharded synthesize-domain"),
    "no output": (lambda r, t: [r / "s0", t / "nothing"], "is not a toolscale output"),
    "another kind": (lambda r, t: [r / "s0", _generate_output(t)], "is a generate output but"),
    "other options": (
        lambda r, t: [r / "s0", _edit(_copy(r, "s1", t), _more_repairs)],
        "differs from",
    ),
    "unfinished": (
        lambda r, t: [r / "s0", _edit(_copy(r, "s1", t), _stopped)],
        "is not finished (status stopped)",
    ),
    "a name in two shards": (_clash, "both hold domain 'bike_rental'"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_one_error_line_and_writes_nothing(runs, tmp_path: Path, case: str) -> None:
    root, _ = runs
    make, said = CASES[case]
    dest = tmp_path / "dest"
    code, output = merge(*make(root, tmp_path), "--out", dest)
    assert code == 2, output
    assert said in output and output.count("error:") == 1, output
    assert not dest.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_non_empty_out_is_refused_and_kept(runs, tmp_path: Path) -> None:
    root, _ = runs
    (tmp_path / "dest").mkdir()
    (tmp_path / "dest/notes.txt").write_text("mine")
    code, output = merge(root / "s0", root / "s1", "--out", tmp_path / "dest")
    assert code == 2 and "is a non-empty folder" in output and output.count("error:") == 1
    assert [p.name for p in (tmp_path / "dest").iterdir()] == ["notes.txt"]
