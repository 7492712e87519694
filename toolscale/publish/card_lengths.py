"""Prompt and completion lengths in tokens, per domain, for the card: what `max_length` needs.

A prompt is what every attempt at a task starts from: its `system_prompt`, its `instruction` and
its tool schemas (`tools`, as the JSON text a chat template writes). A completion is the rest of
an SFT trace (`--variants best`, `toolscale.stats.sft_choice`): every later message's text and
each tool call's name and arguments. Both are counted with the trainer's tokenizer when one is
given (a local folder: text tokens, without the few a chat template adds per message), else
estimated as ceil(characters / 4) (`toolscale.economics.prices.text_tokens`), and the card says
which. Nothing here renders a chat template or loads a model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq

from toolscale.core.errors import ConfigError
from toolscale.economics.prices import text_tokens
from toolscale.stats.sft_choice import CHOICE_COLUMNS, chosen

Count = Callable[[str], int]
APPROXIMATION = "estimated as characters / 4 (`toolscale card --tokenizer DIR` counts exactly)"


@dataclass(frozen=True)
class Lengths:
    """p50 and max of one domain's prompt and completion tokens."""

    prompt_p50: int
    prompt_max: int
    completion_p50: int
    completion_max: int
    longest: int  # the longest prompt + completion of one SFT trace


def tokenizer_count(folder: Path) -> tuple[Count, str]:
    """A token counter from a local tokenizer folder, and how the card names it."""
    if (
        not (folder / "tokenizer_config.json").is_file()
        and not (folder / "tokenizer.json").is_file()
    ):
        raise ConfigError(
            f"--tokenizer {folder}: no tokenizer.json or tokenizer_config.json there; give the "
            "folder of the model the trainer uses"
        )
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)

    def count(text: str) -> int:
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    how = f"counted with the tokenizer of `{folder.name}` (text only; a chat template adds a few)"
    return count, how


def prompt_text(task: Mapping[str, Any]) -> str:
    return "\n".join((task["system_prompt"], task["instruction"], task["tools"]))


def completion_text(messages: Any) -> str:
    """Every message after the first user message: its text and its calls' names and arguments."""
    parts, users = [], 0
    for m in messages:
        users += m["role"] == "user"
        if users == 0 or (m["role"] == "user" and users == 1):
            continue
        parts.append(m["content"])
        parts += [c["name"] + c["arguments"] for c in m["tool_calls"]]
    return "\n".join(parts)


def _rows(root: Path, config: str, columns: list[str]) -> list[dict[str, Any]]:
    """The rows of `config` with `columns`; none when a shard lacks one (traces written
    without reward columns cannot be ranked for SFT)."""
    shards = sorted((root / "data" / config).glob("*.parquet"))
    if not all(set(columns) <= set(pq.read_schema(p).names) for p in shards):
        return []
    return [r for p in shards for r in pq.read_table(p, columns=columns).to_pylist()]


def _p50(values: list[int]) -> int:
    """The median, rounded down (the lower of two middles' mean)."""
    return int(np.median(values)) if values else 0


def per_domain(root: Path, count: Count | None = None) -> dict[str, Lengths]:
    """Each domain's prompt lengths (all its tasks) and completion lengths (its SFT traces) in
    the output folder `root`."""
    count = count or text_tokens
    wanted = ["id", "domain", "system_prompt", "instruction", "tools"]
    wanted += ["route_table", "expected_route", "oracle_route"]  # what the SFT choice reads
    tasks = {t["id"]: t for t in _rows(root, "tasks", wanted)}
    traces = _rows(root, "traces", [*CHOICE_COLUMNS, "domain", "messages"])
    prompts = {i: count(prompt_text(t)) for i, t in tasks.items()}
    sft = [traces[i] for i in chosen(traces, tasks, "best")]
    found: dict[str, Lengths] = {}
    for domain in sorted({t["domain"] for t in tasks.values()}):
        prompt = [n for i, n in prompts.items() if tasks[i]["domain"] == domain]
        mine = [r for r in sft if r["domain"] == domain]
        completion = [count(completion_text(r["messages"])) for r in mine]
        longest = [prompts[r["task_id"]] + c for r, c in zip(mine, completion, strict=True)]
        found[domain] = Lengths(
            _p50(prompt),
            max(prompt),
            _p50(completion),
            max(completion, default=0),
            max(longest, default=0),
        )
    return found
