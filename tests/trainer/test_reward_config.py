"""The trainer's reward config is the dataset's own (run.json), changed only by explicit flags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolscale.core.errors import ConfigError
from toolscale.judge.rewards import RewardConfig
from trainer.args import ToolscaleArguments
from trainer.reward_config import load_saved_reward, resolve_reward, save_reward


def dataset_with(tmp_path: Path, reward: dict | None) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    config = {"domains": ["math"]} if reward is None else {"reward": reward}
    (folder / "run.json").write_text(json.dumps({"status": "done", "config": config}))
    return folder


def test_the_dataset_reward_config_is_used_with_unknown_keys_ignored(tmp_path):
    stored = {"w_e": 0.5, "per_token": 0.0003, "efficiency": "cost", "from_the_future": 7}
    folder = dataset_with(tmp_path, stored)
    resolved = resolve_reward(ToolscaleArguments(dataset=str(folder)))
    assert resolved.config == RewardConfig(w_e=0.5, per_token=0.0003, efficiency="cost")
    assert resolved.config.w_o == RewardConfig().w_o  # a missing key takes the default
    assert resolved.source == str(folder / "run.json")
    assert resolved.ignored == ("from_the_future",) and resolved.warning is None
    assert resolved.overrides == {}


def test_explicit_flags_override_only_what_they_name(tmp_path):
    folder = dataset_with(tmp_path, {"w_e": 0.5, "per_token": 0.0003, "per_call": 0.03})
    options = ToolscaleArguments(
        dataset=str(folder), w_o=2.0, reward_options="per_call=0.02, w_e=0.7", w_e=0.25
    )
    resolved = resolve_reward(options)
    # The weight flag wins over the same key in reward_options; per_token stays the dataset's.
    assert resolved.config == RewardConfig(w_o=2.0, w_e=0.25, per_token=0.0003, per_call=0.02)
    assert resolved.overrides == {"per_call": 0.02, "w_e": 0.25, "w_o": 2.0}


def test_a_dataset_without_run_json_trains_on_the_defaults_with_a_warning(tmp_path):
    folder = tmp_path / "bare"
    folder.mkdir()
    resolved = resolve_reward(ToolscaleArguments(dataset=str(folder), w_p=0.0))
    assert resolved.config == RewardConfig(w_p=0.0)
    assert resolved.source == "defaults"
    assert resolved.warning.startswith("warning:") and "run.json" in resolved.warning

    no_reward = resolve_reward(ToolscaleArguments(dataset=str(dataset_with(tmp_path, None))))
    assert no_reward.config == RewardConfig() and "config.reward" in no_reward.warning


@pytest.mark.slow  # datasets tries the Hub path for ~20 s
def test_an_unreachable_hub_dataset_gives_defaults_with_a_warning(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    resolved = resolve_reward(ToolscaleArguments(dataset="nobody-here/no-such-dataset"))
    assert resolved.config == RewardConfig() and resolved.source == "defaults"
    assert "nobody-here/no-such-dataset" in resolved.warning


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("per_call", "key=value"),
        ("nonsense=1", "nonsense"),
        ("per_call=cheap", "must be a number"),
        ("efficiency=fast", "efficiency must be one of"),
    ],
)
def test_bad_reward_options_are_config_errors(tmp_path, text, words):
    folder = dataset_with(tmp_path, {})
    with pytest.raises(ConfigError, match=words):
        resolve_reward(ToolscaleArguments(dataset=str(folder), reward_options=text))


def test_a_malformed_run_json_is_a_config_error(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "run.json").write_text("{not json")
    with pytest.raises(ConfigError, match="cannot read"):
        resolve_reward(ToolscaleArguments(dataset=str(folder)))


def test_the_saved_config_reloads_equal(tmp_path):
    folder = dataset_with(tmp_path, {"w_e": 0.5})
    resolved = resolve_reward(ToolscaleArguments(dataset=str(folder), w_p=0.3))
    path = save_reward(resolved, tmp_path / "run")
    saved = json.loads(path.read_text())
    assert saved["source"] == str(folder / "run.json") and saved["overrides"] == {"w_p": 0.3}
    assert load_saved_reward(tmp_path / "run") == RewardConfig(w_e=0.5, w_p=0.3)
    assert load_saved_reward(tmp_path / "nothing") is None
