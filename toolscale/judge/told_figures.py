"""Check `figures`: every amount, date and count the agent tells the caller is backed by what
it was shown (`toolscale.judge.figures` reads them; `toolscale.judge.attributed` ties them to
what they are said of).

Runs on the domains whose `checks_figures` is set (the kit's). Backed: shown in a tool result,
the caller's words or the policy; counted; the sum or difference of two records' amounts; a
shown amount times a count; or made of a shown amount by one of the domain's declared
`formulas` (a fee rate, a refund rule). A JSON block's fields other than money are no figures
(a stated "confidence": 0.97 is none). Gaming policy: the confident inventor, who makes the
gold change and then tells the caller a refund, a fee or a date it never saw (a plausible
"$52.99" where the record says 45.99) — right state, false words.
"""

from __future__ import annotations

from toolscale.judge.figures import unbacked_figures
from toolscale.judge.seen import Check, Seen


def figures_problems(seen: Seen) -> list[str]:
    domain, task, attempt = seen.domain, seen.task, seen.attempt
    if not domain.checks_figures:
        return []
    told = [m.content for m in attempt.messages if m.role == "assistant" and m.content]
    records = [task.instruction, *(str(c.output) for c in attempt.tool_calls)]
    records += [m.content for m in attempt.messages if m.role in ("user", "tool")]
    given = [task.system_prompt, domain.policy]
    given += [m.content for m in attempt.messages if m.role not in ("assistant", "user", "tool")]
    return unbacked_figures(told, records, given, seen.readings, domain.formulas)


CHECK = Check("figures", "outcome", figures_problems)
