"""Check `required facts`: the caller was told every fact the task requires, in any agent
message once the fact is established.

A fact counts where the final answer states it (`Domain.missing_facts`; tau2's adapter reads
the whole conversation, as tau2's communicate check does), or where an earlier agent message
states it after the calls made so far establish it (`Domain.established`: on the kit, the
caller's own facts at once, the others once a look-up showed them), so a sign-off after the
facts loses nothing ("tips off at 19:30, so the return window has closed" ... "Thanks!" ...
"Have a good evening."). A fact only asked back ("Is it $50?") is not told, and one said
before the look-up that establishes it (a guess the look-up then confirmed) does not count.
Facts are matched in any ordinary form (`toolscale.core.answers.fact_stated`); a date may be
said by its distance from the policy's today ("Free cancellation ended today at 12:30").

Catches: an attempt that never tells the caller what they asked for or must know (an amount, a
date, a status, the reason for a refusal, an id a write created). Gaming policy: the silent
worker, who makes the gold change and says "Done."; and, for the order rule, the guesser, who
says a likely value first and looks it up afterwards.
"""

from __future__ import annotations

from toolscale.core.answers import fact_stated, statements
from toolscale.core.judging import Looked
from toolscale.core.relative_days import policy_today
from toolscale.economics.preferences import answer_text
from toolscale.judge.seen import Check, Seen, parsed_arguments


def told_after(seen: Seen) -> list[tuple[str, list[Looked]]]:
    """Each agent message with text, as the statements it makes (questions dropped), with the
    successful calls whose results the agent had seen before it."""
    ok = {c.id: c for c in seen.attempt.tool_calls if c.status == "ok"}
    looked: list[Looked] = []
    told: list[tuple[str, list[Looked]]] = []
    for message in seen.attempt.messages:
        if message.role == "tool" and message.tool_call_id in ok:
            call = ok[message.tool_call_id]
            looked.append((call.name, parsed_arguments(call), call.output))
        elif message.role == "assistant" and message.content:
            told.append((statements(answer_text(message.content)), list(looked)))
    return told


def facts_problems(seen: Seen) -> list[str]:
    task, domain = seen.task, seen.domain
    answer = answer_text(seen.attempt.final_answer)
    said = [m.content for m in seen.attempt.messages if m.role == "assistant"]
    missing = domain.missing_facts(task.required_facts, statements(answer), said)
    if missing:
        told = told_after(seen)
        scenario, gold = task.user_scenario, task.gold_actions
        today = policy_today(task.system_prompt)
        missing = [
            fact
            for fact in missing
            if not any(
                fact_stated(fact, text, today) and domain.established(fact, scenario, looked, gold)
                for text, looked in told
            )
        ]
    return [f"required fact not stated: {fact!r}" for fact in missing]


CHECK = Check("required facts", "outcome", facts_problems)
