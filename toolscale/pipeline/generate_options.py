"""`generate`'s options, by the names of its flags, turned into the run's `GenerateConfig`.

The command line and the Python API (`toolscale.generate(out=..., domains="bank", ...)`) both
build their config here, so an option means the same in both. It reads no file (`--config` YAML
is the command line's, `toolscale.config.files`) and runs nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolscale.config.generate import GENERATE_EXTRA, GenerateConfig
from toolscale.config.option import from_flags, options_of
from toolscale.core.errors import ConfigError
from toolscale.judge.rewards import parse_reward_config
from toolscale.tau2.spec import apply_options


def generate_config(**options: Any) -> GenerateConfig:
    """The config of `toolscale generate` with these options (keywords named as its flags,
    underscores for dashes; `domains` also as a list); ConfigError for an unknown option, a
    missing `out` or a bad value."""
    values = options_of(GenerateConfig, options, "generate", GENERATE_EXTRA)
    if values["out"] is None:
        raise ConfigError("--out is required (on the command line or in --config)")
    domains = values["domains"]
    if not isinstance(domains, str):
        domains = ",".join(domains)
    tasks = values["tau2_tasks"]
    return from_flags(
        GenerateConfig,
        values | {"out": Path(values["out"])},
        domains=apply_options(domains, values["split"], None if tasks is None else str(tasks)),
        reward=parse_reward_config(
            values["reward_weights"], values["reward_options"], values["reward_components"]
        ),
    )
