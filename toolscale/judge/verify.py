"""Judge one attempt: format, execution, grounding, outcome — stopping at the first failed stage.

- format: each call names an offered tool, its arguments are a JSON object valid against that
  tool's schema (jsonschema), and the conversation shows exactly the recorded calls and outputs;
- execution: no call crashed or timed out in the sandbox (a model-caused tool error is allowed:
  the model saw it and could recover);
- grounding: replaying the calls on a fresh copy of the task's state reproduces every recorded
  output, status and token count, and the recorded final state hash;
- outcome: the final answer pastes no tool result, the final state hash equals the gold one,
  every required fact is in the final answer, the domain finds them backed by the attempt's
  look-ups (`Domain.evidence_problems`: on the kit, a fact the caller did not give must be in a
  tool result, or the attempt made the gold route's look-up), every change of a conversation
  followed the caller's yes (`Domain.consent_problems`: on the kit, a WRITE call after a caller's
  message that agrees), every amount, count and date the agent told the caller is backed by
  what it was shown (`toolscale.judge.figures`, on a domain whose `checks_figures` is set: the
  kit's), a refusal gives no reason of another policy rule (`Domain.refusal_problems`: on the
  kit, `toolscale.kit.cited`), and the expected answer (when there is one) is
  the answer it commits to (`toolscale.core.contract.committed_answer`: one "The answer is X." or
  "Answer: X" statement). A final answer that is a JSON object with an "answer" field is judged
  on that field (so a stated confidence is never the answer), bare ("1708.50") or as a
  sentence; a fact only asked back to the user ("Is it $50?") is not stated. Pasting: the
  final answer holds a whole tool result of at least PASTE_MIN characters verbatim (spacing
  ignored); an expert's reply is exempt, since relaying it is answering.

`preference_problems` checks the task's preference profile (forbidden tools, answer format and
confidence, and with the attempt's metrics its latency or cost budget). It is deliberately not a
stage: the verdict says whether an attempt is real and correct, the preference says how well it
suited this user. A correct attempt that ignores a preference is still a verified trace, labelled
`preference_compliant = False` and rewarded as a wrong one (`r_outcome = r_preference = 0`,
`reward_group = 0`); users who want only compliant SFT data filter on that column, and the
rejected funnel keeps meaning "wrong or unreal".
"""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from jsonschema import Draft202012Validator

from toolscale.core.answers import statements
from toolscale.core.contract import ToolKind, canonical_json
from toolscale.core.errors import ConfigError
from toolscale.core.records import Message, Task, ToolCall
from toolscale.core.registry import get_domain
from toolscale.core.task_state import state_json
from toolscale.economics.preferences import answer_text, violations
from toolscale.judge.figures import Readings, unbacked_figures
from toolscale.sandbox.pool import SandboxPool


@dataclass(frozen=True)
class Verdict:
    verified: bool
    failure_stage: str | None
    reasons: list[str]


class Attempt(Protocol):
    messages: list[Message]
    tool_calls: list[ToolCall]
    final_answer: str
    final_state_hash: str


class Answered(Protocol):
    """What the preference check reads from an attempt (an Attempt, or a Labelled one)."""

    tool_calls: list[ToolCall]
    final_answer: str


@lru_cache(maxsize=4096)
def _validators(tools_json: str) -> dict[str, Draft202012Validator]:
    return {
        t["function"]["name"]: Draft202012Validator(t["function"]["parameters"])
        for t in json.loads(tools_json)
    }


class Validators:
    """Each task's tool validators, kept for its next attempt: a task's attempts (the oracle's
    routes, a teacher's drafts) are checked against the same tools, and finding their
    validators by the tools' canonical JSON serialises every schema once per attempt. Kept by
    the task's list of tools itself (a frozen task's list, shared by the copies made of it):
    an entry holds its list, so the list's id stands for no other while it is kept, and a hit
    is that very list. The `size` lists seen last are kept; another list, equal or not, is
    found by its JSON as before (alike)."""

    def __init__(self, size: int = 512) -> None:
        self._kept: OrderedDict[int, tuple[object, dict[str, Draft202012Validator]]] = OrderedDict()
        self._size = size

    def of(self, task: Task) -> dict[str, Draft202012Validator]:
        tools = task.tools
        kept = self._kept.get(id(tools))
        if kept is not None and kept[0] is tools:
            self._kept.move_to_end(id(tools))
            return kept[1]
        found = _validators(canonical_json(tools))
        self._kept[id(tools)] = (tools, found)
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return found


def _parsed_arguments(call: ToolCall) -> Any:
    try:
        return json.loads(call.arguments)
    except (ValueError, RecursionError):  # not JSON, or JSON Python refuses (a 5,000-digit int)
        return None


def format_problems(
    task: Task, attempt: Attempt, validators: Validators | None = None
) -> list[str]:
    """The format stage's problems (module docstring); `validators` keeps each task's tool
    validators for its next attempt."""
    found = _validators(canonical_json(task.tools)) if validators is None else validators.of(task)
    problems = []
    for call in attempt.tool_calls:
        if call.name not in found:
            problems.append(f"{call.id}: unknown tool {call.name!r}")
            continue
        arguments = _parsed_arguments(call)
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
    if not finals or finals[-1].content != attempt.final_answer:
        problems.append("the final answer is not the conversation's last assistant message")
    return problems


async def grounding_problems(task: Task, attempt: Attempt, pool: SandboxPool) -> list[str]:
    calls = [(c.name, _parsed_arguments(c)) for c in attempt.tool_calls]
    outcomes, final_hash = await pool.replay(task.domain, state_json(task), calls)
    problems = []
    for call, redo in zip(attempt.tool_calls, outcomes, strict=True):
        recorded = (
            call.output,
            call.status,
            call.model,
            call.prompt_tokens,
            call.completion_tokens,
        )
        replayed = (
            redo.output,
            redo.status,
            redo.model,
            redo.prompt_tokens,
            redo.completion_tokens,
        )
        if recorded != replayed:
            problems.append(f"{call.id}: replaying {call.name} gives a different result")
    if final_hash != attempt.final_state_hash:
        problems.append("replaying the calls gives a different final state")
    return problems


PASTE_MIN = 24


def _squeezed(text: str) -> str:
    return "".join(text.split())


def pasted_calls(task: Task, attempt: Attempt) -> list[str]:
    """Ids of the calls whose whole result the final answer repeats verbatim (results shorter
    than PASTE_MIN characters, such as a calculator's number, and expert replies excepted)."""
    specs = get_domain(task.domain).toolkit.specs()
    finals = (_squeezed(attempt.final_answer), _squeezed(answer_text(attempt.final_answer)))
    return [
        c.id
        for c in attempt.tool_calls
        if len(_squeezed(c.output)) >= PASTE_MIN
        and (c.name not in specs or specs[c.name].kind is not ToolKind.MODEL)
        and any(_squeezed(c.output) in final for final in finals)
    ]


def outcome_problems(task: Task, attempt: Attempt, readings: Readings | None = None) -> list[str]:
    problems = [
        f"the final answer pastes the result of {call_id}; state the answer instead"
        for call_id in pasted_calls(task, attempt)
    ]
    if attempt.final_state_hash != task.expected_state_hash:
        problems.append("the final state differs from the gold final state")
    answer = answer_text(attempt.final_answer)
    domain = get_domain(task.domain)
    said = [m.content for m in attempt.messages if m.role == "assistant"]
    problems += [  # a fact only asked back to the user ("Is it $50?") is not told
        f"required fact not stated: {fact!r}"
        for fact in domain.missing_facts(task.required_facts, statements(answer), said)
    ]
    looked = [  # a failed call, whose error may echo a guessed value, backs nothing
        (c.name, _parsed_arguments(c), c.output) for c in attempt.tool_calls if c.status == "ok"
    ]
    problems += domain.evidence_problems(
        task.required_facts, task.user_scenario, looked, task.gold_actions
    )
    if domain.checks_figures:  # every amount, count and date told the caller is backed
        told = [m.content for m in attempt.messages if m.role == "assistant" and m.content]
        records = [task.instruction, *(str(c.output) for c in attempt.tool_calls)]
        records += [m.content for m in attempt.messages if m.role in ("user", "tool")]
        given = [task.system_prompt, domain.policy]
        given += [
            m.content for m in attempt.messages if m.role not in ("assistant", "user", "tool")
        ]
        problems += unbacked_figures(told, records, given, readings)
    results = [str(c.output) for c in attempt.tool_calls]  # the records the agent was shown
    results += [m.content for m in attempt.messages if m.role == "tool"]
    problems += domain.refusal_problems(task.template, answer, results)  # the task's own reason
    turns = [(m.role, m.content, [c.name for c in m.tool_calls]) for m in attempt.messages]
    problems += domain.consent_problems(task.user_scenario, turns)  # a write needs a yes
    expected = task.expected_answer  # judged on the whole answer: a JSON one's field is bare
    if expected is not None and not domain.check_answer(expected, attempt.final_answer):
        problems.append(f"expected answer {task.expected_answer!r} not stated")
    return problems


def preference_problems(
    task: Task, attempt: Answered, metrics: Mapping[str, Any] | None = None
) -> list[str]:
    """The constraints of the task's preference profile that the attempt breaks (a label); with
    the attempt's `metrics`, its budget too (total latency and cost)."""
    calls_per_tool = Counter(c.name for c in attempt.tool_calls)
    totals = (metrics["total_latency_ms"], metrics["total_cost"]) if metrics else (None, None)
    return violations(task.preference, calls_per_tool, attempt.final_answer, *totals)


async def verify(
    task: Task,
    attempt: Attempt,
    pool: SandboxPool,
    replay: bool = True,
    readings: Readings | None = None,
    validators: Validators | None = None,
) -> Verdict:
    """The verdict on one attempt; `failure_stage` names the first stage that failed. With
    `replay` off, grounding holds without a replay: for an attempt whose calls the pipeline
    itself just ran on a fresh state (`toolscale.judge.rubric`), whose outcomes are the replay.
    `readings` keeps what each input of the figures check shows, for the next attempt, and
    `validators` each task's tool validators."""
    if task.domain_version != get_domain(task.domain).version:
        raise ConfigError(
            f"task {task.id} was made by {task.domain} {task.domain_version}, but "
            f"{get_domain(task.domain).version} is installed; install the matching version"
        )
    problems = format_problems(task, attempt, validators)
    if problems:
        return Verdict(False, "format", problems)
    broken = [
        f"{c.id}: {c.name} {c.status}"
        for c in attempt.tool_calls
        if c.status in ("crash", "timeout")
    ]
    if broken:
        return Verdict(False, "execution", broken)
    problems = await grounding_problems(task, attempt, pool) if replay else []
    if problems:
        return Verdict(False, "grounding", problems)
    problems = outcome_problems(task, attempt, readings)
    if problems:
        return Verdict(False, "outcome", problems)
    return Verdict(True, None, [])
