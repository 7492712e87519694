"""The data card's economics numbers: schedules used, group-reward signal, the gaming check.

Computed from the rows and run.json like every other card number: how many tasks drew each
price schedule; per domain, the share of tasks with at least two attempts whose `reward_group`
is not constant (a group with no spread teaches GRPO nothing); and the gaming table of
`toolscale check-rewards` when OUT/reward_check.json exists. Routes are compared on the same
tasks in `toolscale.stats.variants`. It renders nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd


def headline(description: str) -> str:
    """A schedule description's first clause: before its colon, then before its first comma
    outside parentheses. Example: "self-hosted experts (cheaper, slower), a search index" ->
    "self-hosted experts (cheaper, slower)"."""
    head, depth = description.split(":")[0], 0
    for i, char in enumerate(head):
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            return head[:i]
    return head


def schedules(run: dict[str, Any], tasks: pd.DataFrame) -> list[dict[str, Any]]:
    described = {s["name"]: s["description"] for s in run.get("config", {}).get("schedules", [])}
    if "price_schedule" not in tasks:
        return []
    counts = tasks["price_schedule"].value_counts()
    return [
        {"name": name, "tasks": int(counts.get(name, 0)), "description": headline(text)}
        for name, text in sorted(described.items())
    ]


def group_spread(attempts: pd.DataFrame) -> list[dict[str, Any]]:
    """Per domain: tasks with >= 2 attempts, and the share whose reward_group varies."""
    if not len(attempts) or "reward_group" not in attempts:
        return []
    rows = []
    for domain, frame in attempts.groupby("domain", sort=True):
        spans = frame.groupby("task_id")["reward_group"].agg(["count", "min", "max"])
        multi = spans[spans["count"] >= 2]
        varied = int(((multi["max"] - multi["min"]) > 1e-9).sum())
        share = f"{100 * varied / len(multi):.1f}%" if len(multi) else "n/a"
        rows.append({"domain": domain, "groups": len(multi), "varied": varied, "share": share})
    return rows


def gaming(root: Path) -> dict[str, Any] | None:
    """OUT/reward_check.json (from `toolscale check-rewards`), ready for the template."""
    path = root / "reward_check.json"
    if not path.is_file():
        return None
    report = json.loads(path.read_text())
    rows = []
    for cell in report["table"]:
        means = cell["mean_reward_total"]
        worst = max((v for k, v in means.items() if k.startswith("gaming:")), default=None)
        cheapest = cell["cheapest_wins"]
        rows.append(
            {
                **cell,
                "gold_best": f"{100 * cell['gold_best']:.0f}%",
                "cheapest_wins": "—" if cheapest is None else f"{100 * cheapest:.0f}%",
                "gold_mean": f"{means['gold']:.3f}",
                "best_gaming_mean": "—" if worst is None else f"{worst:.3f}",
            }
        )
    return {"passed": report["passed"], "per_domain": report["tasks_per_domain"], "rows": rows}
