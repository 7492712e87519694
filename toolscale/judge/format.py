"""Check `format`: every call names an offered tool with arguments its schema accepts, and the
conversation shows exactly the recorded calls, results and final answer.

Catches: a call to a tool the task never offered, arguments that are not a JSON object or
break the tool's schema (jsonschema), and a transcript edited after the fact (calls or results
in the messages that differ from the recorded ones, a final answer that is neither the last
assistant message nor the reply that an empty one leaves as the answer: `toolscale.core.handed`).
Gaming policy: an agent that writes a tool's result into its own text or claims calls it never
made, so that the record and the conversation tell two stories.
"""

from __future__ import annotations

from toolscale.core.handed import handed_answer
from toolscale.judge.seen import Check, Seen, parsed_arguments
from toolscale.judge.validators import validators_of


def format_problems(seen: Seen) -> list[str]:
    task, attempt = seen.task, seen.attempt
    found = validators_of(task) if seen.validators is None else seen.validators.of(task)
    problems = []
    for call in attempt.tool_calls:
        if call.name not in found:
            problems.append(f"{call.id}: unknown tool {call.name!r}")
            continue
        arguments = parsed_arguments(call)
        if not isinstance(arguments, dict):
            problems.append(f"{call.id}: arguments are not a JSON object")
            continue
        problems += [f"{call.id}: {e.message}" for e in found[call.name].iter_errors(arguments)]
    shown = [
        (fc.id, fc.name, fc.arguments)
        for m in attempt.messages
        if m.role == "assistant"
        for fc in m.tool_calls
    ]
    if shown != [(c.id, c.name, c.arguments) for c in attempt.tool_calls]:
        problems.append("the conversation's tool calls differ from the recorded calls")
    results = [(m.tool_call_id, m.content) for m in attempt.messages if m.role == "tool"]
    if results != [(c.id, c.output) for c in attempt.tool_calls]:
        problems.append("the conversation's tool results differ from the recorded outputs")
    finals = [m for m in attempt.messages if m.role == "assistant" and not m.tool_calls]
    handed = seen.domain.toolkit.answer_tools
    if not finals or handed_answer(finals[-1].content, attempt.tool_calls, handed) != (
        attempt.final_answer
    ):
        problems.append("the final answer is not the conversation's last assistant message")
    return problems


CHECK = Check("format", "format", format_problems)
