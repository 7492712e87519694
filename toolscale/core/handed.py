"""The final answer of an attempt whose last call handed the question to a model.

ToolOrchestra's `answer(model)` (`toolscale.tools.delegate`) gives the model's reply to the user
as the answer: an attempt that ends with that call and an empty message has that reply as its
final answer. A message of the policy's own after it is the final answer, as always.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from toolscale.core.records import ToolCall


def handed_answer(text: str, calls: Sequence[ToolCall], answer_tools: Collection[str]) -> str:
    """The final answer of an attempt whose last message is `text` after `calls`: `text`, or
    when it is empty and the last call is one of `answer_tools` that ran, that call's reply.

    >>> call = ToolCall(id="c", name="answer", arguments="{}", output="The answer is 7.",
    ...                 status="ok", cost=0.0, latency_ms=0.0)
    >>> handed_answer("", [call], ("answer",)), handed_answer("7", [call], ("answer",))
    ('The answer is 7.', '7')
    """
    if text.strip() or not calls:
        return text
    last = calls[-1]
    return last.output if last.name in answer_tools and last.status == "ok" else text
