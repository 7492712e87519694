"""Check `expected answer`: a task with an expected answer gets it, committed to once.

Catches: a final answer that does not commit to the expected answer (`Domain.check_answer`:
one "The answer is X." or "Answer: X" statement, or a JSON answer's "answer" field, bare or as
a sentence; `toolscale.core.answers`). Gaming policy: the hedger, who lists candidates ("12 or
13") or states several answers so that one of them matches; a stated confidence is never the
answer.
"""

from __future__ import annotations

from toolscale.judge.seen import Check, Seen


def answer_problems(seen: Seen) -> list[str]:
    expected = seen.task.expected_answer  # judged on the whole answer: a JSON one's field is bare
    if expected is not None and not seen.domain.check_answer(expected, seen.attempt.final_answer):
        return [f"expected answer {expected!r} not stated"]
    return []


CHECK = Check("expected answer", "outcome", answer_problems)
