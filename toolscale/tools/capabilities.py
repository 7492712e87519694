"""The experts' capability sentences, measured: each simulated alias asked the questions of sampled
tasks of a domain, its share right by kind, and one sentence per alias for the system prompt (as
ToolOrchestra describes its models to the orchestrator). Change a profile and the sentence changes.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from toolscale.core.contract import Domain, item_rng
from toolscale.tools.experts import simulated_answer
from toolscale.tools.skills import MEASURE_SEED, MEASURE_TASKS, PROFILES, SkillProfile


@dataclass(frozen=True)
class Measured:
    """One alias measured on sampled tasks: right / asked by kind, and completion tokens."""

    right: Mapping[str, int]
    asked: Mapping[str, int]
    tokens: int
    answers: int

    def share(self, kind: str) -> float:
        return self.right[kind] / self.asked[kind]


def measure(
    domain: Domain, profiles: Mapping[str, SkillProfile], tasks: int = MEASURE_TASKS
) -> dict[str, Measured]:
    """Ask every alias the question of `tasks` sampled tasks of `domain` (run seed
    MEASURE_SEED) and count, by the kind the expert reads, how often it is right."""

    right: dict[str, dict[str, int]] = {a: defaultdict(int) for a in profiles}
    asked: dict[str, dict[str, int]] = {a: defaultdict(int) for a in profiles}
    tokens = dict.fromkeys(profiles, 0)
    answers = dict.fromkeys(profiles, 0)
    for index in range(tasks):
        spec = domain.sample(item_rng(domain.name, MEASURE_SEED, index), MEASURE_SEED, index)
        kit = domain.toolkit(copy.deepcopy(spec.initial_state))
        known = kit.known(spec.instruction)  # type: ignore[attr-defined]
        if known is None or spec.answer is None:
            continue
        for alias, profile in profiles.items():
            reply, usage = simulated_answer(alias, spec.instruction, known, profile)
            asked[alias][known.kind] += 1
            right[alias][known.kind] += domain.check_answer(spec.answer, reply)
            tokens[alias] += usage.completion_tokens
            answers[alias] += 1
    return {a: Measured(dict(right[a]), dict(asked[a]), tokens[a], answers[a]) for a in profiles}


def sentences(
    domain: Domain, profiles: Mapping[str, SkillProfile], tasks: int = MEASURE_TASKS
) -> list[str]:
    """One capability sentence per alias, measured (`measure`) on `tasks` sampled tasks."""
    found = measure(domain, profiles, tasks)
    lines = []
    for alias, profile in profiles.items():
        m = found[alias]
        kinds = sorted(m.asked, key=lambda k: (-m.asked[k], k))
        parts = ", ".join(f"{round(100 * m.share(k))}% of {k} questions" for k in kinds)
        mean = round(m.tokens / m.answers) if m.answers else 0
        lines.append(
            f"- {alias}, {profile.role}: right on {parts or 'no question asked'}; "
            f"about {mean:,} completion tokens per answer, reasoning included."
        )
    return lines


@cache
def capability_text(domain: type[Domain], endpoints: frozenset[str] = frozenset()) -> str:
    """The "## Experts" section of a domain's system prompt: one sentence per simulated alias,
    measured from the profiles (`sentences`); an alias in `endpoints` is a configured model
    whose skills are not measured here. Computed once per domain class and process."""
    simulated = {a: p for a, p in PROFILES.items() if a not in endpoints}
    lines = [
        "## Experts",
        "",
        f"Measured on {MEASURE_TASKS} sampled tasks of this domain (each expert asked the "
        "task's question):",
        *sentences(domain(), simulated),
        *(f"- {alias}: a configured model; its skills are not measured." for alias in endpoints),
    ]
    return "\n".join(lines)
