"""`synthesize --shard I/N` and `toolscale merge`: two shard jobs merged equal one unsharded run,
row for row and in run.json's yields, with near-duplicates inside one shard and across two (the
one across shards solved in its shard, then turned into the unsharded run's duplicate row), and
a solver rejection; bad shards, mixed or damaged inputs get one error line and write nothing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.synthesis.scripted import SynthesisPlans, mix, valid
from tests.teachers.fake_openai import fake_openai
from toolscale.cli.main import app
from toolscale.write.output import Output

pytestmark = pytest.mark.slow  # three synthesize runs (whole, two shards) and a generate run

DOMAIN = "railway"
K = 2
N = 10  # intents
CONFIGS = ("tasks", "rejected_tasks", "worlds")
# run.json's synthesis entries that the rows decide (cost and endpoints count requests, which
# differ: every shard asks for the intents, and the solver plays a shard's duplicates too).
SAME = ("funnel", "yields", "per_domain", "problems", "models", "solver_attempts")


class CopyingPlans(SynthesisPlans):
    """Intent `copy` is answered with the task of intent `source` word for word."""

    def __init__(self, cases: list[str], source: int, copy: int, twin: str) -> None:
        super().__init__(DOMAIN, 0, cases, evolved={source: twin})
        self.source, self.copy = source, copy

    def reply(self, body, authorization=""):
        user = body["messages"][-1]["content"] if not body.get("tools") else ""
        found = re.search(r"intent-(\d+)", user) if "# Intent" in user else None
        if found and int(found[1]) == self.copy:
            self.stages["task"] = self.stages.get("task", 0) + 1
            return self.answer(body, json.dumps(valid(DOMAIN, 0, self.source)))
        return super().reply(body, authorization)


def rows(out: Path, config: str) -> list[dict]:
    return [row for _, row in Output(out).read_rows(config)]


def synthesize(server, out: Path, *extra: str):
    args = ["synthesize", "--domains", DOMAIN, "--base-url", server.base_url, "--model", "fake"]
    args += ["--solver-attempts", str(K), "--out", str(out), "--retry-base", "0.01"]
    args += ["--num-tasks", str(N), "--intents-per-request", str(N), "--evolve", "1", *extra]
    args += ["--user", "scripted"]  # the scripted solver turns answer the scripted user
    return CliRunner().invoke(app, args, env={"OPENAI_API_KEY": "sk-test"})


def merge(*args: Path | str):
    return CliRunner().invoke(app, ["merge", *map(str, args)])


def one_error_line(result, *words: str) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    cases = mix(DOMAIN, N, ("write", "read", "unsolved"))
    source = cases.index("write")
    copy = source + 1  # the next intent, in the other shard of two, asks the same
    twin = json.loads(json.dumps(valid(DOMAIN, 0, source)))
    twin["opening"] += " Thanks!"  # its evolved task: a near-duplicate in its own shard
    plans = CopyingPlans(cases, source, copy, json.dumps(twin))
    root = tmp_path_factory.mktemp("shards")
    with fake_openai(plans) as server:
        results = {"whole": synthesize(server, root / "whole")}
        for i in range(2):
            results[f"s{i}"] = synthesize(server, root / f"s{i}", "--shard", f"{i}/2")
    for name, result in results.items():
        assert result.exit_code == 0, (name, result.output)
    merged = merge(root / "s0", root / "s1", "--out", root / "merged")
    assert merged.exit_code == 0, merged.output
    return root, cases, source, copy


def test_merged_shards_equal_the_unsharded_run_row_for_row(runs):
    root, _, _, _ = runs
    for config in CONFIGS:
        assert rows(root / "merged", config) == rows(root / "whole", config), config
    whole, merged = (json.loads((root / d / "run.json").read_text()) for d in ("whole", "merged"))
    for key in SAME:
        assert merged["synthesis"][key] == whole["synthesis"][key], key
    assert merged["counts"] == whole["counts"] and merged["status"] == "complete"
    assert {**merged["config"], "out": ""} == {**whole["config"], "out": ""}
    assert [m["shard"] for m in merged["merged_from"]] == ["0/2", "1/2"]
    assert "| proposed |" in (root / "merged" / "README.md").read_text()


def test_the_run_has_duplicates_within_and_across_shards_and_a_solver_rejection(runs):
    root, _, source, copy = runs
    rejected = {(r["index"], r["stage"]): r for r in rows(root / "merged", "rejected_tasks")}
    reason = [f"near-duplicate of candidate {source}"]
    # Across the two shards: the copy, and its evolved task (the evolve answer of the source's
    # text); in the source's own shard: the source's evolved twin.
    for index in (copy, N + copy, N + source):
        assert rejected[(index, "duplicate")]["reasons"] == reason, index
    assert any(stage == "solver" for _, stage in rejected)
    yields = json.loads((root / "merged" / "run.json").read_text())["synthesis"]["yields"]
    assert yields["rejected_by_stage"]["duplicate"] == 3
    assert yields["intents_requested"] == yields["intents_received"] == N
    # The copy was solved and accepted in its own shard, which could not see its twin.
    own = root / f"s{copy % 2}"
    assert copy in {r["index"] for r in rows(own, "tasks")}
    shard = json.loads((own / "run.json").read_text())
    assert shard["config"]["shard"] == f"{copy % 2}/2"
    assert shard["synthesis"]["yields"]["intents_requested"] == N // 2
    assert "not yet checked against each other" in (own / "README.md").read_text()


@pytest.mark.parametrize("value", ["3/3", "0/0", "1", "a/b"])
def test_a_bad_shard_is_one_error_line_and_writes_nothing(tmp_path, value):
    out = tmp_path / "out"
    args = ["synthesize", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--shard", value], env={"OPENAI_API_KEY": "k"})
    one_error_line(result, "--shard")
    assert not out.exists()


def test_a_shard_without_intents_is_refused(tmp_path):
    # Two intents of one domain: roots 0 and 1, so shard 2/3 would work on nothing.
    out = tmp_path / "out"
    args = ["synthesize", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--out", str(out)]
    args += ["--domains", "railway", "--num-tasks", "2", "--shard", "2/3"]
    result = CliRunner().invoke(app, args, env={"OPENAI_API_KEY": "k"})
    one_error_line(result, "--shard 2/3", "at most 2 shards")
    assert not out.exists()


def test_merge_refuses_mixed_commands_missing_shards_and_damaged_files(runs, tmp_path):
    root, _, _, _ = runs
    generated = tmp_path / "generated"
    made = CliRunner().invoke(
        app, ["generate", "--domains", DOMAIN, "--num-tasks", "2", "--out", str(generated)]
    )
    assert made.exit_code == 0, made.output
    dest = tmp_path / "dest"
    one_error_line(merge(root / "s0", generated, "--out", dest), str(generated), "generate")
    one_error_line(merge(root / "s0", "--out", dest), "lack shard 1/2")
    one_error_line(merge(root / "whole", "--out", dest), "unsharded")
    for key, value, words in [("seed", 7, ("seed",)), ("shard", "1/3", ("1/3", "2 shards"))]:
        other = tmp_path / f"other-{key}"
        shutil.copytree(root / "s1", other)
        summary = json.loads((other / "run.json").read_text())
        summary["config"][key] = value
        (other / "run.json").write_text(json.dumps(summary))
        one_error_line(merge(root / "s0", other, "--out", dest), str(other), *words)
    broken = tmp_path / "s1"
    shutil.copytree(root / "s1", broken)
    path = Output(broken).shard_path("tasks", f"{DOMAIN}-000000")
    path.write_bytes(path.read_bytes()[:100])
    one_error_line(merge(root / "s0", broken, "--out", dest), str(path), "synthesize --resume")
    assert not dest.exists()
    assert not [p for p in tmp_path.iterdir() if ".merge-" in p.name]
