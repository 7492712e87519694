"""`--resume_from_checkpoint` continues from the saved step, and metrics.jsonl holds one run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import trainer.grpo as grpo_module
from toolscale.config.generate import GenerateConfig
from toolscale.core.errors import ConfigError
from toolscale.pipeline.generate import generate
from trainer.group_filter import FilteredGRPOTrainer

pytestmark = pytest.mark.slow


def steps_logged(out: Path) -> list[int]:
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return [r["step"] for r in rows if "train_runtime" not in r]


def test_resume_continues_from_the_checkpoint_step(tmp_path, monkeypatch):
    data = tmp_path / "data"
    generate(GenerateConfig(domains=["math"], num_tasks=4, out=data))
    out = tmp_path / "run"
    common = [
        "--config",
        "trainer/configs/cpu-smoke.yaml",
        "--model",
        "tiny-random",
        "--warm_start_steps",
        "0",
        "--dataset",
        str(data),
        "--output_dir",
        str(out),
        "--max_completion_length",
        "16",
        "--save_strategy",
        "steps",
        "--save_steps",
        "1",
    ]
    calls: list[int] = []
    real_step = FilteredGRPOTrainer.training_step

    def counted(self, *args, **kw):
        calls.append(self.state.global_step)
        return real_step(self, *args, **kw)

    monkeypatch.setattr(FilteredGRPOTrainer, "training_step", counted)

    grpo_module.grpo([*common, "--max_steps", "2"])
    assert calls == [0, 1]
    assert (out / "checkpoint-2" / "trainer_state.json").exists()
    first = (out / "metrics.jsonl").read_text().splitlines()
    assert steps_logged(out) == [1, 2]

    calls.clear()
    grpo_module.grpo(
        [*common, "--max_steps", "3", "--resume_from_checkpoint", str(out / "checkpoint-2")]
    )
    assert calls == [2]  # one new step, numbered from the checkpoint's
    state = json.loads((out / "checkpoint-3" / "trainer_state.json").read_text())
    assert state["global_step"] == 3
    assert steps_logged(out) == [1, 2, 3]
    assert (out / "metrics.jsonl").read_text().splitlines()[:2] == first[:2]  # the same rows

    # A new run in the same folder is refused unless asked for; then it starts a fresh
    # metrics file.
    calls.clear()
    with pytest.raises(ConfigError, match="already holds a trained model"):
        grpo_module.grpo([*common, "--max_steps", "1", "--save_strategy", "no"])
    assert calls == [] and steps_logged(out) == [1, 2, 3]
    fresh = ["--max_steps", "1", "--save_strategy", "no", "--overwrite_output_dir", "true"]
    grpo_module.grpo([*common, *fresh])
    assert calls == [0] and steps_logged(out) == [1]


def test_resume_from_a_folder_that_is_not_a_checkpoint_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="not a checkpoint folder"):
        grpo_module.grpo(
            [
                "--config",
                "trainer/configs/cpu-smoke.yaml",
                "--dataset",
                str(tmp_path),
                "--output_dir",
                str(tmp_path / "run"),
                "--resume_from_checkpoint",
                str(tmp_path / "nothing"),
            ]
        )
    with pytest.raises(ConfigError, match="no checkpoint"):
        grpo_module.grpo(
            [
                "--config",
                "trainer/configs/cpu-smoke.yaml",
                "--dataset",
                str(tmp_path),
                "--output_dir",
                str(tmp_path / "run"),
                "--resume_from_checkpoint",
                "last",
            ]
        )
