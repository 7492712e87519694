"""Check `state`: the final state is the gold final state (hash equality, tau2's DB check).

Catches: a wrong change, a missing change, an extra change and a change to the wrong record.
Gaming policy: the talker, who tells the caller "done" and changes nothing (or changes
everything it can reach). A task that changes nothing is passed by doing nothing here, which
is why the checks after this one exist.
"""

from __future__ import annotations

from toolscale.judge.seen import Check, Seen


def state_problems(seen: Seen) -> list[str]:
    if seen.attempt.final_state_hash != seen.task.expected_state_hash:
        return ["the final state differs from the gold final state"]
    return []


CHECK = Check("state", "outcome", state_problems)
