"""`toolscale merge` of `synthesize --shard I/N` outputs: one output equal to the unsharded run.

Every shard proposed the same intents and worked on its own (index I modulo N) with their
evolved tasks, and solved every candidate that reached the near-duplicate step (a shard cannot
tell which are duplicates). Here that step runs over the union of the shards' candidates in
candidate order, as the unsharded run runs it (`dedup.first_of_groups`): a duplicate's row
(accepted or rejected by the solver in its shard) becomes the `duplicate` row the unsharded run
writes, naming the same earlier candidate, and the yields are each shard's yields before that
step plus each candidate's as kept or as a duplicate. So `tasks`, `rejected_tasks`, `worlds` and
run.json's funnel and yields equal the unsharded run's; the requests differ (every shard sent
the intents requests, and the solver played the duplicates), and so do `endpoints` and `cost`
(their sums over the shards). `toolscale.pipeline.merge` checks the inputs are one run and writes
DEST atomically, `toolscale.pipeline.inputs.check_shards` that every shard is there once and
finished; this module writes the rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolscale.pipeline.inputs import Input, add_numbers, check_shards, merged_from
from toolscale.publish.card import card
from toolscale.stats.yields import Yields
from toolscale.synthesize import dedup
from toolscale.synthesize.pipeline import CHUNK, DomainResult
from toolscale.synthesize.rows import duplicate_reason, rejected_row
from toolscale.synthesize.shards import ShardPart, read_part
from toolscale.synthesize.synthesis import CONFIGS, SynthesisState, report
from toolscale.write.output import Output, write_json

REDO = "run that shard again with synthesize --resume and its options, then merge again"


def _rows(item: Input, config: str, domain: str) -> list[dict[str, Any]]:
    return Output(item.root).read_shard(config, f"{domain}-{CHUNK}", fix=REDO).to_pylist()


def merge_domain(
    domain: str, parts: list[tuple[Input, ShardPart]], config: dict[str, Any]
) -> tuple[dict[str, list[dict[str, Any]]], Yields]:
    """The domain's rows and yields: the shards' rows, with the near-duplicate step re-run over
    all their candidates in candidate order."""
    rows = {name: [r for item, _ in parts for r in _rows(item, name, domain)] for name in CONFIGS}
    deferred = sorted(
        (c for _, part in parts for c in part.domains[domain].candidates), key=lambda c: c.index
    )
    twins = dedup.first_of_groups(
        ((str(c.index), set(c.tokens)) for c in deferred), config["dedup_threshold"]
    )
    yields = Yields()
    for _, part in parts:
        yields = yields + part.domains[domain].before_dedup
    duplicates = set()
    for c in deferred:
        twin = twins[str(c.index)]
        yields = yields + c.yields(duplicate=twin is not None)
        if twin is not None:
            duplicates.add(c.index)
            reason = duplicate_reason(twin)
            seed = config["seed"]
            row = rejected_row(
                domain, seed, c.index, "duplicate", [reason], c.intent, c.text, c.provenance
            )
            rows["rejected_tasks"].append(row)
    # A duplicate was solved in its shard: its task or solver row gives way to the duplicate row.
    rows["tasks"] = [r for r in rows["tasks"] if r["index"] not in duplicates]
    rows["rejected_tasks"] = [
        r
        for r in rows["rejected_tasks"]
        if not (r["index"] in duplicates and r["stage"] == "solver")
    ]
    rows["tasks"].sort(key=lambda row: row["index"])
    rows["rejected_tasks"].sort(key=lambda row: (row["index"], row["stage"]))
    rows["worlds"] = list({r["id"]: r for r in rows["worlds"]}.values())  # one per shard
    return rows, yields


def write(inputs: list[Input], config: dict[str, Any], root: Path) -> dict[str, Any]:
    """DEST's rows, run.json and card, written into `root`; returns run.json's content."""
    parts = [(item, read_part(item.root)) for item in check_shards(inputs, "synthesize")]
    output = Output(root)
    output.prepare(resume=False)
    state = SynthesisState()
    for domain in parts[0][1].domains:
        rows, yields = merge_domain(domain, parts, config)
        for name in CONFIGS:
            output.write_shard(name, f"{domain}-{CHUNK}", rows[name])
        problems = [
            p for item, _ in parts for p in item.run["synthesis"]["problems"].get(domain, [])
        ]
        state.results[domain] = DomainResult(yields=yields, problems=list(dict.fromkeys(problems)))
    for item, _ in parts:
        state.endpoints = add_numbers(state.endpoints, item.run.get("endpoints", {}))
        state.wall_s = round(state.wall_s + item.run["synthesis"]["cost"]["wall_s"], 3)
    first = parts[0][0].run
    state.models = first["synthesis"]["models"]
    synthesis = report(config["solver_attempts"], state)
    summary = {
        "status": "complete",
        "command": "synthesize",
        "config": config,
        "versions": first.get("versions", {}),
        "synthesis": synthesis,
        "endpoints": state.endpoints,
        "counts": {"sampled": synthesis["funnel"]["solvable"]},
        "merged_from": merged_from(inputs),
    }
    write_json(root / "run.json", summary)
    card(root)
    return summary


class SynthesizeMerger:
    """`toolscale merge` of synthesize --shard outputs (toolscale.pipeline.merge.Merger)."""

    def check(self, inputs: list[Input]) -> None:
        check_shards(inputs, "synthesize")

    def write(self, inputs: list[Input], config: dict[str, Any], root: Path) -> dict[str, Any]:
        return write(inputs, config, root)


SYNTHESIZE = SynthesizeMerger()
