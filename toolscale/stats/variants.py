"""What each trace is for: its variant's kind (gold, another route, a detour, a format slip), the
counts of each kind, and comparisons between kinds on the same tasks only.

A variant is the route an attempt played (`toolscale.play.reference`): `gold` (the oracle route
where the task has one), another route the task admits (a tool, an expert, a combination; a
stateful domain's `alternative_N`), a detour (a deliberate mistake: `repeat_read`, a stateful
task's mistakes of `toolscale.play.mistakes`, a wrong tool first, a failed call then fixed, a
cheap route that gets the answer wrong; the route table's `detour` flag), `plain_answer` (the
gold actions answered without the format the user asked for), or an LLM teacher's `sampled`
attempt. The kind of a route-table variant is read from the task's own route table, so a new
route needs no entry here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from toolscale.play.mistakes import VARIANTS as MISTAKES

KINDS = ("gold", "route", "detour", "format", "other")
USES = {
    "gold": "SFT",
    "route": "GRPO contrast",
    "detour": "GRPO contrast, worse side of pairs",
    "format": "preference pairs",
    "other": "an LLM teacher's attempts",
}
_DETOURS = ("repeat_read", *MISTAKES)  # the reference teacher's detours outside route tables


def kind(variant: str, table: Mapping[str, bool]) -> str:
    """The kind of `variant`; `table` is its task's route table as name -> detour.

    Example: kind("search_retry", {"search_retry": True}) == "detour";
    kind("alternative_1", {}) == "route"; kind("plain_answer", {}) == "format".
    """
    if variant == "gold":
        return "gold"
    if variant == "plain_answer":
        return "format"
    if variant in _DETOURS:
        return "detour"
    if variant in table:
        return "detour" if table[variant] else "route"
    return "route" if variant.startswith("alternative_") else "other"


def with_kinds(tasks: pd.DataFrame, attempts: pd.DataFrame) -> pd.DataFrame:
    """`attempts` with a `kind` column (from each task's route table)."""
    if not len(attempts):
        return attempts.assign(kind=pd.Series(dtype=str))
    tables: dict[str, dict[str, bool]] = {}
    if "route_table" in tasks:
        for task_id, table in zip(tasks["id"], tasks["route_table"], strict=True):
            tables[task_id] = {s["name"]: bool(s["detour"]) for s in table}
    kinds = [
        kind(v, tables.get(t, {}))
        for v, t in zip(attempts["variant"], attempts["task_id"], strict=True)
    ]
    return attempts.assign(kind=kinds)


def counts(attempts: pd.DataFrame) -> list[dict[str, Any]]:
    """Per kind present: its use, its variant names, and its verified and rejected attempts."""
    rows = []
    for name in KINDS if len(attempts) else ():
        mine = attempts[attempts["kind"] == name]
        if not len(mine):
            continue
        ok = int(mine["verified"].sum())
        rows.append(
            {
                "kind": name,
                "use": USES[name],
                "variants": sorted(mine["variant"].unique()),
                "verified": ok,
                "rejected": len(mine) - ok,
            }
        )
    return rows


def same_tasks(attempts: pd.DataFrame) -> list[dict[str, Any]]:
    """Per domain and non-gold kind: mean total cost and latency of gold and of that kind over
    the tasks that have both (each task's attempts averaged first), so that a kind played only
    on cheap tasks never looks cheaper than gold for that reason alone.

    Example: task A has gold $10 only; task B gold $1 and a detour $2. Averaged over attempts,
    gold costs $5.5 and the detour $2; on the same tasks (B), gold $1 and the detour $2.
    """
    if not len(attempts) or "total_cost" not in attempts:
        return []
    per_task = attempts.groupby(["domain", "kind", "task_id"], sort=True)[
        ["total_cost", "total_latency_ms", "verified"]
    ].mean()
    rows = []
    for domain in sorted(attempts["domain"].unique()):
        if (domain, "gold") not in per_task.index.droplevel(2):
            continue
        gold = per_task.loc[(domain, "gold")]
        for name in ("route", "detour", "other"):  # `format` plays gold's own calls
            if (domain, name) not in per_task.index.droplevel(2):
                continue
            other = per_task.loc[(domain, name)]
            shared = gold.index.intersection(other.index)
            if not len(shared):
                continue
            g, o = gold.loc[shared], other.loc[shared]
            rows.append(
                {
                    "domain": domain,
                    "kind": name,
                    "tasks": len(shared),
                    "gold_cost": float(g["total_cost"].mean()),
                    "cost": float(o["total_cost"].mean()),
                    "gold_latency_s": float(g["total_latency_ms"].mean()) / 1000,
                    "latency_s": float(o["total_latency_ms"].mean()) / 1000,
                    "verified": float(o["verified"].mean()),
                }
            )
    return rows
