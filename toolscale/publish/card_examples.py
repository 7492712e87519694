"""The data card's example traces: one short gold trace per family, rendered as a conversation.

The trace shown is the verified gold trace with the fewest messages (ties: the id) among those
with a tool call (and, for a conversational family, a user reply), so the same data always shows
the same example. Long texts are cut to a line; the system prompt is only named, not shown.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

_WIDTH = 90


def _short(text: str, width: int = _WIDTH) -> str:
    line = " ".join(str(text).split()).replace("`", "'").replace("|", "/")
    return line if len(line) <= width else line[: width - 1] + "…"


def _call(call: dict[str, Any]) -> str:
    try:
        args = json.loads(call["arguments"])
        shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in args.items())
    except (ValueError, AttributeError):
        shown = call["arguments"]
    return _short(f"{call['name']}({shown})", 100)


def conversation(trace: dict[str, Any], task: dict[str, Any]) -> list[str]:
    """Markdown list items, one per message."""
    lines = [
        f"- **system**: `tasks.system_prompt` ({len(task['system_prompt'])} characters: policy, "
        "tools, prices)"
    ]
    for m in trace["messages"]:
        role = m["role"]
        if role == "system":
            continue
        if role == "tool":
            lines.append(f"- **tool** `{m['name']}` → {_short(m['content'])}")
        elif role == "assistant" and len(m["tool_calls"]):
            calls = "; ".join(f"`{_call(c)}`" for c in m["tool_calls"])
            lines.append(f"- **assistant** calls {calls}")
        else:
            lines.append(f"- **{role}**: {_short(m['content'])}")
    return lines


def examples(tasks: pd.DataFrame, traces: pd.DataFrame) -> list[dict[str, Any]]:
    """Per family (sorted), the example: its domain, template, task id and conversation."""
    if not len(traces):
        return []
    by_id = {row["id"]: row for row in tasks.to_dict("records")}
    found = []
    gold = traces[traces["variant"] == "gold"]
    for family in sorted(tasks["family"].unique()):
        best: tuple[int, str, dict[str, Any], dict[str, Any]] | None = None
        for trace in gold.to_dict("records"):
            task = by_id.get(trace["task_id"])
            if task is None or task["family"] != family:
                continue
            roles = [m["role"] for m in trace["messages"]]
            talks = json.loads(task["user_scenario"] or "null") is not None
            if "tool" not in roles or (talks and roles.count("user") < 2):
                continue
            if best is None or (len(roles), trace["id"]) < best[:2]:
                best = (len(roles), trace["id"], trace, task)
        if best is not None:
            trace, task = best[2], best[3]
            found.append(
                {
                    "family": family,
                    "domain": task["domain"],
                    "template": task["template"],
                    "variant": trace["variant"],
                    "lines": conversation(trace, task),
                }
            )
    return found
