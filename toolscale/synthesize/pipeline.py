"""Run the synthesize stages for each domain and write the output in generate's layout.

Per domain: intents (a batch per caller view, `toolscale.synthesize.view`) -> one task per
intent, shown the same view (the proposer may decline) -> format, gold-execution, facts (each a
value of its named source) and caller (the scenario gives every identifier the gold route
needs) filters -> `--evolve` rounds (a harder task from each that passes, filtered the same way)
-> do-nothing ->
decontamination and near-duplicates (in candidate order: the first of a group is kept) -> the
solver band. Accepted tasks go to `tasks` (provenance: source, models, intent, every filter's
result), every rejected candidate to `rejected_tasks` with its stage and reasons, the domain's
world (if it has one) to `worlds`; run.json holds the yields per stage, the endpoints' requests
and tokens, and the wall time. De-duplication runs before the solver: a duplicate never costs
K solver attempts.

With `--shard I/N` a job proposes every intent (the same requests as every other job) but works
only on the intents whose index is I modulo N and their evolved tasks. Which candidate is a
near-duplicate depends on the candidates of every shard, so a shard skips that step: it plays
the solver on all its candidates and records each one's features and outcome (`Deferred`);
`toolscale merge` then runs the same near-duplicate step over the union, in candidate order
(`toolscale.synthesize.synthesis_merge`).

Every request goes through the request cache, so `--resume` (or a rerun into the same cache)
replays a finished run without sending anything, and continues one stopped by its budget.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from toolscale.config.synthesize import SynthesizeConfig
from toolscale.core.registry import get_domain
from toolscale.sample import worlds
from toolscale.sample.stored import SOURCE, base_body, playable
from toolscale.sample.tasks import GoldError, SampledTask
from toolscale.sandbox.pool import SandboxPool
from toolscale.stats.yields import Yields
from toolscale.synthesize import dedup, filters
from toolscale.synthesize.accept import check_candidate
from toolscale.synthesize.candidates import Candidate, Intent
from toolscale.synthesize.endpoints import Clients
from toolscale.synthesize.propose import (
    Proposal,
    evolve_task,
    propose_intents,
    propose_task,
    sampling,
)
from toolscale.synthesize.returns import tool_returns
from toolscale.synthesize.rows import base_state, duplicate_reason, rejected_row
from toolscale.synthesize.shards import Deferred
from toolscale.synthesize.solver import solve
from toolscale.synthesize.view import entity_view

T = TypeVar("T")
CHUNK = "000000"  # one shard per domain and config


@dataclass
class Pending:
    """A candidate whose gold actions execute, waiting for the later filters."""

    index: int
    root: int  # the intent it descends from
    batch: int  # the intents batch of that intent: its view and state
    round: int
    intent: Intent
    candidate: Candidate
    text: str  # the answer the candidate was parsed from
    body: dict[str, Any]
    outcomes: list[Any]
    item: SampledTask


@dataclass
class DomainResult:
    tasks: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    worlds: list[dict[str, Any]] = field(default_factory=list)
    yields: Yields = field(default_factory=Yields)
    problems: list[str] = field(default_factory=list)
    # A shard's candidates that reached the near-duplicate step, and the yields of all the
    # others (so merge can add the outcome of each once it knows whether it is a duplicate).
    deferred: list[Deferred] = field(default_factory=list)
    before_dedup: Yields = field(default_factory=Yields)


async def gather_all(coros: Iterable[Coroutine[Any, Any, T]]) -> list[T]:
    """Results in order; the first exception cancels the rest and is raised as a group."""
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(c) for c in coros]
    return [t.result() for t in tasks]


class DomainRun:
    """The stages of one domain, sharing the run's clients, sandbox and indexes."""

    def __init__(
        self,
        config: SynthesizeConfig,
        clients: Clients,
        pool: SandboxPool,
        contamination: dedup.NearDuplicates | None,
        name: str,
        count: int,
    ) -> None:
        self.config = config
        self.clients = clients
        self.pool = pool
        self.contamination = contamination
        self.domain = get_domain(name)
        self.count = count
        self.world = self.domain.world(config.seed)
        self.worlds = worlds.WorldStore()  # to_row diffs the domain's tasks against its world
        self.world_id = "" if self.world is None else self.worlds.add(self.world)
        self.params = sampling(
            config.proposer_temperature(), config.effective_max_tokens(config.teacher == "local")
        )
        self.slots = asyncio.Semaphore(config.effective_concurrency(config.teacher == "local"))
        self.result = DomainResult()
        self.states: dict[int, dict[str, Any]] = {}
        self.views: dict[int, str] = {}
        self.judged = False  # no assertion judge in synthesize yet: nl_assertions are refused

    def view(self, batch: int) -> str:
        """What every request of intents batch `batch` shows: one caller and their records
        (`prepare` adds what the tools return on them)."""
        if batch not in self.views:
            rng = random.Random(f"{self.domain.name}:{self.config.seed}:{batch}:view")
            state = self.state(batch)
            self.views[batch] = entity_view(self.domain, state, rng, self.config.world_chars).text
        return self.views[batch]

    async def prepare(self, batches: int) -> None:
        """The views of batches 0..batches-1, each with one real result of every tool on its
        records (`toolscale.synthesize.returns`)."""
        for batch in range(batches):
            rng = random.Random(f"{self.domain.name}:{self.config.seed}:{batch}:view")
            state = self.state(batch)
            view = entity_view(self.domain, state, rng, self.config.world_chars)
            returns = await tool_returns(self.pool, self.domain, state, view.records)
            self.views[batch] = "\n\n".join(p for p in (view.text, returns) if p)

    def state(self, batch: int) -> dict[str, Any]:
        if batch not in self.states:
            self.states[batch] = base_state(self.domain, self.config.seed, batch)
        return self.states[batch]

    def provenance(self, round_: int, parent: int | None, intent: Intent) -> dict[str, Any]:
        return {
            "source": SOURCE,
            "model": self.clients.proposer_name,
            "intent": intent.intent,
            "kind": intent.kind,
            "round": round_,
            "parent": parent,
        }

    def reject(
        self,
        index: int,
        stage: str,
        reasons: list[str],
        intent: Intent,
        text: str,
        provenance: dict[str, Any],
        passes: str = "",
    ) -> None:
        self.result.rejected.append(
            rejected_row(
                self.domain.name,
                self.config.seed,
                index,
                stage,
                reasons,
                intent.intent,
                text,
                provenance,
            )
        )
        self.result.yields = self.result.yields + Yields.of_candidate(stage, passes)

    async def check(
        self,
        proposal: Proposal,
        index: int,
        root: int,
        batch: int,
        round_: int,
        parent: int | None,
        intent: Intent,
    ) -> Pending | None:
        """Parse, format, execution, facts and caller filters; the candidate, or None once
        rejected."""
        provenance = self.provenance(round_, parent, intent)
        if proposal.candidate is None:
            self.reject(
                index, proposal.stage, [proposal.problem], intent, proposal.text, provenance
            )
            return None
        state = self.state(batch)
        checked = await check_candidate(
            self.pool, self.domain, state, proposal.candidate, intent.kind, self.judged
        )
        if checked.stage:
            self.reject(index, checked.stage, checked.problems, intent, proposal.text, provenance)
            return None
        candidate, outcomes, final_hash = checked.candidate, checked.outcomes, checked.final_hash
        facts = candidate.communicate_info
        if candidate.refused is not None:
            provenance["refused"] = candidate.refused.model_dump()
        if checked.rule:
            provenance["rule"] = checked.rule
        provenance["facts"] = [f.model_dump() for f in facts]
        body = {
            "domain": self.domain.name,
            "seed": self.config.seed,
            "index": index,
            "difficulty": candidate.difficulty,
            "gold_actions": [a.model_dump() for a in candidate.actions],
            "initial_state": state,
            "expected_state_hash": final_hash,
            "required_facts": candidate.facts,
            "user_scenario": candidate.scenario(checked.write).model_dump(),
            "world": self.world_id,
            "provenance": provenance,
        }
        body = base_body(body)
        try:
            item = playable(body, outcomes)
        except GoldError as exc:
            reason = f"the gold conversation cannot be played: {exc}"
            self.reject(index, "execution", [reason], intent, proposal.text, provenance)
            return None
        return Pending(
            index, root, batch, round_, intent, candidate, proposal.text, body, outcomes, item
        )

    async def first_round(self, root: int, batch: int, intent: Intent) -> Pending | None:
        async with self.slots:
            proposal = await propose_task(
                self.clients.proposer,
                self.domain,
                intent,
                self.view(batch),
                self.params,
                root,
                self.judged,
            )
        return await self.check(proposal, root, root, batch, 0, None, intent)

    async def evolve(self, parent: Pending, round_: int) -> Pending | None:
        index = round_ * self.count + parent.root
        async with self.slots:
            proposal = await evolve_task(
                self.clients.proposer,
                self.domain,
                parent.candidate,
                self.view(parent.batch),
                self.params,
                index,
                self.judged,
            )
        return await self.check(
            proposal, index, parent.root, parent.batch, round_, parent.index, parent.intent
        )

    def owns(self, root: int) -> bool:
        """Whether this job works on intent `root` (every one, unless the run is sharded)."""
        shard = self.config.shard
        return shard is None or root % shard.count == shard.index

    async def run(self) -> DomainResult:
        config, result = self.config, self.result
        rng = random.Random(f"{self.domain.name}:{config.seed}:synthesize:intents")
        await self.prepare(-(-self.count // config.intents_per_request))
        intents, result.problems = await propose_intents(
            self.clients.proposer,
            self.domain,
            self.view,
            self.count,
            config.intents_per_request,
            rng,
            self.params,
        )
        # A shard counts the intents it works on, so that the shards' yields add up.
        result.yields = result.yields + Yields(
            intents_requested=sum(map(self.owns, range(self.count))),
            intents_received=sum(map(self.owns, range(len(intents)))),
        )
        mine = [(i, b, t) for i, (t, b) in enumerate(intents) if self.owns(i)]
        rounds = [await gather_all(self.first_round(i, b, t) for i, b, t in mine)]
        for round_ in range(1, config.evolve + 1):
            parents = [p for p in rounds[-1] if p is not None]
            rounds.append(await gather_all(self.evolve(p, round_) for p in parents))
        pending = sorted((p for r in rounds for p in r if p is not None), key=lambda p: p.index)
        candidates = [p for p in pending if self.not_trivial(p) and self.uncontaminated(p)]
        # Unsharded: duplicates go before the solver. A shard cannot tell (a twin may be in
        # another shard): it solves them all and leaves the decision to merge.
        unique = candidates if config.shard else self.distinct(candidates)
        result.before_dedup = result.yields
        solved = await gather_all(solve(self.clients.solver, p.item, self.pool) for p in unique)
        k = config.solver_attempts
        for p, outcome in zip(unique, solved, strict=True):
            passes = f"{outcome.passes}/{outcome.attempts}"
            band = 0 < outcome.passes < k
            if config.shard:
                result.deferred.append(
                    Deferred(
                        index=p.index,
                        tokens=sorted(dedup.candidate_features(p.candidate)),
                        intent=p.intent.intent,
                        text=p.text,
                        provenance=p.body["provenance"],
                        passes=passes,
                        solved=bool(outcome.passes),
                        band=band,
                    )
                )
            if not outcome.passes:
                reasons = list(outcome.reasons) or ["no attempt solved the task"]
                self.reject(
                    p.index, "solver", reasons, p.intent, p.text, p.body["provenance"], passes
                )
                continue
            provenance = {
                **p.body["provenance"],
                "solver_model": self.clients.solver_name,
                "filters": {
                    "format": "passed",
                    "execution": "passed",
                    "do_nothing": "fails",
                    "near_duplicate": "none",
                    "decontamination": "passed" if self.contamination else "not checked",
                    "solver": {
                        "passes": outcome.passes,
                        "attempts": outcome.attempts,
                        "band": band,
                    },
                },
            }
            task = playable({**p.body, "provenance": provenance}, p.outcomes).task
            result.tasks.append(task.to_row(self.worlds))
            result.yields = result.yields + Yields.of_candidate(None, passes, band)
        # In candidate order, whatever order the concurrent stages finished in.
        result.tasks.sort(key=lambda row: row["index"])
        result.rejected.sort(key=lambda row: (row["index"], row["stage"]))
        if self.world is not None:
            result.worlds.append(
                worlds.row(self.domain.name, self.domain.version, config.seed, self.world)
            )
        return result

    def not_trivial(self, p: Pending) -> bool:
        if filters.do_nothing_passes(p.item.task):
            reason = "an agent that calls no tool and repeats the user's words passes the task"
            self.reject(p.index, "trivial", [reason], p.intent, p.text, p.body["provenance"])
            return False
        return True

    def uncontaminated(self, p: Pending) -> bool:
        """No near-duplicate of a task under --decontaminate (a check of the candidate alone)."""
        if self.contamination is None:
            return True
        source = self.contamination.match(dedup.candidate_features(p.candidate))
        if source is not None:
            reason = f"near-duplicate of {source} in --decontaminate"
            self.reject(p.index, "contaminated", [reason], p.intent, p.text, p.body["provenance"])
            return False
        return True

    def distinct(self, pending: list[Pending]) -> list[Pending]:
        """Near-duplicates among this domain's candidates, in order: the first of a group stays."""
        twins = dedup.first_of_groups(
            ((str(p.index), dedup.candidate_features(p.candidate)) for p in pending),
            self.config.dedup_threshold,
        )
        kept = []
        for p in pending:
            twin = twins[str(p.index)]
            if twin is not None:
                reason = duplicate_reason(twin)
                self.reject(p.index, "duplicate", [reason], p.intent, p.text, p.body["provenance"])
                continue
            kept.append(p)
        return kept
