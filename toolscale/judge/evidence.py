"""Check `evidence`: the required facts are backed by the attempt's own look-ups.

Catches (on the kit's domains, `Domain.evidence_problems`, `toolscale.kit.evidence`): a fact
the caller did not give that no successful call of the domain's own tools showed, and an answer
to a task that changes nothing (a question, a refusal, a hand-off) given without the look-up
that establishes it. A failed call, whose error may echo a guessed value, backs nothing.
Gaming policy: the parrot, who repeats the caller's words and stock phrases ("I cannot do
that", "transferring you to a human agent") and looks nothing up.
"""

from __future__ import annotations

from toolscale.judge.seen import Check, Seen, parsed_arguments


def evidence_problems(seen: Seen) -> list[str]:
    task = seen.task
    looked = [  # a failed call, whose error may echo a guessed value, backs nothing
        (c.name, parsed_arguments(c), c.output) for c in seen.attempt.tool_calls if c.status == "ok"
    ]
    return seen.domain.evidence_problems(
        task.required_facts, task.user_scenario, looked, task.gold_actions
    )


CHECK = Check("evidence", "outcome", evidence_problems)
