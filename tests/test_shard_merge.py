"""`generate --shard I/N` and `toolscale merge`: N shard jobs merged equal one run, row for row;
bad shards, incompatible or damaged inputs get one error line and write nothing."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

pytestmark = pytest.mark.slow
# 24 tasks over 4 domains in chunks of 2: 12 chunks, so each of 3 shards gets 4 of them.
ARGS = ("--domains", "railway,bank,math,knowledge", "--num-tasks", "24", "--chunk-size", "2")
ARGS += ("--detours", "--seed", "1")
CONFIGS = ("tasks", "traces", "rejected")
# run.json keys computed from the data and the statistics (all but config, versions, provenance).
SUMMED = ("counts", "per_domain", "rejected_by_stage", "stats", "attempts", "errors")
SUMMED += ("sample_failures", "tool_crashes", "reward_distributions", "profiles", "status")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *args], capture_output=True, text=True, timeout=300
    )


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "toolscale", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def one_error_line(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def fingerprint(out: Path, config: str) -> tuple[int, str]:
    """(rows, sha256 of every row sorted by id): equal for outputs holding the same rows."""
    rows = [
        r for p in (out / "data" / config).glob("*.parquet") for r in pq.read_table(p).to_pylist()
    ]
    rows.sort(key=lambda r: r["id"])
    blob = json.dumps(rows, sort_keys=True, default=str).encode()
    return len(rows), hashlib.sha256(blob).hexdigest()


def run_json(out: Path) -> dict:
    return json.loads((out / "run.json").read_text())


def markers(out: Path) -> set[str]:
    return {p.stem for p in (out / ".toolscale" / "chunks").glob("*.json")}


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def leftovers(parent: Path) -> list[str]:
    return [p.name for p in parent.iterdir() if ".merge-" in p.name]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """One unsharded run and its three shard jobs (run at the same time, as an array would)."""
    root = tmp_path_factory.mktemp("shards")
    outs = {"single": root / "single", **{f"{i}/3": root / f"shard-{i}" for i in range(3)}}
    jobs = [
        start("generate", *ARGS, "--out", str(out), *(["--shard", name] if "/" in name else []))
        for name, out in outs.items()
    ]
    for job in jobs:
        _, stderr = job.communicate(timeout=300)
        assert job.returncode == 0, stderr
    return outs


def shards(runs: dict[str, Path]) -> list[str]:
    return [str(runs[f"{i}/3"]) for i in range(3)]


def test_shards_partition_the_chunks_of_the_run(runs):
    parts = [markers(runs[f"{i}/3"]) for i in range(3)]
    assert [len(p) for p in parts] == [4, 4, 4]
    assert set.union(*parts) == markers(runs["single"]) and sum(map(len, parts)) == 12
    for i in range(3):
        run = run_json(runs[f"{i}/3"])
        assert run["config"]["shard"] == f"{i}/3"
        assert run["counts"]["sampled"] == 8  # 4 chunks of 2 tasks
    assert run_json(runs["single"])["config"]["shard"] is None


def test_three_shards_merged_equal_one_run(runs, tmp_path):
    dest = tmp_path / "merged"
    dest.mkdir()  # an empty folder is fine, as a new one is
    result = cli("merge", *shards(runs), "--out", str(dest))
    assert result.returncode == 0, result.stderr
    single = runs["single"]
    for config in CONFIGS:
        assert fingerprint(dest, config) == fingerprint(single, config), config
    assert fingerprint(dest, "rejected")[0] >= 1  # the run has negatives, so they were merged
    assert markers(dest) == markers(single)
    merged, one = run_json(dest), run_json(single)
    for key in SUMMED:
        assert merged[key] == one[key], key
    assert {k: v for k, v in merged["config"].items() if k != "out"} == {
        k: v for k, v in one["config"].items() if k != "out"
    }
    assert merged["config"]["shard"] is None
    assert [m["shard"] for m in merged["merged_from"]] == ["0/3", "1/3", "2/3"]
    card = (dest / "README.md").read_text()
    single_card = (single / "README.md").read_text()
    assert card == single_card.replace(f'"{single.name}"', f'"{dest.name}"')
    assert "rows valid" in cli("validate", str(dest)).stderr


def test_merge_refuses_another_seed(runs, tmp_path):
    other = tmp_path / "seed-2"
    args = [*ARGS[:-1], "2", "--shard", "1/3", "--out", str(other)]
    assert cli("generate", *args).returncode == 0
    dest = tmp_path / "merged"
    result = cli("merge", str(runs["0/3"]), str(other), str(runs["2/3"]), "--out", str(dest))
    one_error_line(result, "seed", str(other), str(runs["0/3"]))
    assert not dest.exists() and not leftovers(tmp_path)


def test_shards_played_against_other_endpoints_merge(runs, tmp_path):
    """Where a job sent its requests is the job's own business: the cache does not key on it."""
    moved = tmp_path / "shard-1"
    shutil.copytree(runs["1/3"], moved)
    run = run_json(moved)
    run["config"].update(base_url=["http://10.0.0.7:8000/v1"], endpoint_concurrency=8)
    (moved / "run.json").write_text(json.dumps(run))
    dest = tmp_path / "merged"
    result = cli("merge", str(runs["0/3"]), str(moved), str(runs["2/3"]), "--out", str(dest))
    assert result.returncode == 0, result.stderr
    for config in CONFIGS:
        assert fingerprint(dest, config) == fingerprint(runs["single"], config), config


def test_merge_refuses_a_missing_shard_and_a_full_destination(runs, tmp_path):
    dest = tmp_path / "merged"
    result = cli("merge", str(runs["0/3"]), str(runs["2/3"]), "--out", str(dest))
    one_error_line(result, "lack 4 of 12 chunks", "shard 1/3", "generate --resume")
    assert not dest.exists() and not leftovers(tmp_path)
    dest.mkdir()
    (dest / "notes.txt").write_text("mine")
    one_error_line(cli("merge", *shards(runs), "--out", str(dest)), "non-empty folder")
    assert [p.name for p in dest.iterdir()] == ["notes.txt"]


def truncated_copy(source: Path, into: Path) -> tuple[Path, Path]:
    """A copy of `source` whose traces shard of its second chunk is cut in half."""
    copy = shutil.copytree(source, into)
    shard = sorted((copy / "data" / "traces").glob("*.parquet"))[1]
    data = shard.read_bytes()
    shard.write_bytes(data[: len(data) // 2])
    return copy, shard


def test_merge_refuses_a_truncated_shard(runs, tmp_path):
    copy, shard = truncated_copy(runs["1/3"], tmp_path / "shard-1")
    dest = tmp_path / "merged"
    result = cli("merge", str(runs["0/3"]), str(copy), str(runs["2/3"]), "--out", str(dest))
    line = one_error_line(result, str(shard), "corrupted", "generate --resume", "merge again")
    assert f"{shard.stem}.json" in line  # the marker to delete with it
    assert not dest.exists() and not leftovers(tmp_path)


def test_resume_on_a_truncated_shard_names_it_and_plays_nothing(runs, tmp_path):
    copy, shard = truncated_copy(runs["1/3"], tmp_path / "shard-1")
    before = snapshot(copy)
    result = cli("generate", *ARGS, "--shard", "1/3", "--out", str(copy), "--resume")
    line = one_error_line(result, str(shard), "corrupted", "generate --resume")
    assert str(copy / ".toolscale" / "chunks" / f"{shard.stem}.json") in line
    assert snapshot(copy) == before  # run.json, shards and markers untouched


def test_resume_with_another_shard_is_refused(runs, tmp_path):
    copy = shutil.copytree(runs["1/3"], tmp_path / "shard-1")
    result = cli("generate", *ARGS, "--shard", "2/3", "--out", str(copy), "--resume")
    one_error_line(result, "shard='1/3'", "'2/3'")


@pytest.mark.parametrize(
    ("shard", "words"),
    [
        ("3/3", ["--shard 3/3", "between 0 and 2"]),
        ("0/0", ["--shard 0/0", "at least 1"]),
        ("x", ["--shard takes I/N", "'x'"]),
        ("12/13", ["--shard 12/13 gets no task", "only 12 chunks"]),
    ],
)
def test_bad_shard_is_one_line_and_writes_nothing(tmp_path, shard, words):
    out = tmp_path / "out"
    one_error_line(cli("generate", *ARGS, "--shard", shard, "--out", str(out)), *words)
    assert not out.exists()
