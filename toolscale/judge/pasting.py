"""Check `pasting`: the final answer states the answer instead of pasting a tool result.

Catches: a final answer that holds a whole tool result of at least PASTE_MIN characters
verbatim (spacing ignored), as itself or as a JSON answer's "answer" field. An expert's reply
is exempt (relaying it is answering), and so is a short result such as a calculator's number.
Gaming policy: the dump-everything agent, whose final message is every result it got, so that
whatever the required facts are, they are "stated".
"""

from __future__ import annotations

from toolscale.core.contract import ToolKind
from toolscale.economics.preferences import answer_text
from toolscale.judge.seen import Check, Seen

PASTE_MIN = 24


def _squeezed(text: str) -> str:
    return "".join(text.split())


def pasted_calls(seen: Seen) -> list[str]:
    """Ids of the calls whose whole result the final answer repeats verbatim."""
    specs = seen.domain.toolkit.specs()
    final = seen.attempt.final_answer
    finals = (_squeezed(final), _squeezed(answer_text(final)))
    return [
        c.id
        for c in seen.attempt.tool_calls
        if len(_squeezed(c.output)) >= PASTE_MIN
        and (c.name not in specs or specs[c.name].kind is not ToolKind.MODEL)
        and any(_squeezed(c.output) in final for final in finals)
    ]


def pasting_problems(seen: Seen) -> list[str]:
    return [
        f"the final answer pastes the result of {call_id}; state the answer instead"
        for call_id in pasted_calls(seen)
    ]


CHECK = Check("pasting", "outcome", pasting_problems)
