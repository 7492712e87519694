"""`toolscale synthesize-domain`: check the options, write each topic's domain, keep what passes.

For each topic (this shard's: every N-th from I), unless a previous run in DIR finished it, the
model writes a spec and the five files (`author`), the gates run in the sandbox (`gates`), and
the topic's folder and marker are written (`outputs`). run.json holds the resolved config, the
funnel (how many topics passed each stage), the rejections by stage, the tokens and dollars per
request kind, per proposed and per accepted domain, and each topic's record. Bad options fail
before DIR is touched or a request is sent, an endpoint that does not answer before DIR is
touched; a spent `--max-cost-usd` stops the run after the last finished topic (`BudgetStop`,
`toolscale.pipeline.driver`; continue with `--resume`, cached answers cost nothing).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from toolscale.config.option import from_options
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain, registered
from toolscale.domaingen import outputs
from toolscale.domaingen.author import Author, Usage
from toolscale.domaingen.config import COMMAND, DomainGenConfig, check_domaingen, slug
from toolscale.domaingen.endpoint import author_pool, example
from toolscale.domaingen.gates import STAGES
from toolscale.domaingen.similar import shingles
from toolscale.llm.ledger import BudgetExhausted, StopRun
from toolscale.llm.probe import probe
from toolscale.pipeline.driver import STOP_REASON, Command, local_endpoint, open_output
from toolscale.write.output import MARKER, write_json

FUNNEL = ("proposed", "spec", "files", *STAGES)
KIT_DOC = Path(__file__).resolve().parents[2] / "docs" / "kit.md"


SYNTHESIZE_DOMAIN_COMMAND = Command(
    COMMAND, DomainGenConfig.RESUME_KEYS, ("domaingen", STOP_REASON), "finished topics"
)


def funnel(records: list[dict[str, Any]]) -> dict[str, int]:
    """How many topics passed each stage ("proposed": all; "accepted": every gate)."""
    order = FUNNEL[1:]
    reached = [len(order) if r["accepted"] else order.index(r["stage"]) for r in records]
    counts = {"proposed": len(records)}
    counts |= {stage: sum(k > i for k in reached) for i, stage in enumerate(order)}
    return counts | {"accepted": sum(r["accepted"] for r in records)}


def cost(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Tokens and dollars by request kind, and per proposed and per accepted domain."""
    kinds: dict[str, dict[str, float]] = {}
    for r in records:
        for kind, row in r["usage"].items():
            into = kinds.setdefault(kind, dict.fromkeys(row, 0))
            for key, value in row.items():
                into[key] = round(into[key] + value, 9)
    usd = round(sum(row["usd"] for row in kinds.values()), 9)
    tokens = sum(row["prompt_tokens"] + row["completion_tokens"] for row in kinds.values())
    accepted = sum(r["accepted"] for r in records)
    per = {"usd": usd / len(records), "tokens": tokens / len(records)} if records else None
    return {
        "by_request": kinds,
        "usd": usd,
        "tokens": tokens,
        "per_proposed": per,
        "per_accepted": {"usd": usd / accepted, "tokens": tokens / accepted} if accepted else None,
    }


def report(records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """run.json's `domaingen` section of the topics' records (by name): the funnel, the
    rejections by stage, the cost and the records (without their signatures)."""
    rows = list(records.values())
    rejected: dict[str, int] = {}
    for r in rows:
        if not r["accepted"]:
            rejected[r["stage"]] = rejected.get(r["stage"], 0) + 1
    topics = {n: {k: v for k, v in r.items() if k != "shingles"} for n, r in records.items()}
    section = {"funnel": funnel(rows), "rejected_by_stage": rejected, "cost": cost(rows)}
    return section | {"topics": topics}


def summary(
    config: DomainGenConfig, status: str, records: dict[str, dict[str, Any]], extra: dict[str, Any]
) -> dict[str, Any]:
    sections = {"domaingen": report(records) | extra}
    return SYNTHESIZE_DOMAIN_COMMAND.run_json(config, status, sections)


def references() -> dict[str, set[str]]:
    """The shingles of every installed stateful domain (trusted code, imported here)."""
    return {
        name: shingles(get_domain(name).toolkit.schemas())
        for name, cls in registered().items()
        if cls.family == "stateful"
    }


async def _run(
    config: DomainGenConfig, topics: list[str], records: dict[str, dict[str, Any]],
    local: tuple[str, str] | None,
) -> tuple[str, str, dict[str, Any]]:  # fmt: skip
    authors = author_pool(config, config.out / MARKER / "cache", local)
    pool = authors.pool
    if local is not None:
        await probe(authors.clients)
    shown = example(config.example)
    others = references()
    others |= {n: set(r["shingles"]) for n, r in records.items() if r["accepted"]}
    work = config.out / MARKER / "work"
    status, reason = "complete", ""
    try:
        for topic in topics:
            name = slug(topic)
            if name in records:
                continue
            usage = Usage(config.teacher_price_in, config.teacher_price_out)
            author = Author(config, pool, usage, KIT_DOC.read_text("utf-8"),
                            (config.example, shown), work / name)  # fmt: skip
            result = await author.write(topic, name, others)
            records[name] = outputs.write_topic(config.out, result, usage.kinds)
            if result.stage == "accepted":
                others[name] = result.shingles
            outputs.write_index(config.out, records)
    except StopRun as stop:
        status = "budget_exhausted" if isinstance(stop, BudgetExhausted) else "stopped"
        reason = str(stop)
    finally:
        await authors.aclose()
        endpoints = {"author": pool.summary()}
    return status, reason, endpoints


def synthesize_domain(config: DomainGenConfig | None = None, **options: Any) -> dict[str, Any]:
    """Run `toolscale synthesize-domain` to completion; returns the summary also written to
    DIR/run.json. `config`, or `options` named as the command's flags (underscores for dashes).
    Raises ConfigError before anything is sent for bad options, BudgetStop at --max-cost-usd."""
    if config is None:
        config = from_options(DomainGenConfig, options, "synthesize-domain")
    config = check_domaingen(config)
    if not KIT_DOC.is_file():
        raise ConfigError(f"{KIT_DOC} (the kit's documentation the model reads) is missing")
    topics = list(config.topics) if config.shard is None else config.shard.pick(config.topics)
    output = open_output(
        SYNTHESIZE_DOMAIN_COMMAND,
        config,
        lambda: author_pool(config, config.out / MARKER / "cache", None),
    )
    records = {n: r for n, r in outputs.done(config.out).items() if n in map(slug, topics)}
    write_json(config.out / "run.json", summary(config, "running", records, {}))
    started = time.perf_counter()
    with local_endpoint(config) as local:
        status, reason, endpoints = asyncio.run(_run(config, topics, records, local))
    extra = {"wall_s": round(time.perf_counter() - started, 3), "endpoints": endpoints}
    result = summary(config, status, records, extra)
    if reason:
        result[STOP_REASON] = reason
    write_json(output.root / "run.json", result)
    return SYNTHESIZE_DOMAIN_COMMAND.end(result)
