"""The run configuration as the data card shows it: once, and only the options that differ from
their defaults (the required ones always), without the output's local path.

Defaults are those of the toolscale that renders the card (`GenerateConfig` or
`SynthesizeConfig` built from the run's required options and resolved as run.json records it);
the full resolved configuration stays in run.json.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from toolscale.config.generate import GenerateConfig
from toolscale.config.synthesize import SynthesizeConfig

_LOCAL = ("out", "cache_dir")  # where the run wrote, not how the data was made
_LONG = 120


def _required(cls: type) -> list[str]:
    return [
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]


def defaults(command: str, config: dict[str, Any]) -> dict[str, Any]:
    """The resolved defaults of `command`'s config for the run's required options ({} when they
    cannot be built, e.g. a config of another toolscale version: then every option shows)."""
    cls = SynthesizeConfig if command == "synthesize" else GenerateConfig
    try:
        given: dict[str, Any] = {
            k: Path(config[k]) if k == "out" else config[k] for k in _required(cls)
        }
        return cls(**given).resolved()
    except Exception:  # any option this version does not know or refuses: show them all
        return {}


def changed_options(command: str, config: dict[str, Any]) -> list[tuple[str, str]]:
    """(option, JSON value) of the options that differ from the defaults, plus the required ones;
    a long value (a price schedule in full) is cut, with a pointer to run.json."""
    base = defaults(command, config)
    cls = SynthesizeConfig if command == "synthesize" else GenerateConfig
    required = set(_required(cls))
    rows = []
    for key, value in sorted(config.items()):
        if key in _LOCAL or (key in base and base[key] == value and key not in required):
            continue
        text = json.dumps(value, sort_keys=True)
        if len(text) > _LONG:
            text = text[: _LONG - 1] + "… (in full in run.json)"
        rows.append((key, text.replace("|", "\\|")))
    return rows
