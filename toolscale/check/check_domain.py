"""`toolscale check-domain NAME`: run the domain contract's checks on one installed domain.

Any domain `toolscale domains` lists can be checked (an installed package, or one added through
TOOLSCALE_DOMAINS). The tasks checked are tasks 0..N-1 of the seed, drawn by weight as `generate`
draws them, and, for a domain that samples a template by name (`Domain.sample_named`: every
domain on the kit), `--per-template` draws of every template, so that a rare one is checked too
(the report names the templates the weighted tasks would hardly reach). On each task
(`toolscale.check.task_checks`):

- sample / gold / schema: it samples, and its gold actions execute in a sandbox worker, where a
  gold action that fails or a READ tool that changes the state is a GoldError (as in `generate`);
- determinism: sampling it again gives the same task id;
- verify: the reference teacher's gold attempt verifies, and no attempt it plays (gold, detours,
  alternatives) crashes a tool (`crash`);
- read_purity: the READ calls of the other routes (alternatives and named routes) leave the state
  as it is (gold routes are checked while sampling);
- do_nothing: an attempt with no call and no answer fails it, and one with no call that says the
  gold final message fails it when its gold route writes;
- parrot (stateful domains): an attempt with no call that repeats everything the user said or
  can say plus stock policy phrases fails it, and so does one with no call that says the gold
  final message (a refusal without the look-up that justifies it). A domain without named
  templates gets it on further indexes until every template has been drawn (`PARROT_DRAWS` per
  template at most; a template never drawn is a warning);
- one_reason (stateful domains on the kit): a refusal task's refused call, replayed with every
  rule checked, breaks exactly one declared rule and meets no other refusal
  (`toolscale.check.one_reason`).

Then, on the domain: schemas (every tool's schema derives, with a description and an `Args:`
entry for each parameter and no other), before any task; reachable (every tool appears in some
gold or alternative route, named routes included, of the tasks checked); fuzz (hostile arguments,
`toolscale.check.fuzz`, `fuzz` calls per tool, each on a fresh state, crash no tool, take no
tool past its time bound, change no state through a READ tool, and get short error texts; one line
per tool and kind of failure). Every problem is one `Finding`; the report (`findings`) leaves out
follow-on problems and makes identical ones one line.

An unreachable tool is a warning, not a problem, unless `strict`: an unexercised tool is not a
broken one. This module calls no LLM; every tool runs in the sandbox pool.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from typing import Any

from toolscale.check.findings import DomainReport, Finding, first_traceback
from toolscale.check.fuzz import PER_TOOL, fuzz
from toolscale.check.task_checks import check_task, parrot_checks, sample_one, schema_findings
from toolscale.config.option import from_options, option
from toolscale.core.contract import Domain
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain
from toolscale.economics.prices import Economics
from toolscale.kit import KitDomain
from toolscale.sample.tasks import prepare
from toolscale.sandbox.pool import SandboxPool

__all__ = ["CheckDomainConfig", "DomainReport", "Finding", "check_domain", "first_traceback"]
PARROT_DRAWS = 40  # further samples per template, to reach every template with the parrot


@dataclass(frozen=True)
class CheckDomainConfig:
    """The options of `toolscale check-domain` (each a command-line flag)."""

    tasks: int = option(50, help="Tasks to sample by weight and play.")
    per_template: int = option(
        5, help="Draws of each named template, however rare (0: by weight only)."
    )
    seed: int = option(0, help="Seed of the sampled tasks.")
    workers: int = option(2, help="Sandbox worker processes.")
    strict: bool = option(False, help="Count warnings (tools in no route) as problems.")
    fuzz: int = option(
        PER_TOOL, help="Hostile-argument calls per tool, each on a fresh state (0: none)."
    )
    call_timeout_s: float = 15.0

    def check(self) -> None:
        if self.tasks < 1:
            raise ConfigError(f"--tasks must be at least 1 (got {self.tasks})")
        if self.per_template < 0:
            raise ConfigError(
                f"--per-template must be 0 (by weight only) or more (got {self.per_template})"
            )
        if self.fuzz < 0:
            raise ConfigError(f"--fuzz must be 0 (no fuzzing) or more (got {self.fuzz})")
        if self.workers < 1:
            raise ConfigError(f"--workers must be at least 1 (got {self.workers})")


def named_templates(domain: Domain) -> tuple[str, ...]:
    """The templates check-domain draws by name: all of them, for a domain that samples a
    template by name (`Domain.sample_named`); none otherwise."""
    if type(domain).sample_named is Domain.sample_named:
        return ()
    return tuple(domain.templates)


def rare_templates(domain: Domain, tasks: int) -> tuple[tuple[str, float], ...] | None:
    """The templates under one expected draw in `tasks` draws by weight, with their share of
    the draws; None when the domain declares no weights (only a kit domain does)."""
    if not isinstance(domain, KitDomain):
        return None
    shares = domain.template_weights()
    return tuple((name, share) for name, share in shares.items() if share * tasks < 1)


async def parrot_templates(
    pool: SandboxPool, domain: Domain, seed: int, start: int, seen: set[str]
) -> list[Finding]:
    """For a domain that samples by weight only: the parrot checks on further tasks from index
    `start` until every template has been drawn (at most PARROT_DRAWS samples per template)."""
    found: list[Finding] = []
    index, stop = start, start + PARROT_DRAWS * len(domain.templates)
    while index < stop and not set(domain.templates) <= seen:
        batch = range(index, min(index + 16, stop))
        samples = await asyncio.gather(*(sample_one(pool, domain, seed, i) for i in batch))
        for i, (built, _) in zip(batch, samples, strict=True):
            if built is not None and built.task.template not in seen:
                seen.add(built.task.template)
                item = prepare(built, Economics(), {"none": 1.0})
                found += [
                    replace(f, template=built.task.template)
                    for f in await parrot_checks(pool, domain, item, i)
                ]
        index = batch.stop
    found += [
        Finding(
            "parrot",
            f"not drawn in {index} tasks (seed {seed}); the parrot check did not reach it",
            warning=True,
            template=name,
        )
        for name in domain.templates
        if name not in seen
    ]
    return found


def reachability(domain: Domain, used: set[str], checked: str, seed: int) -> list[Finding]:
    return [
        Finding(
            "reachable",
            f"tool {name} is in no gold or alternative route of {checked} (seed {seed}); "
            "add tasks that need it",
            warning=True,
        )
        for name in domain.toolkit.specs()
        if name not in used
    ]


@dataclass(frozen=True)
class _Checked:
    found: list[Finding]
    used: set[str]  # the tools of every sampled task's routes
    sampled: int


async def _check_tasks(
    domain: Domain, config: CheckDomainConfig, tasks: int, named: tuple[str, ...]
) -> _Checked:
    seed = config.seed
    async with SandboxPool(config.workers, config.call_timeout_s, domains=[domain.name]) as pool:
        weighted = [check_task(pool, domain, seed, i) for i in range(tasks)]
        by_name = [
            check_task(pool, domain, seed, k, name)
            for name in named
            for k in range(config.per_template)
        ]
        results = await asyncio.gather(*weighted, *by_name)
        found = [f for found, _ in results for f in found]
        if domain.family == "stateful" and not domain.name.startswith("tau2:") and not named:
            seen = await _templates(pool, domain, seed, tasks)
            found += await parrot_templates(pool, domain, seed, tasks, seen)
        # After the tasks, alone on the pool: the fuzzer times its calls.
        hostile = await fuzz(pool, domain, seed, config.fuzz) if config.fuzz else []
    routes = [used for _, used in results if used is not None]
    found += [Finding("fuzz", p.message, traceback=p.traceback) for p in hostile]
    return _Checked(found, set().union(*routes), len(routes))


async def _templates(pool: SandboxPool, domain: Domain, seed: int, tasks: int) -> set[str]:
    """The templates of tasks 0..`tasks`-1 (sampled again: a worker's sample is cheap)."""
    built = await asyncio.gather(*(sample_one(pool, domain, seed, i) for i in range(tasks)))
    return {item.task.template for item, _ in built if item is not None}


def check_domain(
    name: str, config: CheckDomainConfig | None = None, **options: Any
) -> DomainReport:
    """Run every check on domain `name`: tasks 0..`tasks`-1 of `seed` by weight, `per_template`
    draws of each named template, `fuzz` hostile calls per tool; `strict` counts warnings as
    problems (`config`, or `options` named as `toolscale check-domain`'s flags). Raises
    ConfigError for an unknown domain or bad settings."""
    if config is None:
        config = from_options(CheckDomainConfig, options, "check-domain")
    config = config or CheckDomainConfig()
    config.check()
    domain = get_domain(name)
    tasks = config.tasks
    if name.startswith("tau2:"):  # a task file's tasks, no more (toolscale.tau2)
        tasks = min(tasks, len(domain.templates))
    found = schema_findings(domain.toolkit)
    if found:  # every task needs the schemas: nothing more can be checked
        return DomainReport(name, 0, tuple(found))
    named = named_templates(domain) if config.per_template else ()
    checked = asyncio.run(_check_tasks(domain, config, tasks, named))
    report = DomainReport(name, tasks, (), config.per_template, named)
    found += checked.found
    if checked.sampled:
        found += reachability(domain, checked.used, report.checked(), config.seed)
    if config.strict:
        found = [replace(f, warning=False) for f in found]
    rare = rare_templates(domain, tasks) if named else None
    return replace(report, findings=tuple(found), rare=rare)
