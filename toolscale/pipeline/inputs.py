"""What `toolscale merge` reads of each shard job's output: its folder and run.json, the check
that a command's shard jobs are all there once each, and the endpoint ledgers of two jobs added
up. Shared by the generate, synthesize and synthesize-domain merges.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolscale.config.shard import Shard
from toolscale.core.errors import ConfigError
from toolscale.pipeline.chunk import CODE_KEY
from toolscale.stats.run_stats import RunStats
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
            f"{root} is not a toolscale output; give the --out folders of generate, synthesize or "
            "synthesize-domain"
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


def check_shards(inputs: list[Input], command: str) -> list[Input]:
    """The inputs of `command`'s shard jobs by shard, 0 ... N-1; a ConfigError for an unsharded
    or unfinished output, two shard counts, a shard given twice or a missing shard.

    Example: outputs of shards 1/2 and 0/2 -> [the 0/2 one, the 1/2 one]; 0/2 alone, or 0/2
    twice, is refused.
    """
    redo = f"run that shard again with {command} --resume and its options, then merge again"
    by_index: dict[int, Input] = {}
    count = 0
    for item in inputs:
        text = item.config.get("shard")
        if not text:
            raise ConfigError(
                f"{item.root} is an unsharded {command} output; merge the outputs of "
                f"{command} --shard I/N jobs"
            )
        if item.run.get("status") != "complete":
            raise ConfigError(
                f"{item.root} is not finished (status {item.run.get('status')}); {redo}"
            )
        shard = Shard.parse(text)
        if count and shard.count != count:
            raise ConfigError(
                f"{item.root} is shard {shard} but {inputs[0].root} is of {count} shards; merge "
                "the shards of one run"
            )
        count = shard.count
        if shard.index in by_index:
            raise ConfigError(
                f"{item.root} and {by_index[shard.index].root} are both shard {shard}; give "
                "each shard's output once"
            )
        by_index[shard.index] = item
    missing = [f"{i}/{count}" for i in range(count) if i not in by_index]
    if missing:
        raise ConfigError(
            f"the inputs lack shard {', '.join(missing)}: give the output of every shard "
            f"(finish an unfinished one with {command} --resume and its options)"
        )
    return [by_index[i] for i in range(count)]


def merged_from(inputs: list[Input]) -> list[dict[str, Any]]:
    """run.json's `merged_from` of a merged output: each input's folder, shard and status."""
    return [
        {"out": str(i.root), "shard": i.config.get("shard"), "status": i.run.get("status")}
        for i in inputs
    ]


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
