"""check-domain's one-reason check: a refusal task's refused call breaks exactly one rule.

A refusal task tests one rule of the policy. When the call its caller asked for
(`TaskSpec.refused`, kept on the SampledTask: the write the kit's composer or a hand-written
template declares) is refused for a second reason too, a careful agent that refuses for that
one is judged wrong (a saver ticket that is also cancelled; a cancelled booking moved to a
showing that is over).
The call is replayed in a sandbox worker on the task's initial state, every declared rule
checked (`toolscale.kit.broken_rules.tool_reasons`), and a task with two or more reasons (two rules,
or a rule and a refusal that is no rule) is a problem naming its template and the reasons. A
task of a refusal template (`G.no.RULE`, `G.handoff.RULE`) that names no refused call is a
warning: its one reason cannot be checked.
"""

from __future__ import annotations

import json
from typing import Any

from toolscale.check.findings import Finding
from toolscale.core.contract import Action, canonical_state
from toolscale.core.registry import get_domain
from toolscale.kit.broken_rules import in_words, tool_reasons
from toolscale.sandbox.pool import SandboxPool

REFUSAL_KINDS = (".no.", ".handoff.")  # the composer's refusal templates are named so


def reasons_in(
    domain: str, state_json: str, name: str, arguments: dict[str, Any], call_timeout_s: float
) -> tuple[tuple[str, ...], str]:
    """(the rules tool `name` breaks on the state, any other reason it refuses): what a worker
    runs for `one_reason`."""
    found = tool_reasons(get_domain(domain).toolkit, json.loads(state_json), name, arguments)
    return found.rules, found.other


async def one_reason(
    pool: SandboxPool,
    domain: str,
    template: str,
    state: dict[str, Any],
    refused: Action | None,
    index: int,
) -> list[Finding]:
    """The finding when task `index` (of `template`, on initial state `state`) is a refusal
    whose refused call has more or fewer reasons than one."""
    if refused is None:
        if not any(kind in template for kind in REFUSAL_KINDS):
            return []
        message = (
            "a refusal task that names no refused call (Draft.refused): its one reason "
            "cannot be checked"
        )
        return [Finding("one_reason", message, index, warning=True)]
    what = f"{domain} task {index}: the reasons of its refused call"
    args = (domain, canonical_state(state), refused.name, refused.arguments)
    rules, other = await pool.call(reasons_in, args, what)
    if len(rules) == 1 and not other:
        return []
    if not rules:
        message = f"its refused call {refused.name} breaks no declared rule ({other or 'passes'})"
    else:
        message = (
            f"its refused call {refused.name} is refused for {in_words(rules, other)}: a "
            "refusal task must break one rule only, or an agent refusing for another is judged "
            "wrong (draw it again when two apply: toolscale.kit.broken_rules)"
        )
    return [Finding("one_reason", message, index)]
