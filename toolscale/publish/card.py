"""`toolscale card`: render OUT/README.md, the Hub dataset card, from run.json and the data.

The card is `data_cards/template.md` (Jinja2, rendered by `huggingface_hub.DatasetCard`) filled
with the numbers of `toolscale.stats.card_numbers` and the plots of
`toolscale.publish.card_plots`. Its YAML lists a `configs:` entry for every config with rows, so
`datasets.load_dataset(OUT, config)` and the Hub viewer work; a config without rows is left out
because `datasets` cannot load an empty split.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

from datasets import DatasetInfo, SplitDict, SplitInfo
from datasets.info import DatasetInfosDict
from huggingface_hub import DatasetCard, DatasetCardData

from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain, names
from toolscale.publish.card_plots import draw
from toolscale.stats.card_numbers import EFFICIENCY_COLUMNS, CardStats, collect
from toolscale.stats.numbers import Summary
from toolscale.tau2.report import card_lines
from toolscale.write.features import CONFIGS
from toolscale.write.output import atomic_write

_SIZES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"))


def size_category(rows: int) -> str:
    return next((name for limit, name in _SIZES if rows < limit), "1M<n<10M")


def number(value: float | None, digits: int = 4) -> str:
    """Fixed decimals for floats, plain digits for whole numbers, n/a for missing values."""
    if value is None:
        return "n/a"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def card_data(stats: CardStats, license_id: str, title: str) -> DatasetCardData:
    loadable = [c for c in CONFIGS if stats.rows[c]]
    data = DatasetCardData(
        license=license_id,
        pretty_name=title,
        language=["en"],
        task_categories=["text-generation"],
        tags=["tool-use", "function-calling", "agents", "synthetic", "toolscale"],
        size_categories=[size_category(sum(stats.rows.values()))],
        configs=[
            {"config_name": c, "data_files": [{"split": "train", "path": f"data/{c}/*.parquet"}]}
            for c in loadable
        ],
    )
    DatasetInfosDict(
        {
            c: DatasetInfo(
                features=stats.features[c],
                splits=SplitDict(
                    {"train": SplitInfo("train", stats.bytes[c], stats.rows[c])}, dataset_name=c
                ),
            )
            for c in loadable
        }
    ).to_dataset_card_data(data)
    return data


def generation_rows(stats: CardStats) -> list[tuple[str, str]]:
    """Every resolved option (so an LLM teacher's model, endpoint and sampling settings show up
    as soon as run.json records them), then derived values and versions."""
    run = stats.run
    rows = [(f"config.{k}", json.dumps(v)) for k, v in sorted(run.get("config", {}).items())]
    attempts = stats.rows["traces"] + stats.rows["rejected"]
    rows.append(("attempts per task", number(attempts / stats.rows["tasks"], 2)))
    versions = run.get("versions", {})
    rows += [(f"version.{k}", str(v)) for k, v in sorted(versions.items())]
    if "toolscale_commit" not in versions:
        rows.append(("version.toolscale_commit", "not recorded"))
    rows += [
        ("sample failures", str(run.get("sample_failures", 0))),
        ("sandbox worker restarts", str(run.get("worker_restarts", 0))),
    ]
    return rows


def limitations(stats: CardStats) -> list[str]:
    run = stats.run
    found = []
    if run.get("config", {}).get("teacher") == "reference":
        found.append(
            "Traces were played by the reference teacher, which follows the gold actions (with "
            "detours: also alternative correct routes). They show correct tool use, not the "
            "variety or the mistakes of a language model."
        )
    if any(e.get("backend") == "simulated" for e in run.get("experts", {}).values()):
        found.append(
            "Model tools (experts) are simulated: each answers correctly with its stated "
            "accuracy and otherwise wrongly, and token counts are estimated from text."
        )
    if all_synthetic({d["domain"] for d in stats.domains}):
        found.append(
            "Databases, people, entities and documents are synthetic, drawn from seeded "
            "generators; facts in them are fictional."
        )
    if not stats.rows["rejected"]:
        found.append("No attempt failed, so there are no negatives (`rejected` is empty).")
    found += card_lines(run)  # tau2 domains: which of tau2's reward components were applied
    found.append(f"Tool calls ran under this isolation: {run.get('isolation', 'not recorded')}.")
    return found


def all_synthetic(domains: set[str]) -> bool:
    """Whether every domain is installed here and says its data is generated (Domain.synthetic);
    a domain that is not installed cannot say, so the card does not claim it."""
    installed = set(names())
    return bool(domains) and all(d in installed and get_domain(d).synthetic for d in domains)


def teacher_terms(run: dict[str, Any]) -> str:
    config = run.get("config", {})
    if config.get("teacher") == "reference":
        return (
            "No language model wrote the traces (reference teacher), so no model's terms of use "
            "apply to them."
        )
    model = config.get("model") or config.get("teacher")
    return (
        f"The traces were written by the teacher model `{model}`: its provider's terms of use "
        "apply to that model's outputs; check them before training on or redistributing them."
    )


def summaries(found: dict[str, Summary]) -> list[tuple[str, dict[str, str]]]:
    return [
        (name, {k: number(v) for k, v in vars(s).items()} | {"count": str(s.count)})
        for name, s in found.items()
    ]


def context(stats: CardStats, repo_id: str, plots: list[str]) -> dict[str, Any]:
    run = stats.run
    cost = dict(stats.cost)
    verified = stats.rows["traces"]
    for key in ("teacher_usd", "teacher_latency_s", "expert_tokens"):
        total = cost[key]
        cost[f"{key}_per_trace"] = total / verified if verified and total is not None else None
    loadable = [c for c in CONFIGS if stats.rows[c]]
    domains = [d["domain"] for d in stats.domains]
    return {
        "repo_id": repo_id,
        "status": run.get("status", "unknown"),
        "toolscale_version": run.get("versions", {}).get("toolscale", "unknown"),
        "teacher": run.get("config", {}).get("teacher", "unknown"),
        "domain_names": ", ".join(domains),
        "rows": stats.rows,
        "bytes": stats.bytes,
        "loadable": loadable,
        "empty_configs": ", ".join(f"`{c}`" for c in CONFIGS if c not in loadable),
        "reward_columns": bool(stats.rewards),
        "domains": stats.domains,
        "generation": generation_rows(stats),
        "experts": sorted(run.get("experts", {}).items()),
        "config_json": json.dumps(run.get("config", {}), indent=2, sort_keys=True),
        "funnel": stats.funnel,
        "rejected_by_stage": sorted(stats.rejected_by_stage.items()),
        "efficiency": summaries(stats.efficiency),
        "rewards": summaries(stats.rewards),
        "efficiency_plots": [p for p in plots if p.endswith("efficiency.png")],
        "reward_plots": [p for p in plots if p.endswith("rewards.png")],
        "preferences": [(k, sorted(v.items())) for k, v in sorted(stats.preferences.items())],
        "economics": stats.economics,
        "attempts": stats.rows["traces"] + stats.rows["rejected"],
        "cost": {k: number(v) for k, v in cost.items()},
        "isolation": run.get("isolation", "not recorded"),
        "limitations": limitations(stats),
        "teacher_terms": teacher_terms(run),
    }


def card(out: Path, repo_id: str | None = None, license_id: str = "apache-2.0") -> Path:
    """(Re)write OUT/README.md and its plots from OUT/run.json and the shards; return the path.

    Args:
        out: A toolscale output folder.
        repo_id: The Hub id the card's loading example uses; the folder path when None.
        license_id: The dataset's licence, as a Hub licence identifier.
    """
    if not out.is_dir():
        raise ConfigError(f"{out} does not exist; give the --out folder of a generate run")
    run = out / "run.json"
    summary = json.loads(run.read_text()) if run.is_file() else {}
    if summary.get("command") == "synthesize":  # its own card: the funnel, no traces
        from toolscale.publish.card_synthesize import write_card

        return write_card(out, summary)
    stats = collect(out)
    title = f"toolscale dataset: {', '.join(d['domain'] for d in stats.domains)}"
    rewards = list(stats.rewards)
    efficiency = [c for c in EFFICIENCY_COLUMNS if c in stats.efficiency]
    plots = draw(out, stats.traces, efficiency, rewards)
    template = files("data_cards").joinpath("template.md").read_text(encoding="utf-8")
    rendered = DatasetCard.from_template(
        card_data(stats, license_id, title),
        template_str=template,
        title=title,
        **context(stats, repo_id or str(out), plots),
    )
    path = out / "README.md"
    atomic_write(path, str(rendered).encode("utf-8"))
    return path
