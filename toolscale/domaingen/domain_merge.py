"""`toolscale merge` of `synthesize-domain --shard I/N` outputs: one DIR as the unsharded run
would have written it.

Shards share nothing, so each one's near-duplicate gate saw only the bundled domains and the
domains accepted in its own DIR. Here that gate runs again over every shard's topics in topic
order, as the unsharded run runs it: each topic whose tool signature the gate saw (its record
keeps it, `outputs.record`) is compared with the bundled domains and with the topics before it
that merge keeps. One at or above `--dup-threshold` becomes a `near_duplicate` rejection naming
its twin (an accepted domain moves to rejected/); every other one gets the closest domain the
unsharded run would have measured. The signatures are read from the records: nothing here
imports or runs a generated domain.

So the funnel, the rejections, the accepted domains and the records equal the unsharded run's
but for timings. What a shard spent on a domain merge rejects (its later gates, their repairs)
stays in its record's usage and in the cost. One case cannot be redone without the gates: a
topic its shard rejected as a near-duplicate of a domain that merge then rejects stays rejected
(the unsharded run would have gated it on). `toolscale.pipeline.merge` checks the shards are one
run and writes DEST atomically; `toolscale.pipeline.inputs.check_shards` that each is there once.
"""

from __future__ import annotations

import shutil
from functools import reduce
from pathlib import Path
from typing import Any

from toolscale.config.shard import Shard
from toolscale.core.errors import ConfigError
from toolscale.domaingen import outputs
from toolscale.domaingen.config import COMMAND, slug
from toolscale.domaingen.domain_synthesis import references, report
from toolscale.domaingen.gates import CHECKED, near_duplicate
from toolscale.pipeline.inputs import Input, add_numbers, check_shards, merged_from
from toolscale.pipeline.merge import isolation_of
from toolscale.sandbox.contained import MARK
from toolscale.write.output import Output, atomic_write, write_json

REDO = f"run that shard again with {COMMAND} --resume and its options, then merge again"
GATED = ("near_duplicate", *CHECKED, "accepted")  # stages a topic reaches past the gate


def _folder(item: Input, entry: dict[str, Any]) -> Path:
    return item.root / ("domains" if entry["accepted"] else "rejected") / entry["name"]


def read_records(item: Input) -> dict[str, dict[str, Any]]:
    """A shard's topic records (by name, with their signatures): the topics its run.json names,
    read from their markers; a ConfigError when one is missing, or its folder, or when they are
    not the topics of its shard."""
    names = item.run.get("domaingen", {}).get("topics")
    if not isinstance(names, dict):
        raise ConfigError(f"{item.root}/run.json has no synthesize-domain topics; {REDO}")
    markers = outputs.done(item.root)
    records = {}
    for name in names:
        entry = markers.get(name)
        if entry is None or not _folder(item, entry).is_dir():
            what = "marker" if entry is None else "folder"
            raise ConfigError(f"{item.root} lacks the {what} of topic {name!r}; {REDO}")
        records[name] = entry
    return records


def _check_topics(shards: list[tuple[Input, dict[str, dict[str, Any]]]]) -> None:
    """Each domain in one shard only, and each shard holding exactly its own topics."""
    owner: dict[str, Input] = {}
    for item, records in shards:
        for name in records:
            if name in owner:
                first = owner[name]
                raise ConfigError(
                    f"{item.root} (shard {item.config['shard']}) and {first.root} (shard "
                    f"{first.config['shard']}) both hold domain {name!r}; a topic belongs to one "
                    "shard, so these are not one run's shards: run each shard into its own --out"
                )
            owner[name] = item
    for item, records in shards:
        shard = Shard.parse(item.config["shard"])
        expected = [slug(t) for t in shard.pick(item.config["topics"])]
        if sorted(records) != sorted(expected):
            raise ConfigError(
                f"{item.root} holds the topics {', '.join(sorted(records)) or 'none'}, not those "
                f"of shard {shard} ({', '.join(expected)}); {REDO}"
            )


def check(inputs: list[Input]) -> list[tuple[Input, dict[str, dict[str, Any]]]]:
    """The shards in order, each with its records; ConfigError (nothing written) when they
    cannot be merged."""
    shards = [(item, read_records(item)) for item in check_shards(inputs, COMMAND)]
    _check_topics(shards)
    return shards


def _as_near_duplicate(
    entry: dict[str, Any], closest: dict[str, Any], problem: str
) -> dict[str, Any]:
    """The record of a topic the gate rejects here: what the gate had measured, no more."""
    measured = {k: v for k, v in entry["measured"].items() if k in ("tools", "templates")}
    return entry | {
        "stage": "near_duplicate",
        "accepted": False,
        "problems": [problem],
        "contained": False,
        "measured": measured | {"closest": closest},
    }


def regate(
    order: list[str], records: dict[str, dict[str, Any]], bundled: dict[str, set[str]],
    threshold: float,
) -> dict[str, dict[str, Any]]:  # fmt: skip
    """The records (in topic `order`) after the near-duplicate gate runs over all of them, each
    against the `bundled` signatures and those of the topics kept before it."""
    kept: dict[str, set[str]] = {}
    merged = {}
    for name in order:
        entry = records[name]
        signature = set(entry["shingles"])
        if signature and entry["stage"] in GATED:
            closest, problem = near_duplicate(signature, bundled | kept, threshold)
            if problem is not None and closest is not None:
                entry = _as_near_duplicate(entry, closest, problem)
            elif entry["stage"] != "near_duplicate" and closest is not None:
                entry = entry | {"measured": entry["measured"] | {"closest": closest}}
            # else: its twin in its shard is rejected here; it was never gated on (module doc)
        merged[name] = entry
        if entry["accepted"]:
            kept[name] = signature
    return merged


def _copy_topic(source: Input, was: dict[str, Any], entry: dict[str, Any], root: Path) -> None:
    """The topic's folder (and an accepted one's spec) from its shard into `root`, as `entry`
    now has it; its marker last."""
    name = entry["name"]
    spec = outputs.spec_path(source.root, name)
    if entry["accepted"]:
        shutil.copytree(_folder(source, was), root / "domains" / name)
        if spec.is_file():
            atomic_write(outputs.spec_path(root, name), spec.read_bytes())
    elif was["accepted"]:  # a near-duplicate across shards: its files as a rejected domain's
        folder = _folder(source, was)
        kept = {
            p.name: p.read_text(encoding="utf-8")
            for p in sorted(folder.iterdir())
            if p.is_file() and p.name not in (f"test_{name}.py", MARK)
        }
        if spec.is_file():
            kept["spec.json"] = spec.read_text(encoding="utf-8")
        kept["reason.json"] = outputs.reason_text(entry)
        outputs.write_folder(root / "rejected" / name, kept)
    else:
        target = root / "rejected" / name
        shutil.copytree(_folder(source, was), target)
        if entry != was:
            atomic_write(target / "reason.json", outputs.reason_text(entry).encode())
    outputs.topics_dir(root).mkdir(parents=True, exist_ok=True)
    write_json(outputs.topics_dir(root) / f"{name}.json", entry)


def write(inputs: list[Input], config: dict[str, Any], root: Path) -> dict[str, Any]:
    """DEST's domains, rejected domains, markers, domains/README.md and run.json, written into
    `root`; returns run.json's content."""
    shards = check(inputs)
    source = {name: item for item, records in shards for name in records}
    records = {name: r for _, rs in shards for name, r in rs.items()}
    order = [slug(topic) for topic in config["topics"]]
    merged = regate(order, records, references(), config["dup_threshold"])
    Output(root).prepare(resume=False)
    for name, entry in merged.items():
        _copy_topic(source[name], records[name], entry, root)
    outputs.write_index(root, merged, Path(config["out"]) / "domains")
    runs = [item.run.get("domaingen", {}) for item in inputs]
    section = report(merged) | {
        "wall_s": round(sum(run.get("wall_s", 0.0) for run in runs), 3),
        "endpoints": reduce(add_numbers, (run.get("endpoints", {}) for run in runs), {}),
    }
    summary = {
        "status": "complete",
        "command": COMMAND,
        "config": config,
        **isolation_of(inputs),
        "versions": inputs[0].run.get("versions", {}),
        "domaingen": section,
        "merged_from": merged_from(inputs),
    }
    write_json(root / "run.json", summary)
    return summary


class DomainGenMerger:
    """`toolscale merge` of synthesize-domain --shard outputs (toolscale.pipeline.merge.Merger)."""

    def check(self, inputs: list[Input]) -> None:
        check(inputs)

    def write(self, inputs: list[Input], config: dict[str, Any], root: Path) -> dict[str, Any]:
        return write(inputs, config, root)


DOMAINGEN = DomainGenMerger()
