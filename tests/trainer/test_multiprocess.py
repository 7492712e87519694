"""Two real training processes (torchrun, gloo on CPU): GRPO with the group-normalised reward
runs with whole groups on each rank, a split that would hand a rank partial groups is a one-line
error on every rank, and the linear reward trains with groups that span ranks (TRL gathers them).

This does not exercise vLLM (CUDA only), so it cannot show the server-mode tool-loop deadlock
that the 8B config avoids with colocated engines; see tests/trainer/test_configs.py."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("multi") / "data"
    generate(GenerateConfig(domains=["math"], num_tasks=4, out=out, detours=True))
    return out


def torchrun(dataset: Path, out: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2"]
    command += ["--standalone", "-m", "trainer.cli", "grpo"]  # a free rendezvous port
    command += ["--config", "trainer/configs/cpu-smoke.yaml", "--dataset", str(dataset)]
    command += ["--output_dir", str(out), *flags]
    # Its own process group, killed whole on a hang, so no rank outlives the test.
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def logged_steps(out: Path) -> list[dict]:
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return [r for r in rows if "reward_std" in r]


def test_group_reward_on_two_ranks_with_whole_groups(dataset, tmp_path):
    out = tmp_path / "run"
    flags = ["--reward_variant", "toolorchestra", "--per_device_train_batch_size", "4"]
    result = torchrun(dataset, out, *flags, "--num_generations", "4")
    assert result.returncode == 0, result.stderr[-3000:]
    steps = logged_steps(out)
    assert [s["step"] for s in steps] == [1, 2]
    assert all("toolscale/groups_dropped" in s and "toolscale/reward_outcome" in s for s in steps)
    assert (out / "reward_config.json").exists() and (out / "model.safetensors").exists()


def test_partial_groups_per_rank_are_refused_on_every_rank(dataset, tmp_path):
    flags = ["--reward_variant", "toolorchestra", "--per_device_train_batch_size", "2"]
    result = torchrun(dataset, tmp_path / "run", *flags, "--num_generations", "4")
    assert result.returncode != 0
    errors = [x for x in result.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 2 and all("needs whole groups on every rank" in e for e in errors)
    assert not (tmp_path / "run" / "model.safetensors").exists()


def test_linear_reward_trains_with_groups_that_span_ranks(dataset, tmp_path):
    out = tmp_path / "run"
    flags = ["--per_device_train_batch_size", "2", "--num_generations", "4"]
    result = torchrun(dataset, out, *flags)
    assert result.returncode == 0, result.stderr[-3000:]
    assert [s["step"] for s in logged_steps(out)] == [1, 2]
