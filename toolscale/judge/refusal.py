"""Check `refusal reason`: a refusal gives the task's own reason, not another rule's.

Catches (on the kit's domains, `Domain.refusal_problems`, `toolscale.kit.cited`): a refusing
sentence of the final answer that cites a policy rule the records do not show ("final sale"
for an order whose items are not). Gaming policy: the rule-lister, who refuses with every rule
of the policy at once so that the right one is among them.
"""

from __future__ import annotations

from toolscale.economics.preferences import answer_text
from toolscale.judge.seen import Check, Seen


def refusal_problems(seen: Seen) -> list[str]:
    attempt = seen.attempt
    results = [str(c.output) for c in attempt.tool_calls]  # the records the agent was shown
    results += [m.content for m in attempt.messages if m.role == "tool"]
    answer = answer_text(attempt.final_answer)
    return seen.domain.refusal_problems(seen.task.template, answer, results)


CHECK = Check("refusal reason", "outcome", refusal_problems)
