"""`toolscale export --format sft`: the traces SFT imitates as chat-format JSONL.

`DEST/sft.jsonl`, one trace per line: {"id", "task_id", "domain", "variant", "reward_total",
"reward_outcome", "reward_efficiency", "reward_preference", "messages", "tools"}, with OpenAI-style
messages (assistant `tool_calls` of type "function"), the form TRL's SFTTrainer and chat templates
with tool support read. Which traces: `--variants` (`toolscale.stats.sft_choice`, the selection
`toolscale-train sft` makes): by default `best`, one trace per task, never a deliberate detour;
`all` writes every verified trace, detours included (GRPO contrast, not for imitation); a list of
names writes those variants. The `variant`, task id and reward columns stay, so a user can filter
again afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.core.records import Trace
from toolscale.stats import sft_choice
from toolscale.write.output import Output, atomic_write

KEPT = ("variant", "reward_total", "reward_outcome", "reward_efficiency", "reward_preference")


def sft_record(tools: list[dict[str, Any]], trace: Trace) -> dict[str, Any]:
    """One trace as an OpenAI-style chat with its task's tools, its variant and rewards."""
    messages: list[dict[str, Any]] = []
    for m in trace.messages:
        message: dict[str, Any] = {"role": m.role, "content": m.content}
        if m.tool_calls:
            message["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for c in m.tool_calls
            ]
        if m.role == "tool":
            message["tool_call_id"] = m.tool_call_id
            message["name"] = m.name
        messages.append(message)
    return {
        "id": trace.id,
        "task_id": trace.task_id,
        "domain": trace.domain,
        **{name: getattr(trace, name) for name in KEPT},
        "messages": messages,
        "tools": tools,
    }


def selected(
    traces: list[dict[str, Any]], tasks: Mapping[str, Mapping[str, Any]], variants: str
) -> list[dict[str, Any]]:
    """The `traces` rows `--variants` keeps; a selection that keeps nothing is a ConfigError
    naming the variants there are."""
    kept = [traces[i] for i in sft_choice.chosen(traces, tasks, variants)]
    if not kept:
        present = ", ".join(sorted({t["variant"] for t in traces})) or "none"
        raise ConfigError(
            f"--variants {variants} selects no trace; the traces' variants are: {present}"
        )
    return kept


def export_sft(output: Output, dest: Path, variants: str = "best") -> tuple[list[Path], str]:
    """Write DEST/sft.jsonl; returns the files written and a line saying what was selected."""
    sft_choice.variant_filter(variants)  # a bad --variants fails before any row is read
    tasks = {row["id"]: row for _, row in output.read_rows("tasks")}
    traces = [row for _, row in output.read_rows("traces")]
    kept = selected(traces, tasks, variants)
    tools = {i: json.loads(t["tools"]) for i, t in tasks.items()}
    lines = [
        json.dumps(sft_record(tools[row["task_id"]], Trace.from_row(row)), ensure_ascii=False)
        for row in kept
    ]
    path = dest / "sft.jsonl"
    atomic_write(path, "".join(line + "\n" for line in lines).encode("utf-8"))
    about = sft_choice.described([row["variant"] for row in kept], variants)
    covered = {row["task_id"] for row in kept}
    line = f"{about} of {len(covered)} tasks"
    if variants == "best" and len(covered) < len(tasks):
        # a task whose expected route answered wrong on this draw has no trace to imitate
        line += (
            f"; {len(tasks) - len(covered)} of the {len(tasks)} tasks have none (no verified "
            "trace of their expected route: SFT does not imitate an after-the-fact lucky route)"
        )
    return [path], line
