"""`toolscale card`: render OUT/README.md, the Hub dataset card, from run.json and the data.

One renderer for every output: `data_cards/template.md` (Jinja2) holds what every card has (the
metadata, the configuration, licence, citation) and includes the section of the command that
made the output, `data_cards/generate.md` (with its tau2 lines among the limitations) or
`data_cards/synthesize.md`. The numbers come from `toolscale.stats.card_numbers` (generate) or
run.json (synthesize), the plots from `toolscale.publish.card_plots`. The YAML lists a `configs:`
entry for every config with rows, so `datasets.load_dataset(OUT, config)` and the Hub viewer
work; a config without rows is left out because `datasets` cannot load an empty split. Loading
examples name the repository id when one is given (`toolscale push` does), otherwise the folder's
own name (a path relative to the folder above it, right wherever the folder is moved).
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2
from huggingface_hub import DatasetCard, DatasetCardData

from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain, names
from toolscale.publish import card_synthesize
from toolscale.publish.card_config import changed_options
from toolscale.publish.card_lengths import APPROXIMATION, Lengths, per_domain, tokenizer_count
from toolscale.publish.card_plots import draw
from toolscale.sandbox.guard import code_tools
from toolscale.stats.card_numbers import CardStats, collect
from toolscale.stats.numbers import Summary
from toolscale.stats.routes import Routing
from toolscale.tau2.report import card_lines
from toolscale.write.features import CONFIGS, FEATURES, GLOSSARY
from toolscale.write.output import atomic_write

_SIZES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"))
_TEMPLATES = jinja2.Environment(
    loader=jinja2.FunctionLoader(
        lambda name: files("data_cards").joinpath(name).read_text(encoding="utf-8")
    ),
    keep_trailing_newline=True,
    undefined=jinja2.StrictUndefined,
)


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
    """The YAML header: licence, tags, size and a `configs:` entry per config with rows. No
    `dataset_info`: the Parquet files carry their Features, and the card's column glossary says
    what each column is."""
    return DatasetCardData(
        license=license_id,
        pretty_name=title,
        language=["en"],
        task_categories=["text-generation"],
        tags=["tool-use", "function-calling", "agents", "synthetic", "toolscale"],
        size_categories=[size_category(sum(stats.rows.values()))],
        configs=[
            {"config_name": c, "data_files": [{"split": "train", "path": f"data/{c}/*.parquet"}]}
            for c in CONFIGS
            if stats.rows[c]
        ],
    )


def limitations(stats: CardStats) -> list[str]:
    run = stats.run
    found = []
    if run.get("config", {}).get("teacher") == "reference":
        found.append(
            "The reference teacher played the traces (gold, and with detours the other routes and "
            "scripted mistakes): not the variety of a language model."
        )
    if any(e.get("backend") == "simulated" for e in run.get("experts", {}).values()):
        found.append(
            "Experts (model tools) are simulated: right with the probability their skill profile "
            "gives the question, billed for the tokens they write."
        )
    if all_synthetic({d["domain"] for d in stats.domains}):
        found.append(
            "Databases, people, entities and documents are synthetic (seeded generators); their "
            "facts are fictional."
        )
    if not stats.rows["rejected"]:
        found.append("No attempt failed, so there are no negatives (`rejected` is empty).")
    found += card_lines(run)  # tau2 domains: which of tau2's reward components were applied
    found.append(f"Tool calls ran under this isolation: {run.get('isolation', 'not recorded')}.")
    installed = names()
    if code_tools(d["domain"] for d in stats.domains if d["domain"] in installed):
        found.append(
            "A model's code always ran in the sandbox; the domains' own route programs (the "
            "oracle's and the reference teacher's) ran in the sandbox worker where that gives "
            "the sandbox's output (`toolscale.sandbox.own`)."
        )
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
        (
            name,
            {k: number(v, 3 if abs(v) < 100 else 0) for k, v in vars(s).items()}
            | {"count": str(s.count)},
        )
        for name, s in found.items()
    ]


def user(run: dict[str, Any]) -> str:
    config = run.get("config", {})
    if config.get("user_model"):
        where = config.get("user_base_url") or "the teacher's endpoint"
        return f"Users were simulated by the model `{config['user_model']}` ({where})."
    return (
        "Users are scripted (no LLM) from each task's `user_scenario`: they give what they know "
        "when asked, confirm or decline proposals, never name a tool, and some act as callers "
        "do (`user_scenario.behaviour`: decline an unasked offer, correct a misread detail, "
        "give details piecemeal, change their request)."
    )


def few(names: list[str], shown: int = 3) -> str:
    """How many names, and the first few: `23: a, b, c, ...`."""
    more = ", ..." if len(names) > shown else ""
    return f"{len(names)}: {', '.join(names[:shown])}{more}"


def routing_row(table: Routing) -> dict[str, Any]:
    """One domain's oracle line: the oracle's mean reward, the expected-reward oracle's and the
    best fixed route's (each as a share of the oracle's), how often the two oracles differ, and
    the routes most often best."""

    def of_oracle(mean: float | None) -> str:
        if mean is None:
            return "n/a"
        share = f" ({100 * mean / table.oracle_mean:.0f}%)" if table.oracle_mean else ""
        return f"{mean:.3f}{share}"

    policy, mean = next(iter(table.fixed.items()), ("n/a", None))
    best = sorted(table.best, key=lambda r: (-table.best[r], r))[:3]
    return {
        "domain": table.domain,
        "tasks": table.tasks,
        "oracle": f"{table.oracle_mean:.3f}",
        "expected": of_oracle(table.expected_mean),
        "fixed": f"{policy.removeprefix('always ')}: {of_oracle(mean)}",
        "differ": f"{100 * table.differ / table.tasks:.0f}%",
        "best_on": ", ".join(f"{r} {100 * table.share(r):.0f}%" for r in best),
    }


def domain_table(stats: CardStats, lengths: dict[str, Lengths]) -> list[dict[str, Any]]:
    """The card's one row per domain: counts, token lengths, reward groups that vary."""
    varied = {g["domain"]: g for g in stats.economics["group_spread"]}
    rows = []
    for d in stats.domains:
        n = lengths.get(d["domain"])
        g = varied.get(d["domain"])
        rows.append(
            d
            | {
                "templates": len(d["templates"]),
                "tools": d["tools"],
                "prompt": f"{n.prompt_p50} / {n.prompt_max}" if n else "n/a",
                "completion": f"{n.completion_p50} / {n.completion_max}" if n else "n/a",
                "varied": f"{g['varied']} of {g['groups']}" if g else "n/a",
            }
        )
    return rows


def glossary(loadable: list[str]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The columns of the configs with rows, each defined once (where it first appears), with
    the text the Parquet columns carry (`toolscale.write.features.GLOSSARY`)."""
    groups = [("tasks", ["tasks"]), ("traces, rejected, user_faults",
              ["traces", "rejected", "user_faults"]), ("worlds", ["worlds"])]  # fmt: skip
    seen: set[str] = set()
    found = []
    for label, configs in groups:
        shown = [c for c in configs if c in loadable]
        names = [n for c in shown for n in FEATURES[c] if n not in seen]
        names = list(dict.fromkeys(names))
        seen.update(names)
        if names:
            found.append((", ".join(shown) if label != "tasks" else label,
                          [(n, GLOSSARY[n]) for n in names]))  # fmt: skip
    return found


def versions(run: dict[str, Any]) -> str:
    found = run.get("versions", {})
    shown_ = [f"{k} {v}" for k, v in sorted(found.items()) if k != "toolscale_commit"]
    commit = found.get("toolscale_commit", "not recorded")
    return f"{', '.join(shown_)}; toolscale commit {commit}"


def generate_context(
    stats: CardStats,
    repo_id: str,
    plots: list[dict[str, str]],
    lengths: dict[str, Lengths],
    lengths_how: str,
) -> dict:
    run = stats.run
    cost = dict(stats.cost)
    verified = stats.rows["traces"]
    for key in ("teacher_usd", "teacher_latency_s", "expert_tokens", "tool_cost"):
        total = cost[key]
        cost[f"{key}_per_trace"] = total / verified if verified and total is not None else None
    loadable = [c for c in CONFIGS if stats.rows[c]]
    attempts = stats.rows["traces"] + stats.rows["rejected"]
    return {
        "kind": "generate",
        "repo_id": repo_id,
        "local": "/" not in repo_id,
        "status": run.get("status", "unknown"),
        "teacher": run.get("config", {}).get("teacher", "unknown"),
        "rows": stats.rows,
        "bytes": stats.bytes,
        "loadable": loadable,
        "empty_configs": ", ".join(f"`{c}`" for c in CONFIGS if c not in loadable),
        "reward_columns": bool(stats.rewards),
        "domains": domain_table(stats, lengths),
        "lengths_how": lengths_how,
        "longest": max((n.longest for n in lengths.values()), default=0),
        "stateful": any(d["family"] == "stateful" for d in stats.domains),
        "orchestration": ", ".join(d["domain"] for d in stats.domains if d["family"] != "stateful"),
        "user": user(run),
        "variants": [v | {"variants": few(v["variants"])} for v in stats.variants],
        "routing": [routing_row(r) for r in stats.routing],
        "same_tasks": [
            {**c, **{k: f"{c[k]:.3g}" for k in ("gold_cost", "cost")}}
            | {k: f"{c[k]:.1f}" for k in ("gold_latency_s", "latency_s")}
            | {"verified": f"{100 * c['verified']:.0f}%"}
            for c in stats.same_tasks
        ],
        "experts": sorted(run.get("experts", {}).items()),
        "funnel": stats.funnel,
        "rejected_by_stage": sorted(stats.rejected_by_stage.items()),
        "efficiency": summaries(stats.efficiency),
        "rewards": summaries(stats.rewards),
        "plots": plots,
        "economics": stats.economics,
        "preferences": [(k, sorted(v.items())) for k, v in sorted(stats.preferences.items())],
        "attempts": attempts,
        "cost": {k: number(v) for k, v in cost.items()},
        "glossary": glossary(loadable),
        "limitations": limitations(stats),
    }


def render(data: DatasetCardData, context: dict[str, Any]) -> str:
    text = _TEMPLATES.get_template("template.md").render(
        card_data=data.to_yaml(), **data.to_dict(), **context
    )
    return str(DatasetCard(text))


def card(
    out: Path | str,
    repo_id: str | None = None,
    license_id: str = "apache-2.0",
    tokenizer: Path | str | None = None,
) -> Path:
    """(Re)write OUT/README.md and its plots from OUT/run.json and the shards; return the path.

    Args:
        out: A toolscale output folder (of generate, merge or synthesize).
        repo_id: The Hub id the card's loading examples use; the folder's name (a path relative
            to the folder that holds it) when None.
        license_id: The dataset's licence, as a Hub licence identifier.
        tokenizer: A local tokenizer folder (the trainer's model) to count the card's prompt and
            completion tokens with; None estimates them as characters / 4.
    """
    out = Path(out)
    if not out.is_dir():
        what = "is a file, not a folder" if out.exists() else "does not exist"
        raise ConfigError(f"{out} {what}; give the --out folder of a generate run")
    run_path = out / "run.json"
    run = json.loads(run_path.read_text()) if run_path.is_file() else {}
    common = {
        "toolscale_version": run.get("versions", {}).get("toolscale", "unknown"),
        "versions": versions(run),
        "configuration": changed_options(run.get("command", "generate"), run.get("config", {})),
        "teacher_terms": teacher_terms(run),
        # Model-written code ran below full isolation (an explicit --isolation): shown first.
        "isolation": run.get("isolation", "not recorded"),
        "isolation_warning": run.get("isolation_warning"),
    }
    if run.get("command") == "synthesize":  # tasks only: the funnel, no traces
        section = card_synthesize.context(run)
        data = card_synthesize.card_data(out, license_id)
        context = {"kind": "synthesize", "title": section["title"], "s": section}
        context |= {"stateful": True, "teacher_terms": ""}
    else:
        stats = collect(out)
        names = [d["domain"] for d in stats.domains]
        shown = ", ".join(names) if len(names) <= 4 else f"{len(names)} domains"
        title = f"toolscale dataset: {shown}"
        data = card_data(stats, license_id, title)
        where = repo_id or out.resolve().name  # a relative path: `datasets` needs a folder name
        count, how = tokenizer_count(Path(tokenizer)) if tokenizer else (None, APPROXIMATION)
        lengths = per_domain(out, count)
        plots = draw(out, stats)
        context = {"title": title} | generate_context(stats, where, plots, lengths, how)
    path = out / "README.md"
    atomic_write(path, render(data, common | context).encode("utf-8"))
    return path
