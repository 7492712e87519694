"""`toolscale merge`: join the outputs of `generate --shard` jobs into one output.

(`synthesize --shard` and `synthesize-domain --shard` outputs too: the same checks that they
are one run, then the `Merger` the caller passes for that command writes the rest,
`toolscale.synthesize.synthesis_merge.SYNTHESIZE` and
`toolscale.domaingen.domain_merge.DOMAINGEN`; one command's outputs only.)

The inputs must come from one run: the resolved configs in their run.json are equal except for
`shard`, `out` and the per-job `workers`, `cache_dir`, `executor` and `ray_address`, and one
toolscale version wrote them. For every chunk of the run's plan DEST gets the shards and marker of
the first input that finished it (a chunk that met a domain error only where no input finished it
cleanly), rows de-duplicated by id; the chunks of one domain must have been made by the same code
of it (their markers' fingerprints). The statistics are the sum of those chunks' typed records (plus
each job's worker restarts). run.json (the config of an unsharded run, with `merged_from` naming the
inputs), README and card are written as `generate` writes them, so DEST equals one unsharded run row
for row and `toolscale validate` accepts it.

Everything is written into a temporary folder beside DEST and renamed into place at the end: a
refusal or a failure leaves no DEST. Request caches are not merged. Nothing is generated here: a
chunk that no input finished is an error naming the shard to finish.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from toolscale.config.generate import GenerateConfig
from toolscale.core.errors import ConfigError
from toolscale.pipeline.chunk import CODE_KEY
from toolscale.pipeline.driver import written_by
from toolscale.pipeline.generate import failures
from toolscale.pipeline.inputs import Input, add_numbers, merged_from, read_input
from toolscale.pipeline.plan import plan
from toolscale.stats.attempts import attempt_report
from toolscale.stats.reward_report import reward_report
from toolscale.stats.run_stats import RunStats
from toolscale.write.features import CONFIGS
from toolscale.write.output import Output, atomic_write, write_json

# Resolved options that may differ between the jobs of one run: they do not change any row.
# Where and how a job ran, not what it produced: jobs may use their own endpoints (the request
# cache does not key on the URL, so rows do not depend on it).
PER_JOB = (
    "out",
    "shard",
    "workers",
    "cache_dir",
    "executor",
    "ray_address",
    "base_url",
    "user_base_url",
    "solver_base_url",
    "judge_base_url",
    "concurrency",
    "endpoint_concurrency",
    "endpoint_max_failures",
    "isolation",  # a job's node may need its own opt-in; each warning is kept (run.json)
)
SHOWN = 3  # missing chunks named in an error


class Merger(Protocol):
    """How the shard outputs of another command than `generate` are merged."""

    def check(self, inputs: list[Input]) -> None:
        """Raise ConfigError (before anything is written) for inputs that cannot be merged."""
        ...

    def write(self, inputs: list[Input], config: dict[str, Any], root: Path) -> dict[str, Any]:
        """Write the merged rows, run.json and card into `root`; return run.json's content."""
        ...


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def command(item: Input) -> str:
    """The command that wrote an output (`toolscale.pipeline.driver.written_by`)."""
    return written_by(item.run)


def check_compatible(inputs: list[Input]) -> None:
    """The same resolved config but PER_JOB, and the same toolscale version."""
    first = inputs[0]
    for other in inputs[1:]:
        if command(other) != command(first):
            raise ConfigError(
                f"{other.root} is a {command(other)} output but {first.root} a {command(first)} "
                "output; merge the outputs of one run's shard jobs"
            )
        keys = sorted({*first.config, *other.config} - set(PER_JOB))
        differ = [k for k in keys if first.config.get(k) != other.config.get(k)]
        pairs = [(k, first.config.get(k), other.config.get(k)) for k in differ]
        version = (first.run.get("versions", {}), other.run.get("versions", {}))
        if version[0].get("toolscale") != version[1].get("toolscale"):
            pairs.append(
                ("toolscale version", version[0].get("toolscale"), version[1].get("toolscale"))
            )
        if pairs:
            key, mine, theirs = pairs[0]
            raise ConfigError(
                f"{other.root} differs from {first.root} in {key} ({_short(theirs)} vs "
                f"{_short(mine)}); merge only the shards of one run (the same options but --shard "
                "and --out)"
            )


def check_dest(dest: Path) -> None:
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        what = "a non-empty folder" if dest.is_dir() else "a file"
        raise ConfigError(f"--out {dest} is {what}; merge into a new or empty folder")


def run_config(config: dict[str, Any], dest: Path) -> GenerateConfig:
    """The options that decide the plan and the run's failures, from a resolved config."""
    return GenerateConfig(
        domains=list(config["domains"]),
        num_tasks=config["num_tasks"],
        out=dest,
        chunk_size=config["chunk_size"],
        max_sample_failure_share=config.get("max_sample_failure_share", 0.1),
    )


def pick(inputs: list[Input], config: GenerateConfig) -> list[tuple[str, Input, RunStats]]:
    """For each chunk of the plan, the input that finished it (a clean one first) and its
    statistics; a chunk that no input finished is a ConfigError naming its shard."""
    chosen, missing = [], []
    for position, (chunk, _, _) in enumerate(plan(config)):
        found = [(i, s) for i in inputs if (s := i.chunk(chunk)) is not None]
        found.sort(key=lambda pair: bool(pair[1].errors))  # stable: input order otherwise
        if found:
            chosen.append((chunk, *found[0]))
        else:
            missing.append((position, chunk))
    if missing:
        names = ", ".join(c for _, c in missing[:SHOWN]) + (", ..." if len(missing) > SHOWN else "")
        counts = {(i.config.get("shard") or "").partition("/")[2] for i in inputs}
        where = "the run's shards"
        if len(counts) == 1 and (n := counts.pop()):
            where = "shard " + ", ".join(sorted({f"{p % int(n)}/{n}" for p, _ in missing}))
        raise ConfigError(
            f"the inputs lack {len(missing)} of {len(missing) + len(chosen)} chunks ({names}), "
            f"made by {where}: give the output of every shard, and finish an incomplete one "
            "with generate --resume and its options"
        )
    return chosen


def check_code(picked: list[tuple[str, Input, RunStats]], config: GenerateConfig) -> None:
    """The chunks of one domain were made by the same code of it (their markers' fingerprints,
    `toolscale.core.code_fingerprint`): jobs that ran other code would mix old and new tasks."""
    domain_of = {chunk: domain for chunk, domain, _ in plan(config)}
    made: dict[str, dict[str | None, Input]] = {}
    for chunk, source, _ in picked:
        made.setdefault(domain_of[chunk], {}).setdefault(source.code(chunk), source)
    for domain, codes in made.items():
        if len(codes) > 1:
            (a, first), (b, other) = list(codes.items())[:2]
            raise ConfigError(
                f"{other.root} and {first.root} were made by different code of domain {domain!r} "
                f"(code fingerprints {b} and {a}); generate every shard with the same code"
            )


def copy_chunk(source: Input, chunk: str, dest: Output, seen: dict[str, set[str]]) -> None:
    """The chunk's three shards into DEST (each read in full first), rows already seen dropped."""
    for name in CONFIGS:
        try:
            table = Output(source.root).read_shard(name, chunk)
        except ConfigError as exc:
            raise ConfigError(f"{exc}, then merge again") from None
        ids = table.column("id").to_pylist()
        path = Output(source.root).shard_path(name, chunk)
        if seen[name].isdisjoint(ids) and len(set(ids)) == len(ids):
            atomic_write(dest.shard_path(name, chunk), path.read_bytes())
        else:
            rows = []
            for row in table.to_pylist():
                if row["id"] not in seen[name]:
                    seen[name].add(row["id"])
                    rows.append(row)
            dest.write_shard(name, chunk, rows)
        seen[name].update(ids)


def isolation_of(inputs: list[Input]) -> dict[str, str]:
    """The inputs' isolation levels and their warnings that model-written code ran below full
    isolation, kept together (run.json's `isolation` and `isolation_warning`)."""
    levels = " / ".join(dict.fromkeys(str(i.run.get("isolation")) for i in inputs))
    found = dict.fromkeys(
        i.run["isolation_warning"] for i in inputs if "isolation_warning" in i.run
    )
    return {"isolation": levels} | ({"isolation_warning": "; ".join(found)} if found else {})


def _write(inputs: list[Input], config: dict[str, Any], root: Path, dest: Path) -> dict[str, Any]:
    output = Output(root)
    output.prepare(resume=False)
    plan_config = run_config(config, dest)
    seen: dict[str, set[str]] = {name: set() for name in CONFIGS}
    stats = RunStats()
    picked = pick(inputs, plan_config)
    check_code(picked, plan_config)
    for chunk, source, done in picked:
        copy_chunk(source, chunk, output, seen)
        output.mark_done(chunk, {**done.marker(), CODE_KEY: source.code(chunk)})
        stats = stats + done
    endpoints: dict[str, Any] = {}
    for item in inputs:
        restarts = item.run.get("stats", {}).get("worker_restarts", 0)
        stats = stats + RunStats(worker_restarts=restarts)
        endpoints = add_numbers(endpoints, item.run.get("endpoints", {}))
    problems = failures(plan_config, stats, complete=True)
    first = inputs[0].run
    summary = {
        "status": "failed" if problems else "complete",
        "config": config,
        **stats.report(config["domains"]),
        "experts": first.get("experts", {}),
        **({"tau2": first["tau2"]} if "tau2" in first else {}),  # tau2's checks (docs/tau2.md)
        "attempts": attempt_report(stats.passes, stats.model_errors),
        **isolation_of(inputs),
        "versions": first.get("versions", {}),
        **reward_report(output),
        "endpoints": endpoints,
        "merged_from": merged_from(inputs),
    }
    if problems:
        summary["failures"] = problems
    output.write_readme(f"toolscale dataset: {', '.join(config['domains'])}")
    write_json(root / "run.json", summary)
    if output.row_count("tasks"):
        from toolscale.publish.card import card  # matplotlib and jinja2: only once there is a card

        card(root, repo_id=dest.name)  # `root` becomes `dest`: the card names dest's folder
    return summary


def merge(
    outs: list[Path], dest: Path, mergers: Mapping[str, Merger] | None = None
) -> dict[str, Any]:
    """Merge the outputs `outs` of one run's shard jobs into the new folder `dest`; returns its
    run.json. Outputs of a command other than `generate` are merged by its entry in `mergers`.
    Raises ConfigError (and writes nothing) for incompatible, incomplete or unreadable inputs,
    or a `dest` that is not new or empty."""
    if not outs:
        raise ConfigError("give the output folders of the shard jobs to merge")
    inputs = [read_input(path) for path in outs]
    check_compatible(inputs)
    check_dest(dest)
    config = {**inputs[0].config, "out": str(dest), "shard": None}
    name = command(inputs[0])
    other = (mergers or {}).get(name)
    if name != "generate" and other is None:
        raise ConfigError(f"{inputs[0].root} is a {name} output, which merge cannot join")
    if other is not None:
        other.check(inputs)  # a missing shard stops us before anything is written
    else:
        pick(inputs, run_config(config, dest))  # so does a missing chunk
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        root = dest.parent / f".{dest.name}.merge-{uuid.uuid4().hex[:12]}"
        root.mkdir()
    except OSError as exc:
        raise ConfigError(
            f"--out {dest} is not writable ({exc.strerror}); choose another"
        ) from None
    try:
        if other is not None:
            summary = other.write(inputs, config, root)
        else:
            summary = _write(inputs, config, root, dest)
        os.replace(root, dest)  # an empty DEST folder is replaced as a whole
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return summary
