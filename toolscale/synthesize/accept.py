"""The checks of one parsed candidate before it becomes a task: format, gold execution (with its
refused call), sourced facts, and the caller's scenario, each a stage with its reasons.

The order is the funnel's: `format` (tools and arguments, no unjudged assertions), `execution`
(every gold call succeeds, a write changes the state, the refused call fails on the state the
gold route leaves), `facts` (each a value of its named source, a question names one:
`toolscale.synthesize.filters.question_problems`), `caller` (the scenario gives every
identifier and every detail a write takes). Nothing here sends a request to a model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolscale.core.contract import Domain, canonical_state, state_hash
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool
from toolscale.synthesize import filters
from toolscale.synthesize.candidates import Candidate
from toolscale.synthesize.facts import check_facts


@dataclass
class Checked:
    """A candidate after the checks: its facts resolved, its gold outcomes and final hash, and
    the stage that rejects it with the reasons ("" and none when it passes)."""

    candidate: Candidate
    outcomes: list[CallOutcome] = field(default_factory=list)
    final_hash: str = ""
    write: bool = False
    stage: str = ""
    problems: list[str] = field(default_factory=list)
    rule: str = ""  # the rule the refused call breaks (`CallOutcome.rule`), "" for no refusal

    def rejected(self, stage: str, problems: list[str]) -> Checked:
        self.stage, self.problems = stage, problems
        return self


async def refusal_outcome(
    pool: SandboxPool, domain: Domain, state: dict[str, Any], candidate: Candidate
) -> CallOutcome | None:
    """The refused call's outcome, run after the gold route on a fresh copy (None: none)."""
    if candidate.refused is None:
        return None
    calls = [(a.name, a.arguments) for a in (*candidate.actions, candidate.refused)]
    outcomes, _ = await pool.replay(domain.name, canonical_state(state), calls)
    return outcomes[-1]


async def check_candidate(
    pool: SandboxPool,
    domain: Domain,
    state: dict[str, Any],
    candidate: Candidate,
    kind: str,
    judged: bool,
) -> Checked:
    """Every check of the module docstring, in order, up to the first that fails."""
    checked = Checked(candidate)
    problems = filters.candidate_problems(domain, candidate)
    if candidate.nl_assertions and not judged:
        problems.append(
            "nl_assertions are free text and no assertion judge reads them in this run: "
            "state each fact as a value with its source in communicate_info"
        )
    if problems:
        return checked.rejected("format", problems)
    outcomes, final_hash = await filters.run_gold(pool, domain, state, candidate)
    write = filters.is_write(domain, candidate, kind)
    checked.outcomes, checked.final_hash, checked.write = outcomes, final_hash, write
    problems = filters.execution_problems(outcomes, state_hash(state), final_hash, write)
    refusal = None if problems else await refusal_outcome(pool, domain, state, candidate)
    problems += filters.refused_problems(candidate, refusal)
    checked.rule = refusal.rule if refusal is not None else ""
    if problems:
        return checked.rejected("execution", problems)
    said = filters.said_by(candidate)
    facts, problems = check_facts(domain, candidate.communicate_info, outcomes, refusal, said)
    candidate = candidate.model_copy(update={"communicate_info": facts})
    checked.candidate = candidate
    problems += [] if problems else filters.question_problems(candidate, write)
    if problems:
        return checked.rejected("facts", problems)
    problems = filters.caller_problems(domain, state, candidate, outcomes)
    if problems:
        return checked.rejected("caller", problems)
    return checked
