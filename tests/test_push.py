"""`toolscale push` at the HTTP boundary: a loopback Hub (tests/hub_server.py) that the test
starts, with HF_ENDPOINT pointing at it; and `--dry-run`, which lists without connecting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import huggingface_hub.constants
import pytest
from huggingface_hub import DatasetCard

from tests.hub_server import FakeHub
from tests.publishing_data import copy, rows, shared
from toolscale.core.errors import ConfigError
from toolscale.publish.push import PushError, _with_retries, push

pytestmark = pytest.mark.slow
TOKEN = "hf_" + "T" * 34
REPO = "my-org/my-dataset"


@pytest.fixture(scope="module")
def generated() -> Path:
    return shared()


@pytest.fixture
def out(generated, tmp_path) -> Path:
    return copy(generated, tmp_path / "out")


@pytest.fixture
def hub(monkeypatch):
    """The loopback Hub, with huggingface_hub in this process pointed at it and online."""
    with FakeHub(TOKEN) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        monkeypatch.setenv("HF_TOKEN", TOKEN)
        monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
        # huggingface_hub backs off 1, 2, 4, 8, 8 s between its own retries; skip the waiting.
        monkeypatch.setattr(time, "sleep", lambda seconds: None)
        yield server


def expected_files(out: Path) -> set[str]:
    data = {p.relative_to(out).as_posix() for p in (out / "data").glob("*/*.parquet") if rows_in(p)}
    assets = {p.relative_to(out).as_posix() for p in (out / "assets").glob("*.png")}
    return data | {"README.md", "run.json"} | assets


def rows_in(path: Path) -> int:
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).metadata.num_rows


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
    )


def test_dry_run_lists_only_the_allowlist(out):
    junk = {
        ".env": f"HF_TOKEN={TOKEN}\n",
        ".toolscale/requests/cache.sqlite": "cached responses",
        "data/tasks/.bank-000000.parquet.x1.tmp": "half-written",
        ".cache/huggingface/upload/x.metadata": "local upload state",
        "notes/secret.txt": TOKEN,
    }
    for name, text in junk.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    # A closed port: a dry run that tried to connect would fail.
    result = cli(
        "push", str(out), "--repo-id", REPO, "--dry-run", env={"HF_ENDPOINT": "http://127.0.0.1:9"}
    )
    assert result.returncode == 0, result.stderr
    listed = {line.split()[-1] for line in result.stderr.splitlines() if line.startswith(" ")}
    assert listed == expected_files(out)
    assert f"would upload (dry run) {len(listed)} files to {REPO}" in result.stderr
    assert not any(rows_in(out / name) == 0 for name in listed if name.endswith(".parquet"))


def test_a_token_in_the_card_files_is_refused(out):
    run = json.loads((out / "run.json").read_text())
    run["config"]["base_url"] = f"https://example.invalid/v1?key={TOKEN}"
    (out / "run.json").write_text(json.dumps(run))
    with pytest.raises(ConfigError, match="access token"):
        push(out, REPO, dry_run=True)


def test_incomplete_run_and_bad_repo_id_are_refused(out):
    with pytest.raises(ConfigError, match="ORG/NAME"):
        push(out, "no-slash", dry_run=True)
    (out / "run.json").write_text((out / "run.json").read_text().replace('"complete"', '"running"'))
    with pytest.raises(ConfigError, match="incomplete run"):
        push(out, REPO, dry_run=True)


def test_push_through_the_command_line_uploads_every_file(out):
    with FakeHub(TOKEN) as hub:
        env = {"HF_ENDPOINT": hub.url, "HF_TOKEN": TOKEN, "HF_HUB_OFFLINE": "0"}
        result = cli("push", str(out), "--repo-id", REPO, "--private", env=env)
        assert result.returncode == 0, result.stderr
        remote = hub.files(REPO)
        assert set(remote) == expected_files(out)
        for name, data in remote.items():
            assert data == (out / name).read_bytes(), name
            assert TOKEN.encode() not in data
        assert hub.repos[REPO]["private"] is True
        # Data first, card last: the Hub page never describes data that is not there yet.
        assert [c[1] for c in hub.repos[REPO]["commits"]] == [
            "Upload toolscale data",
            "Upload toolscale card",
        ]
        card = DatasetCard(remote["README.md"].decode())
        assert f'load_dataset("{REPO}", c, split="train")' in card.text
        assert card.data.configs[0]["config_name"] == "tasks"


def test_a_failed_upload_ends_clearly_and_resumes_when_run_again(out, hub):
    hub.fail_commit = lambda summary: summary == "Upload toolscale card"
    with pytest.raises(PushError, match="run the same command again to resume"):
        push(out, REPO, tries=2, backoff_s=0)
    assert "README.md" not in hub.files(REPO)  # the data went up, the card did not
    data_commits = len(hub.repos[REPO]["commits"])
    assert data_commits == 1
    hub.fail_commit = lambda summary: False
    result = push(out, REPO, tries=2, backoff_s=0)
    assert result.uploaded
    assert set(hub.files(REPO)) == expected_files(out)
    # The unchanged data was not committed again: only the card commit was added.
    assert [c[1] for c in hub.repos[REPO]["commits"]][data_commits:] == ["Upload toolscale card"]


def test_a_transient_server_error_is_retried(out, hub):
    failures = iter([True])
    hub.fail_commit = lambda summary: next(failures, False)
    push(out, REPO, backoff_s=0)
    commits = [r for r in hub.requests if r[1].endswith("/commit/main")]
    assert len(commits) == 3  # the data commit twice (one 500, then retried), the card once
    assert set(hub.files(REPO)) == expected_files(out)


def test_revision_commits_to_a_branch(out, hub):
    push(out, REPO, revision="v1", backoff_s=0)
    assert set(hub.files(REPO, "v1")) == expected_files(out)
    assert hub.files(REPO, "main") == {}


def test_wrong_token_is_a_config_error(out, hub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_" + "W" * 34)
    card_before = (out / "README.md").read_bytes()
    with pytest.raises(ConfigError, match="HF_TOKEN"):
        push(out, REPO, backoff_s=0)
    assert rows(out, "tasks")  # nothing local was touched
    # refused at the first request, before the card is rendered or any config loaded
    assert hub.requests == [("GET", "/api/whoami-v2")]
    assert (out / "README.md").read_bytes() == card_before


def test_push_without_a_token_or_offline_is_one_error_line_before_any_check(out, tmp_path):
    """A user's mistakes: exit 2, one true `error:` line, the folder untouched (the card is not
    re-rendered, nothing is loaded: it used to take 18-54 s to say so)."""
    card_before = (out / "README.md").read_bytes()
    no_token = {"HF_TOKEN": "", "HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "0"}
    for env, words in (
        (no_token, "no Hugging Face token"),
        ({"HF_TOKEN": TOKEN, "HF_HUB_OFFLINE": "1"}, "HF_HUB_OFFLINE is set"),
    ):
        result = cli("push", str(out), "--repo-id", REPO, env=env)
        assert result.returncode == 2, result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith("error:") and words in line, line
        assert "stays on the Hub" not in line
    assert (out / "README.md").read_bytes() == card_before


def test_a_failure_before_any_upload_does_not_claim_a_commit():
    def unreachable() -> None:
        raise OSError("connection refused")

    with pytest.raises(PushError) as failed:
        _with_retries("creating the repository", REPO, 2, 0.0, unreachable)
    assert "nothing was uploaded: run the same command again" in str(failed.value)
    assert "stays on the Hub" not in str(failed.value)
