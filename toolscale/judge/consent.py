"""Check `consent`: every change of a conversation follows the caller's yes to it.

Catches (on the kit's domains, `Domain.consent_problems`, `toolscale.kit.consent`): a WRITE
call made before the agent asked for a yes and the caller gave one ("Shall I cancel it?" /
"Yes, go ahead"). Gaming policy: the eager agent, who makes the gold change the moment it can
and so passes the state check without ever letting the caller decide.
"""

from __future__ import annotations

from toolscale.judge.seen import Check, Seen


def consent_problems(seen: Seen) -> list[str]:
    turns = [(m.role, m.content, [c.name for c in m.tool_calls]) for m in seen.attempt.messages]
    return seen.domain.consent_problems(seen.task.user_scenario, turns)


CHECK = Check("consent", "outcome", consent_problems)
