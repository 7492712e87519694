"""Every number a data card shows, computed from the output's parquet shards and its run.json.

Nothing here is typed by hand: yields come from the rows (and are cross-checked against the
counts run.json recorded), distributions from the trace columns, costs from the token and cost
columns. Columns that another part of toolscale adds later (reward components, preference
fields) are picked up by name when they exist and simply absent when they do not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from datasets import Features

from toolscale.core.errors import ConfigError
from toolscale.stats import economics, variants
from toolscale.stats.numbers import Summary, summarize
from toolscale.stats.routes import Routing, routing
from toolscale.write.features import CONFIGS, FEATURES

# Trace columns whose distribution over verified traces the card shows.
EFFICIENCY_COLUMNS = (
    "num_tool_calls",
    "num_turns",
    "cost",
    "latency_ms",
)
# Failure stages that end an attempt before its calls count as executed.
_NOT_EXECUTED = ("teacher", "format", "execution")


@dataclass(frozen=True)
class CardStats:
    run: dict[str, Any]
    rows: dict[str, int]
    bytes: dict[str, int]
    features: dict[str, Features]
    funnel: list[tuple[str, int, str]]
    rejected_by_stage: dict[str, int]
    domains: list[dict[str, Any]]
    efficiency: dict[str, Summary]
    rewards: dict[str, Summary]
    preferences: dict[str, dict[str, int]]
    economics: dict[str, Any]
    cost: dict[str, Any]
    traces: pd.DataFrame
    tasks: pd.DataFrame
    attempts: pd.DataFrame  # traces and rejected, each with its variant's `kind`
    variants: list[dict[str, Any]]
    same_tasks: list[dict[str, Any]]
    routing: list[Routing]


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def summarize_column(values: pd.Series) -> Summary:
    return summarize(values.dropna().astype(float))


def read_config(root: Path, config: str) -> tuple[pd.DataFrame, Features, int]:
    """All rows of one config, its Features (from the shards, so added columns show) and its
    size in bytes on disk."""
    shards = sorted((root / "data" / config).glob("*.parquet"))
    tables = [pq.read_table(p) for p in shards]
    if not tables:
        return pd.DataFrame(), FEATURES[config], 0
    table = pa.concat_tables(tables, promote_options="default")
    features = Features.from_arrow_schema(tables[0].schema)
    return table.to_pandas(), features, sum(p.stat().st_size for p in shards)


def funnel(tasks: pd.DataFrame, attempts: pd.DataFrame, planned: int) -> list[tuple[str, int, str]]:
    """(stage, count, share): planned -> sampled tasks; attempts -> executed -> grounded ->
    verified, as shares of the attempts; then, when there are any, the attempts the simulated
    user broke (`user_faults`, stage "user": grounded, never judged on their outcome)."""
    stages = attempts["failure_stage"] if len(attempts) else pd.Series(dtype=str)
    verified = int(attempts["verified"].sum()) if len(attempts) else 0
    executed = len(attempts) - int(stages.isin(_NOT_EXECUTED).sum())
    grounded = executed - int((stages == "grounding").sum())
    total = len(attempts)
    broke = int((stages == "user").sum())
    shown = [
        ("planned", planned, percent(planned, planned)),
        ("sampled", len(tasks), percent(len(tasks), planned)),
        ("attempts", total, percent(total, total)),
        ("executed", executed, percent(executed, total)),
        ("grounded", grounded, percent(grounded, total)),
        ("verified", verified, percent(verified, total)),
    ]
    return shown + ([("user_faults", broke, percent(broke, total))] if broke else [])


def domain_rows(tasks: pd.DataFrame, attempts: pd.DataFrame) -> list[dict[str, Any]]:
    rows = []
    for domain, group in tasks.groupby("domain", sort=True):
        mine = attempts[attempts["domain"] == domain] if len(attempts) else attempts
        ok = mine[mine["verified"]] if len(mine) else mine
        tools = {t["function"]["name"] for spec in group["tools"] for t in json.loads(spec)}
        gold = mine[mine["variant"] == "gold"] if len(mine) else mine
        solved = ok["task_id"].nunique() if len(ok) else 0
        rows.append(
            {
                "domain": domain,
                "family": group["family"].iloc[0],
                "tools": len(tools),
                "tasks": len(group),
                "verified": len(ok),
                "rejected": len(mine) - len(ok),
                "solved": percent(solved, len(group)),
                "gold": percent(int(gold["verified"].sum()), len(gold)) if len(gold) else "n/a",
                "mean_calls": f"{ok['num_tool_calls'].mean():.2f}" if len(ok) else "n/a",
                "templates": sorted(group["template"].value_counts().items()),
            }
        )
    return rows


def cost_summary(run: dict[str, Any], attempts: pd.DataFrame, verified: int) -> dict[str, Any]:
    """Spending over every attempt (rejected ones cost too), and per accepted trace."""

    def total(column: str) -> float:
        return float(attempts[column].sum()) if len(attempts) and column in attempts else 0.0

    teacher_tokens = int(total("teacher_prompt_tokens") + total("teacher_completion_tokens"))
    expert_tokens = 0
    if len(attempts):
        expert_tokens = int(
            sum(
                c["prompt_tokens"] + c["completion_tokens"]
                for r in attempts["tool_calls"]
                for c in r
            )
        )
    tool_cost = total("cost")
    # The labels price the teacher's tokens per trace (`teacher_cost`); a run without that
    # column, or with tokens but no price, has no $ figure for the teacher.
    teacher_usd: float | None = None
    if len(attempts) and "teacher_cost" in attempts:
        teacher_usd = total("teacher_cost")
    elif teacher_tokens == 0:
        teacher_usd = 0.0
    return {
        "teacher_tokens": teacher_tokens,
        "teacher_tokens_per_trace": teacher_tokens / verified if verified else None,
        "teacher_usd": teacher_usd,
        "expert_tokens": expert_tokens,
        "tool_cost": tool_cost,
        "tool_cost_per_trace": tool_cost / verified if verified else None,
        "teacher_latency_s": total("teacher_latency_ms") / 1000,
    }


def numeric_columns(frame: pd.DataFrame, prefixes: tuple[str, ...]) -> list[str]:
    return [
        c
        for c in frame.columns
        if c.startswith(prefixes) and pd.api.types.is_numeric_dtype(frame[c])
    ]


def preference_counts(frames: list[pd.DataFrame]) -> dict[str, dict[str, int]]:
    """Value counts of every string column named preference* (e.g. a profile name)."""
    found: dict[str, dict[str, int]] = {}
    for frame in frames:
        for column in frame.columns:
            if column.startswith("preference") and frame[column].dtype == object:
                values = frame[column].dropna()
                if len(values) and isinstance(values.iloc[0], str):
                    found[column] = {str(k): int(v) for k, v in values.value_counts().items()}
    return found


def check_against_run(run: dict[str, Any], counted: dict[str, int]) -> None:
    """A complete run's recorded counts must equal the rows: a card never shows numbers that the
    data does not support."""
    if run.get("status") != "complete":
        return
    recorded = run.get("counts", {})
    for stage, count in counted.items():
        if stage in recorded and recorded[stage] != count:
            raise ConfigError(
                f"run.json records {recorded[stage]} {stage} but the data holds {count}; run "
                "`toolscale validate` and regenerate the missing chunks before writing a card"
            )


def collect(root: Path) -> CardStats:
    """Read OUT/run.json and every shard; compute every number the card shows."""
    run_path = root / "run.json"
    if not run_path.is_file():
        raise ConfigError(f"{root} has no run.json; give the --out folder of a generate run")
    run = json.loads(run_path.read_text())
    frames: dict[str, pd.DataFrame] = {}
    features: dict[str, Features] = {}
    sizes: dict[str, int] = {}
    for config in CONFIGS:
        frames[config], features[config], sizes[config] = read_config(root, config)
    tasks = frames["tasks"]
    if tasks.empty:
        raise ConfigError(f"{root} holds no tasks; nothing to describe")
    parts = [f for f in (frames["traces"], frames["rejected"]) if len(f)]
    attempts = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    attempts = variants.with_kinds(tasks, attempts)
    broken = frames["user_faults"]  # attempted, never judged on their outcome: in the funnel
    played = pd.concat([f for f in (attempts, broken) if len(f)], ignore_index=True)
    planned = int(run.get("config", {}).get("num_tasks", len(tasks)))
    stages = funnel(tasks, played if len(played) else attempts, planned)
    check_against_run(run, {name: count for name, count, _ in stages if name != "planned"})
    traces = frames["traces"]
    rejected = frames["rejected"]
    return CardStats(
        run=run,
        rows={c: len(f) for c, f in frames.items()},
        bytes=sizes,
        features=features,
        funnel=stages,
        rejected_by_stage=(
            {
                str(k): int(v)
                for k, v in rejected["failure_stage"].value_counts().sort_index().items()
            }
            if len(rejected)
            else {}
        ),
        domains=domain_rows(tasks, attempts),
        efficiency={c: summarize_column(traces[c]) for c in EFFICIENCY_COLUMNS if c in traces},
        rewards={
            c: summarize_column(traces[c])
            for c in numeric_columns(traces, ("reward_",))
            if len(traces)
        },
        preferences=preference_counts([tasks, traces]),
        economics={
            "schedules": economics.schedules(run, tasks),
            "group_spread": economics.group_spread(attempts),
            "gaming": economics.gaming(root),
        },
        cost=cost_summary(run, attempts, len(traces)),
        traces=traces,
        tasks=tasks,
        attempts=attempts,
        variants=variants.counts(attempts),
        same_tasks=variants.same_tasks(
            attempts.assign(domain="all") if len(attempts) else attempts
        ),
        routing=routing(tasks.to_dict("records")),
    )
