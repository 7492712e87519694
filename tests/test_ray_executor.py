"""`generate --executor ray`: a run on a local Ray instance equals a single-process run row for
row, resumes, and redoes the chunk of a worker process that was killed; options Ray cannot honour,
an address that does not answer and a folder a node does not see are one error line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.killer import KILL_INDEX
from tests.test_shard_merge import SUMMED, fingerprint, markers, one_error_line, run_json
from toolscale.core.errors import ConfigError
from toolscale.pipeline import ray as ray_executor
from toolscale.pipeline.generate import GenerateConfig, check_generate

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ("tasks", "traces", "rejected", "worlds")
# 18 tasks over a stateful domain, an orchestration one and the killer (math whose task 3 kills
# the Ray worker process playing it, once) in chunks of 2: 9 chunks, both Ray workers play several.
ARGS = ("--domains", "bank,knowledge,killer", "--num-tasks", "18", "--chunk-size", "2")
ARGS += ("--detours", "--seed", "3", "--workers", "1")
KILLER = "killer=tests.fixtures.killer:KillerDomain"


def env(**extra: str) -> dict[str, str]:
    """The test session's environment plus the killer domain (and any `extra`). The test's Ray
    instance listens on this machine only, so it needs no token (Ray 2.5x makes one per user in
    ~/.ray, which concurrent sessions on one machine would overwrite)."""
    domains = ",".join(filter(None, [os.environ.get("TOOLSCALE_DOMAINS", ""), KILLER]))
    return {**os.environ, "TOOLSCALE_DOMAINS": domains, "RAY_AUTH_MODE": "disabled", **extra}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscale", "generate", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env(),
        cwd=ROOT,
    )


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> tuple[str, Path]:
    """A local Ray instance with 2 CPUs (two worker processes at a time) started by the test;
    its address and the kill-once flag file its workers see (TOOLSCALE_KILL_ONCE)."""
    ray = pytest.importorskip("ray")
    flag = tmp_path_factory.mktemp("kill") / "killed.pid"
    saved = dict(os.environ)
    # The raylet and its workers inherit this environment: the killer domain and its flag.
    os.environ.update(env(TOOLSCALE_KILL_ONCE=str(flag), PYTHONPATH=str(ROOT)))
    try:
        ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    finally:
        os.environ.clear()
        os.environ.update(saved)
    yield ray.get_runtime_context().gcs_address, flag
    ray.shutdown()


@pytest.fixture(scope="module")
def single(tmp_path_factory) -> Path:
    """The run in one process (no kill flag here: nothing is killed)."""
    out = tmp_path_factory.mktemp("single") / "out"
    result = run(*ARGS, "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def on_ray(cluster, tmp_path_factory) -> Path:
    """The same run on the test's Ray instance, joined by address as a cluster would be."""
    address, _ = cluster
    out = tmp_path_factory.mktemp("ray") / "out"
    result = run(*ARGS, "--executor", "ray", "--ray-address", address, "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out


def assert_same_run(out: Path, single: Path) -> None:
    for config in CONFIGS:
        assert fingerprint(out, config) == fingerprint(single, config), config
    assert markers(out) == markers(single)
    mine, one = run_json(out), run_json(single)
    for key in SUMMED:
        assert mine[key] == one[key], key


@pytest.mark.slow
def test_a_ray_run_equals_a_single_process_run(cluster, single, on_ray):
    assert_same_run(on_ray, single)
    assert fingerprint(on_ray, "traces")[0] > 18  # --detours: several routes per task
    config, one = run_json(on_ray)["config"], run_json(single)["config"]
    assert (config["executor"], config["ray_address"]) == ("ray", cluster[0])
    assert {k for k in config if config[k] != one[k]} == {"executor", "ray_address", "out"}


@pytest.mark.slow
def test_a_killed_worker_process_has_its_chunk_redone(cluster, single, on_ray):
    killed = int(cluster[1].read_text())  # the Ray worker process that played killer task 3
    with pytest.raises(ProcessLookupError):
        os.kill(killed, 0)
    chunk = f"killer-{KILL_INDEX // 2 * 2:06d}"
    assert chunk in markers(on_ray)
    assert fingerprint(on_ray, "tasks") == fingerprint(single, "tasks")  # task 3 included
    assert run_json(on_ray)["per_domain"] == run_json(single)["per_domain"]


@pytest.mark.slow
def test_resume_on_ray_redoes_only_the_missing_chunks(cluster, single, on_ray, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(on_ray, out)
    lost = ["bank-000002", "knowledge-000000"]  # shards and markers gone
    for chunk in lost:
        (out / ".toolscale" / "chunks" / f"{chunk}.json").unlink()
        for config_name in (*CONFIGS, "user_faults"):  # every config a chunk writes
            (out / "data" / config_name / f"{chunk}.parquet").unlink(missing_ok=True)
    kept = {p: p.stat().st_mtime_ns for p in (out / "data").rglob("*.parquet")}
    args = ("--executor", "ray", "--ray-address", cluster[0], "--resume", "--out", str(out))
    result = run(*ARGS, *args)
    assert result.returncode == 0, result.stderr
    assert_same_run(out, single)
    assert {p: p.stat().st_mtime_ns for p in kept} == kept
    assert all((out / "data" / "traces" / f"{chunk}.parquet").is_file() for chunk in lost)


@pytest.mark.slow
def test_a_ray_address_that_does_not_answer_is_one_line(tmp_path):
    out = tmp_path / "out"
    result = run(*ARGS, "--executor", "ray", "--ray-address", "127.0.0.1:9", "--out", str(out))
    words = ["127.0.0.1:9", "does not answer"] if _has_ray() else ["toolscale[ray]"]
    one_error_line(result, *words)
    assert not out.exists()


def _has_ray() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def config(**options) -> GenerateConfig:
    return GenerateConfig(**{"domains": ["math"], "num_tasks": 2, "out": Path("unused"), **options})


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"executor": "ray", "teacher": "local"}, "--teacher local"),
        ({"executor": "ray", "max_cost_usd": 1.0}, "--max-cost-usd"),
        ({"ray_address": "10.0.0.1:6379"}, "add --executor ray"),
        ({"executor": "dask"}, "local or ray"),
    ],
)
def test_options_the_ray_executor_cannot_honour_are_refused(options, words):
    with pytest.raises(ConfigError, match=words.replace("-", r"\-")):
        check_generate(config(**options))


def test_an_address_that_is_not_host_port_is_refused():
    with pytest.raises(ConfigError, match="HOST:PORT"):
        ray_executor._host_port("head-node")
    assert ray_executor._host_port("ray://10.0.0.1:10001") == ("10.0.0.1", 10001)
    assert ray_executor._host_port("auto") is None


def test_without_ray_installed_the_executor_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(ConfigError, match=r"pip install 'toolscale\[ray\]'"):
        ray_executor.connect(None)


def test_a_node_that_does_not_see_out_refuses_its_chunk(tmp_path):
    out = tmp_path / "out"
    (out / ".toolscale").mkdir(parents=True)
    (out / ".toolscale" / "ray-token").write_text("the driver's token")
    with pytest.raises(ConfigError, match="shared folder mounted at the same path"):
        ray_executor.play_chunk(config(out=out), "math-000000", "math", range(2), "another")
    assert not (out / "data").exists()


def test_endpoint_summaries_add_up():
    a = {"teacher": {"sent": 2, "faults": {"429": 1}, "cost_usd": 0.1}}
    b = {"teacher": {"sent": 3, "faults": {"500": 2}, "cost_usd": 0.2}, "user": {"sent": 1}}
    assert ray_executor.add_endpoints(a, b) == {
        "teacher": {"sent": 5, "faults": {"429": 1, "500": 2}, "cost_usd": 0.3},
        "user": {"sent": 1},
    }
