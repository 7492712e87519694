"""The dataset card of a synthesize output: loadable configs, the funnel, the solver band, the
endpoints' requests and tokens, and the resolved config, all read from run.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolscale.stats.synthesize import STAGES
from toolscale.write.output import Output, atomic_write

CONFIGS = ("tasks", "rejected_tasks", "worlds")
_LABELS = {
    "proposed": "proposed",
    "well_formed": "well-formed (parses, real tools, valid arguments)",
    "executes": "executes (gold succeeds; a write changes the state)",
    "not_trivial": "not trivial (doing nothing fails)",
    "unique": "unique (no near-duplicate, not contaminated)",
    "solvable": "solvable (solved in at least 1 of K solver attempts): accepted",
}


def _funnel(yields: dict[str, Any]) -> list[str]:
    first = yields["proposed"] or 1
    rows = [f"| {_LABELS[s]} | {yields[s]} | {yields[s] / first:.0%} |" for s in STAGES]
    return ["| stage | candidates | of proposed |", "|---|---:|---:|", *rows]


def render(root: Path, summary: dict[str, Any]) -> str:
    output = Output(root)
    loadable = [c for c in CONFIGS if output.row_count(c)]
    configs = "".join(
        f"- config_name: {c}\n  data_files:\n  - split: train\n    path: data/{c}/*.parquet\n"
        for c in loadable
    )
    config = summary["config"]
    synthesis = summary.get("synthesis") or {}
    model = synthesis.get("models", {}).get("proposer") or config.get("model")
    lines = [
        "---",
        *(["configs:", configs.rstrip("\n")] if configs else []),
        "tags:\n- tool-use\n- synthetic\n- toolscale",
        "---",
        "",
        f"# Synthesized tasks: {', '.join(config['domains'])}",
        "",
        f"Made by `toolscale synthesize` (status: {summary['status']}). An LLM "
        f"(`{model}`) proposed user intents and one task per intent (a user "
        "scenario, gold actions, facts to communicate); each candidate was kept only if it is "
        "well-formed, its gold actions execute in the sandbox (and change the state when it "
        "asks for a change), doing nothing fails it, it is no near-duplicate (MinHash) of an "
        f"earlier one, and a solver solved it at least once in {config['solver_attempts']} "
        "attempts. `rejected_tasks` holds every rejected candidate with its stage and reasons.",
    ]
    if config.get("shard"):
        lines += [
            "",
            f"This is shard {config['shard']} of a run: its candidates are not yet checked "
            "against each other for near-duplicates (a twin may be in another shard). "
            "`toolscale merge` the run's shards for the de-duplicated dataset.",
        ]
    if synthesis:
        yields = synthesis["yields"]
        k = synthesis["solver_attempts"]
        lines += ["", "## Funnel", "", *_funnel(yields), ""]
        band = (
            f"Accepted tasks solved 1..{k - 1} of {k} times (the band RL learns from most): "
            f"{yields['band']}."
            if k > 1
            else "One solver attempt per task (K = 1): no band."
        )
        lines.append(
            f"Intents: {yields['intents_received']} received of {yields['intents_requested']} "
            f"asked. {band}"
        )
        if yields["rejected_by_stage"]:
            lines += [
                "",
                "Rejected by stage: "
                + ", ".join(f"{s} {n}" for s, n in sorted(yields["rejected_by_stage"].items()))
                + ".",
            ]
        if yields["passes"]:
            lines += [
                "",
                "Solver passes (passes/attempts: candidates): "
                + ", ".join(f"{p}: {n}" for p, n in sorted(yields["passes"].items()))
                + ".",
            ]
        cost = synthesis["cost"]
        per = cost["per_accepted_task"]
        lines += [
            "",
            "## Cost",
            "",
            f"{cost['requests_sent']} requests sent, {cost['tokens']} tokens, "
            f"{cost['wall_s']} s wall time"
            + (
                f"; per accepted task {per['requests']} requests, {per['tokens']} tokens, "
                f"{per['wall_s']} s."
                if per
                else "; no task accepted."
            ),
            "",
            "```json",
            json.dumps(summary.get("endpoints", {}), indent=2, sort_keys=True),
            "```",
        ]
    lines += [
        "",
        "## Configuration",
        "",
        "```json",
        json.dumps(config, indent=2, sort_keys=True),
        "```",
        "",
        "Play the accepted tasks with any teacher: `toolscale generate --tasks-from OUT ...`.",
        "",
    ]
    return "\n".join(lines)


def write_card(root: Path, summary: dict[str, Any]) -> Path:
    path = root / "README.md"
    atomic_write(path, render(root, summary).encode("utf-8"))
    return path
