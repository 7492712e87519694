"""The synthesize section of the data card: loadable configs, the funnel, the solver band, the
endpoints' requests and tokens, all read from run.json (`toolscale.publish.card` renders it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from huggingface_hub import DatasetCardData

from toolscale.stats.yields import STAGES
from toolscale.write.output import Output

CONFIGS = ("tasks", "rejected_tasks", "worlds")
_LABELS = {
    "proposed": "proposed",
    "grounded": "grounded (the proposer did not decline)",
    "well_formed": "well-formed (parses, real tools, valid arguments)",
    "executes": "executes (gold succeeds; a write changes the state; facts sourced; ids given)",
    "not_trivial": "not trivial (doing nothing fails)",
    "unique": "unique (no near-duplicate, not contaminated)",
    "solvable": "solvable (solved in at least 1 of K solver attempts): accepted",
}


def _funnel(yields: dict[str, Any]) -> list[tuple[str, int, str]]:
    first = yields["proposed"] or 1
    return [(_LABELS[s], yields[s], f"{yields[s] / first:.0%}") for s in STAGES]


def card_data(root: Path, license_id: str) -> DatasetCardData:
    output = Output(root)
    loadable = [c for c in CONFIGS if output.row_count(c)]
    return DatasetCardData(
        license=license_id,
        tags=["tool-use", "synthetic", "toolscale"],
        configs=[
            {"config_name": c, "data_files": [{"split": "train", "path": f"data/{c}/*.parquet"}]}
            for c in loadable
        ],
    )


def context(summary: dict[str, Any]) -> dict[str, Any]:
    """What data_cards/synthesize.md shows."""
    config = summary["config"]
    synthesis = summary.get("synthesis") or {}
    found: dict[str, Any] = {
        "title": f"Synthesized tasks: {', '.join(config['domains'])}",
        "status": summary["status"],
        "model": synthesis.get("models", {}).get("proposer") or config.get("model"),
        "solver_attempts": config["solver_attempts"],
        "shard": config.get("shard"),
        "synthesis": bool(synthesis),
    }
    if not synthesis:
        return found
    yields, k = synthesis["yields"], synthesis["solver_attempts"]
    cost = synthesis["cost"]
    found |= {
        "funnel": _funnel(yields),
        "band": (
            f"Accepted tasks solved 1..{k - 1} of {k} times (the band RL learns from most): "
            f"{yields['band']}."
            if k > 1
            else "One solver attempt per task (K = 1): no band."
        ),
        "yields": yields,
        "rejected_by_stage": ", ".join(
            f"{s} {n}" for s, n in sorted(yields["rejected_by_stage"].items())
        ),
        "passes": ", ".join(f"{p}: {n}" for p, n in sorted(yields["passes"].items())),
        "cost": cost,
        "per": cost["per_accepted_task"],
        "endpoints_json": json.dumps(summary.get("endpoints", {}), indent=2, sort_keys=True),
    }
    return found
