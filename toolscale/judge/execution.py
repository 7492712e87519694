"""Check `execution`: no call crashed or timed out in the sandbox.

Catches: a call whose tool raised something other than a `ToolError` (a bug the call hit) or
ran past its time. A tool error the model caused is not caught here: the model saw it and could
recover. Gaming policy: none in particular; an attempt that broke the sandbox says nothing
about the task, so it is never a trace.
"""

from __future__ import annotations

from toolscale.judge.seen import Check, Seen


def execution_problems(seen: Seen) -> list[str]:
    return [
        f"{c.id}: {c.name} {c.status}"
        for c in seen.attempt.tool_calls
        if c.status in ("crash", "timeout")
    ]


CHECK = Check("execution", "execution", execution_problems)
