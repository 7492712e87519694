"""The reward configuration a run trains on: the dataset's own, then the run's explicit overrides.

The base is the `config.reward` of the dataset's run.json (an output folder's own file, or the
run.json in a Hub dataset repo), so training optimises exactly the reward the rows were labelled
with. Keys this version of `RewardConfig` does not know are ignored (and named), missing keys take
its defaults, so an older or newer run.json still loads. A dataset without run.json trains on the
defaults, with a warning. Overrides come only from what the user set: `--w_o/--w_e/--w_p` and
`--reward_options "key=value,..."` (any RewardConfig field; the weight flags win over the same key
there). The result is printed at start and saved as OUTPUT/reward_config.json.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.judge.rewards import RewardConfig

SAVED_NAME = "reward_config.json"
WEIGHT_FLAGS = ("w_o", "w_e", "w_p")


@dataclass(frozen=True)
class ResolvedReward:
    """The reward of a run and where each part of it came from."""

    config: RewardConfig
    source: str  # the run.json it was read from, or "defaults"
    overrides: dict[str, Any] = field(default_factory=dict)
    ignored: tuple[str, ...] = ()  # run.json keys this RewardConfig does not have
    warning: str | None = None  # why the defaults were used, when they were

    def to_json(self) -> dict[str, Any]:
        return {
            "reward": self.config.as_json(),
            "source": self.source,
            "overrides": self.overrides,
            "ignored_keys": list(self.ignored),
        }

    def summary(self) -> str:
        values = ", ".join(f"{k}={v}" for k, v in dataclasses.asdict(self.config).items())
        extra = f"; overridden: {', '.join(self.overrides)}" if self.overrides else ""
        skipped = f"; ignored unknown keys: {', '.join(self.ignored)}" if self.ignored else ""
        return f"reward config ({self.source}{extra}{skipped}): {values}"


def _run_json(dataset: str) -> tuple[dict[str, Any] | None, str, str | None]:
    """(run.json content or None, its location, why it is absent)."""
    folder = Path(dataset)
    if folder.exists():
        path = folder / "run.json"
        if not path.exists():
            return None, str(path), f"{path} does not exist"
        location = str(path)
    else:
        from huggingface_hub import hf_hub_download
        from huggingface_hub.errors import EntryNotFoundError

        try:
            path = Path(hf_hub_download(dataset, "run.json", repo_type="dataset"))
        except (OSError, EntryNotFoundError) as exc:
            reason = exc.__class__.__name__
            return (
                None,
                f"{dataset}/run.json",
                f"no run.json from the Hub dataset {dataset} ({reason})",
            )
        location = f"hub:{dataset}/run.json"
    try:
        content = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read {location}: {exc}") from None
    if not isinstance(content, dict):
        raise ConfigError(f"{location} is not a JSON object")
    return content, location, None


def stored_reward(dataset: str) -> ResolvedReward:
    """The dataset's own RewardConfig (defaults, with a warning, when it has no run.json)."""
    content, location, missing = _run_json(dataset)
    if content is None:
        warning = f"warning: {missing}; training on the default reward config"
        return ResolvedReward(RewardConfig(), "defaults", warning=warning)
    stored = (content.get("config") or {}).get("reward")
    if stored is None:
        warning = f"warning: {location} has no config.reward; training on the default reward config"
        return ResolvedReward(RewardConfig(), "defaults", warning=warning)
    if not isinstance(stored, dict):
        raise ConfigError(f"{location}: config.reward is not a mapping")
    known = {f.name for f in dataclasses.fields(RewardConfig)}
    ignored = tuple(sorted(set(stored) - known))
    config = RewardConfig(**{k: v for k, v in stored.items() if k in known})
    return ResolvedReward(config, location, ignored=ignored)


def _coerce(key: str, text: str, current: Any) -> Any:
    """A `--reward_options` value in the type of the field's current value."""
    try:
        if isinstance(current, bool):
            if text.lower() not in ("true", "false", "1", "0"):
                raise ValueError(text)
            return text.lower() in ("true", "1")
        if isinstance(current, int | float):
            return float(text)
    except ValueError:
        kind = "true or false" if isinstance(current, bool) else "a number"
        raise ConfigError(f"--reward_options: {key} must be {kind}, not {text!r}") from None
    return text


def parse_overrides(options: Any, base: RewardConfig) -> dict[str, Any]:
    """The fields the user set explicitly: `reward_options` pairs, then the weight flags."""
    known = {f.name for f in dataclasses.fields(RewardConfig)}
    values: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in (options.reward_options or "").split(","))):
        key, sep, text = (s.strip() for s in part.partition("="))
        if not sep or key not in known:
            raise ConfigError(
                f"--reward_options: {part!r} is not key=value with a key among {sorted(known)}"
            )
        values[key] = _coerce(key, text, getattr(base, key))
    for key in WEIGHT_FLAGS:
        if getattr(options, key) is not None:
            values[key] = float(getattr(options, key))
    return values


def resolve_reward(options: Any) -> ResolvedReward:
    """The dataset's reward config with the user's explicit overrides applied."""
    stored = stored_reward(options.dataset)
    overrides = parse_overrides(options, stored.config)
    config = dataclasses.replace(stored.config, **overrides) if overrides else stored.config
    return dataclasses.replace(stored, config=config, overrides=overrides)


def save_reward(resolved: ResolvedReward, output_dir: str | Path) -> Path:
    """Write OUTPUT/reward_config.json (the config, its source and the overrides)."""
    path = Path(output_dir) / SAVED_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(resolved.to_json(), indent=2, sort_keys=True) + "\n")
    return path


def load_saved_reward(folder: str | Path) -> RewardConfig | None:
    """The RewardConfig a trained model was trained with (its reward_config.json), if any."""
    path = Path(folder) / SAVED_NAME
    if not path.exists():
        return None
    stored = json.loads(path.read_text())["reward"]
    known = {f.name for f in dataclasses.fields(RewardConfig)}
    return RewardConfig(**{k: v for k, v in stored.items() if k in known})
