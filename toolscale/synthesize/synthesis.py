"""`toolscale synthesize`: check the options, run every domain's stages, write OUT.

Layout (generate's): `data/tasks/<domain>-000000.parquet` (accepted tasks),
`data/rejected_tasks/...` (every rejected candidate, its stage and reasons), `data/worlds/...`
(the domains' worlds), `run.json` (resolved config without secrets, yields per stage, endpoint
requests and tokens, wall time), `README.md` (the card with the funnel), `.toolscale/cache`
(the request cache: `--resume` sends nothing it already holds). Bad options fail before the
folder is touched or a request is sent, an endpoint that does not answer before it is touched
(`toolscale.llm.probe`); a spent budget stops the run with status
`budget_exhausted` (continue with `--resume`). A `--shard I/N` job also writes
`.toolscale/synthesize-shard.json`, what `toolscale merge` needs to de-duplicate the shards'
union (`toolscale.synthesize.shards`); its own rows are not de-duplicated.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from toolscale.config.option import from_options
from toolscale.config.synthesize import CACHE_DIR, SynthesizeConfig, check_synthesize
from toolscale.llm.ledger import BudgetExhausted, StopRun
from toolscale.llm.probe import probe
from toolscale.pipeline.driver import STOP_REASON, Command, local_endpoint, open_output
from toolscale.sandbox.pool import SandboxPool
from toolscale.stats.yields import Yields
from toolscale.synthesize import dedup
from toolscale.synthesize.endpoints import Clients
from toolscale.synthesize.pipeline import CHUNK, DomainResult, DomainRun, gather_all
from toolscale.synthesize.shards import DomainPart, ShardPart, write_part
from toolscale.write.output import Output, write_json

CONFIGS = ("tasks", "rejected_tasks", "worlds")


SYNTHESIZE_COMMAND = Command(
    "synthesize",
    SynthesizeConfig.RESUME_KEYS,
    ("synthesis", "endpoints", "counts", STOP_REASON),
    model_writes_code=True,  # every task is proposed
)


@dataclass
class SynthesisState:
    results: dict[str, DomainResult] = field(default_factory=dict)
    status: str = "complete"
    stop_reason: str = ""
    endpoints: dict[str, Any] = field(default_factory=dict)
    models: dict[str, str] = field(default_factory=dict)
    wall_s: float = 0.0


def first_leaf(group: BaseExceptionGroup) -> BaseException:
    """The first exception of a (nested) group: stages run in nested task groups."""
    first = group.exceptions[0]
    return first_leaf(first) if isinstance(first, BaseExceptionGroup) else first


def split(config: SynthesizeConfig) -> dict[str, int]:
    """How many intents each domain asks for: N split evenly, the first domains one more."""
    per, extra = divmod(config.num_tasks, len(config.domains))
    return {d: per + (i < extra) for i, d in enumerate(config.domains)}


async def _run(
    config: SynthesizeConfig,
    output: Output,
    contamination: dedup.NearDuplicates | None,
    local: tuple[str, str] | None,
) -> SynthesisState:
    state = SynthesisState()
    started = time.perf_counter()
    clients = Clients(config, output.root / CACHE_DIR, local)
    if local is not None:  # an endpoint of ours: asked once it is up
        await probe(clients.clients)
    state.models = {"proposer": clients.proposer_name, "solver": clients.solver_name}
    try:
        async with SandboxPool(config.workers, config.call_timeout_s) as pool:
            runs = [
                DomainRun(config, clients, pool, contamination, name, count)
                for name, count in split(config).items()
                if count
            ]
            try:
                done = await gather_all(r.run() for r in runs)
            except* StopRun as stopped:
                stop = first_leaf(stopped)
                state.status = (
                    "budget_exhausted" if isinstance(stop, BudgetExhausted) else "stopped"
                )
                state.stop_reason = str(stop)
            else:
                state.results = {r.domain.name: d for r, d in zip(runs, done, strict=True)}
    finally:
        await clients.aclose()
        state.endpoints = clients.summary()
        state.wall_s = round(time.perf_counter() - started, 3)
    return state


def report(solver_attempts: int, state: SynthesisState) -> dict[str, Any]:
    """run.json's synthesis section: yields per domain and in total, and what each accepted
    task cost in requests, tokens and wall time."""
    per_domain = {d: r.yields for d, r in state.results.items()}
    total = Yields()
    for yields in per_domain.values():
        total = total + yields
    sent = sum(e["requests"] for e in state.endpoints.values())  # cached answers not included
    tokens = sum(e["prompt_tokens"] + e["completion_tokens"] for e in state.endpoints.values())
    accepted = total.solvable
    return {
        "models": state.models,
        "funnel": total.funnel(),
        "yields": total.report(),
        "per_domain": {d: y.report() for d, y in per_domain.items()},
        "problems": {d: r.problems for d, r in state.results.items() if r.problems},
        "solver_attempts": solver_attempts,
        "cost": {
            "requests_sent": sent,
            "tokens": tokens,
            "wall_s": state.wall_s,
            "per_accepted_task": None
            if not accepted
            else {
                "requests": round(sent / accepted, 3),
                "tokens": round(tokens / accepted, 1),
                "wall_s": round(state.wall_s / accepted, 3),
            },
        },
    }


def run_json(config: SynthesizeConfig, status: str, state: SynthesisState | None) -> dict[str, Any]:
    if state is None:
        return SYNTHESIZE_COMMAND.run_json(config, status)
    synthesis = report(config.solver_attempts, state)
    sections: dict[str, Any] = {
        "synthesis": synthesis,
        "endpoints": state.endpoints,
        "counts": {"sampled": synthesis["funnel"]["solvable"]},
    }
    if state.stop_reason:
        sections[STOP_REASON] = state.stop_reason
    return SYNTHESIZE_COMMAND.run_json(config, status, sections)


def synthesize(config: SynthesizeConfig | None = None, **options: Any) -> dict[str, Any]:
    """Run `toolscale synthesize` to completion; returns the summary also written to
    OUT/run.json. `config`, or `options` named as the command's flags (underscores for dashes).
    Raises ConfigError before anything is sent for bad options, BudgetStop at --max-cost-usd
    (`toolscale.pipeline.driver`)."""
    if config is None:
        config = from_options(SynthesizeConfig, options, "synthesize")
    config = check_synthesize(config)
    contamination = None
    if config.decontaminate is not None:
        contamination = dedup.load_tau2(config.decontaminate, config.dedup_threshold)
    output = open_output(
        SYNTHESIZE_COMMAND, config, lambda: Clients(config, config.out / CACHE_DIR, None)
    )
    write_json(config.out / "run.json", run_json(config, "running", None))
    with local_endpoint(config) as local:
        state = asyncio.run(_run(config, output, contamination, local))
    summary = run_json(config, state.status, state)
    if state.status == "complete":
        for name, result in state.results.items():
            for config_name, rows in zip(
                CONFIGS, (result.tasks, result.rejected, result.worlds), strict=True
            ):
                output.write_shard(config_name, f"{name}-{CHUNK}", rows)
        if config.shard is not None:
            parts = {
                name: DomainPart(before_dedup=r.before_dedup, candidates=r.deferred)
                for name, r in state.results.items()
            }
            write_part(config.out, ShardPart(domains=parts))
    write_json(config.out / "run.json", summary)
    from toolscale.publish.card import card

    card(config.out)
    return SYNTHESIZE_COMMAND.end(summary)
