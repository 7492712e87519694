"""What `toolscale merge` reads of each shard job's output: its folder and run.json, and the
endpoint ledgers of two jobs added up. Shared by the generate and synthesize merges.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.pipeline.chunk import CODE_KEY
from toolscale.stats.run import RunStats
from toolscale.write.output import Output


@dataclass(frozen=True)
class Input:
    """One output to merge: its folder and its run.json."""

    root: Path
    run: dict[str, Any]

    @property
    def config(self) -> dict[str, Any]:
        return self.run["config"]

    def chunk(self, name: str) -> RunStats | None:
        return RunStats.from_marker(Output(self.root).chunk_done(name))

    def code(self, name: str) -> str | None:
        """The fingerprint of the domain code that made chunk `name` (None: none recorded)."""
        return (Output(self.root).chunk_done(name) or {}).get(CODE_KEY)


def read_input(root: Path) -> Input:
    if not Output(root).is_toolscale_output():
        raise ConfigError(
            f"{root} is not a toolscale output; give the --out folders of generate or synthesize"
        )
    try:
        run = json.loads((root / "run.json").read_text())
        if not isinstance(run.get("config"), dict):
            raise ValueError("no config")
    except (OSError, ValueError) as exc:
        raise ConfigError(
            f"{root}/run.json is missing or unreadable ({exc.__class__.__name__}); finish that "
            "output with generate --resume and its options"
        ) from None
    return Input(root, run)


def add_numbers(a: Any, b: Any) -> Any:
    """Endpoint ledgers (numbers and lists, nested by role, kind and URL) of two jobs added up;
    an entry one of them lacks counts as empty."""
    if isinstance(a, dict) or isinstance(b, dict):
        a, b = a or {}, b or {}
        return {k: add_numbers(a.get(k), b.get(k)) for k in sorted({*a, *b})}
    if isinstance(a, list) or isinstance(b, list):
        return [*(a or []), *(b or [])]
    a, b = a or 0, b or 0
    return round(a + b, 9) if isinstance(a, float) or isinstance(b, float) else a + b
