"""Judging as a named list of checks: what an attempt must pass to be verified, in order.

Each check is one module of this package whose docstring says what it catches and which
gaming policy made it necessary; `CHECKS` runs them in this order, and an attempt's failure
stage is the stage of the first check that finds a problem (the checks of that stage all run,
so a rejected attempt lists every problem of its stage):

| check | stage | module |
|---|---|---|
| format | format | `format` |
| execution | execution | `execution` |
| grounding | grounding | `grounding` |
| pasting | outcome | `pasting` |
| state | outcome | `state` |
| required facts | outcome | `facts` |
| evidence | outcome | `evidence` |
| figures | outcome | `told_figures` |
| refusal reason | outcome | `refusal` |
| consent | outcome | `consent` |
| expected answer | outcome | `answer` |

A new check is one module with a `CHECK` (`toolscale.judge.seen.Check`) and one line here, at
the place in the order where its stage belongs (a stage such as `user`, for an attempt the
simulated user broke, goes where it must be decided: before the stages it takes precedence
over). Checks that depend on the domain ask it through `Domain`'s judging hooks
(`toolscale.core.judging`), so no check knows a domain. `preference_problems`
(`toolscale.judge.verify`) is no check: the preference labels a verified attempt.
"""

from __future__ import annotations

import inspect

from toolscale.judge import (
    answer,
    consent,
    evidence,
    execution,
    facts,
    format,
    grounding,
    pasting,
    refusal,
    state,
    told_figures,
)
from toolscale.judge.seen import Check, Seen

CHECKS: tuple[Check, ...] = (
    format.CHECK,
    execution.CHECK,
    grounding.CHECK,
    pasting.CHECK,
    state.CHECK,
    facts.CHECK,
    evidence.CHECK,
    told_figures.CHECK,
    refusal.CHECK,
    consent.CHECK,
    answer.CHECK,
)


async def first_failure(
    seen: Seen, checks: tuple[Check, ...] = CHECKS
) -> tuple[str, list[str]] | None:
    """(the failure stage, its problems) of the first stage of `checks` whose checks find a
    problem with the attempt, or None when every check passes."""
    stage, problems = "", list[str]()
    for check in checks:
        if check.stage != stage:
            if problems:
                return stage, problems
            stage = check.stage
        found = check.problems(seen)
        problems += await found if inspect.isawaitable(found) else found
    return (stage, problems) if problems else None


def stage_problems(seen: Seen, stage: str, checks: tuple[Check, ...] = CHECKS) -> list[str]:
    """Every problem the (synchronous) checks of `stage` find, in order."""
    problems: list[str] = []
    for check in checks:
        if check.stage == stage:
            found = check.problems(seen)
            if inspect.isawaitable(found):
                raise TypeError(f"check {check.name} is a coroutine; use first_failure")
            problems += found
    return problems
