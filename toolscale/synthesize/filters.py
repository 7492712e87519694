"""The filters a candidate task passes before the solver sees it: well-formed, its gold actions
execute (and change the state when the task is a write; a refused call fails), the caller can
give every identifier and every detail the gold route needs, a question names a fact, and doing
nothing does not solve it.

Each filter returns the reasons it rejects a candidate (an empty list: it passes), so the
pipeline records the first failing stage with its reasons. Gold actions run in the sandbox on a
fresh copy of the candidate's state, exactly as a teacher's calls would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from toolscale.core.contract import Domain, ToolKind, canonical_state, fact_stated, state_hash
from toolscale.core.records import Message, Task, ToolCall
from toolscale.judge.verify import outcome_problems
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool
from toolscale.synthesize.candidates import Candidate
from toolscale.synthesize.view import personal_tables

HANDOFF = "transfer_to_human_agents"  # the generic tool of toolscale.tools.generic


def candidate_problems(domain: Domain, candidate: Candidate) -> list[str]:
    """Every gold action names one of the domain's tools and has arguments valid against its
    JSON schema; there is at least one action."""
    if not candidate.actions:
        return ["the task has no gold actions"]
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in domain.toolkit.schemas()}
    problems = []
    named = [(f"action {n}", a) for n, a in enumerate(candidate.actions)]
    if candidate.refused is not None:
        named.append(("the refused call", candidate.refused))
    for where, action in named:
        if action.name not in schemas:
            problems.append(f"{where}: unknown tool {action.name!r}")
            continue
        validator = Draft202012Validator(schemas[action.name])
        problems += [
            f"{where} ({action.name}): {e.message}" for e in validator.iter_errors(action.arguments)
        ]
    return problems


def is_write(domain: Domain, candidate: Candidate, kind: str) -> bool:
    """Whether the task implies a change to the data: a write intent, or a WRITE gold action."""
    specs = domain.toolkit.specs()
    return kind == "write" or any(
        specs[a.name].kind is ToolKind.WRITE for a in candidate.actions if a.name in specs
    )


async def run_gold(
    pool: SandboxPool, domain: Domain, state: dict[str, Any], candidate: Candidate
) -> tuple[list[CallOutcome], str]:
    """Execute the gold actions in order on a fresh copy of `state`: outcomes, final hash."""
    calls = [(a.name, a.arguments) for a in candidate.actions]
    return await pool.replay(domain.name, canonical_state(state), calls)


def execution_problems(
    outcomes: list[CallOutcome], initial_hash: str, final_hash: str, write: bool
) -> list[str]:
    """Every gold call succeeded; a write task's gold actions changed the state."""
    problems = [
        f"gold action {n} {o.status}: {o.output[:200]}"
        for n, o in enumerate(outcomes)
        if o.status != "ok"
    ]
    if not problems and write and final_hash == initial_hash:
        problems.append("the gold actions change nothing although the task asks for a change")
    return problems


def identifiers(domain: Domain, state: dict[str, Any]) -> set[str]:
    """The values that name a caller's own record, which only the caller can give: the ids of
    the records of the central entity and those it owns (`view.personal_tables`: a customer,
    their bookings), and the values of the fields a finder looks them up by (an email, a phone
    number; on the kit, `@finds`). Records open to every caller (trains, stations, products)
    are not: the agent finds those with the tools. None for a domain without entities."""
    personal = personal_tables(domain, state)
    by = {
        link.by
        for name in domain.toolkit.specs()
        if (link := getattr(getattr(domain.toolkit, name, None), "__toolscale_link__", None))
        and getattr(link, "by", "")
    }
    found: set[str] = set()
    for table, rows in state.items():
        if table not in personal or not isinstance(rows, dict):
            continue
        for key, record in rows.items():
            if not isinstance(record, dict):
                continue
            found.add(str(key))
            found |= {str(record[f]) for f in by if isinstance(record.get(f), str | int)}
    return found


def refused_problems(candidate: Candidate, refusal: CallOutcome | None) -> list[str]:
    """The refused call (run after the gold route, on its final state) fails with an error of
    the tool: else the policy does not refuse it on these records."""
    if candidate.refused is None or refusal is None:
        return []
    call = f"the refused call {candidate.refused.name}({candidate.refused.arguments})"
    if refusal.status == "ok":
        return [
            f"{call} succeeds on these records ({refusal.output[:160]}): the policy does not "
            "refuse it; write the task as the change, or pick a record a rule forbids"
        ]
    if refusal.status != "error":
        return [f"{call} {refusal.status}: {refusal.output[:160]}"]
    return []


def is_handoff(candidate: Candidate) -> bool:
    return any(a.name == HANDOFF for a in candidate.actions)


def question_problems(candidate: Candidate, write: bool) -> list[str]:
    """A task that changes nothing and is no refusal or hand-off (a question) names a fact the
    caller does not say themselves (as the kit's questions must:
    `toolscale.kit.evidence.check_evidence`); a refusal or a hand-off is judged on the look-up
    that establishes it (its caller accepts no change), and its reason where it has one."""
    if write or candidate.refused is not None or is_handoff(candidate):
        return []
    said = said_by(candidate)
    if any(not fact_stated(fact, said) for fact in candidate.facts):
        return []
    return [
        "the task changes nothing and names no fact the caller does not already say: a "
        "question is answered with a value only a look-up gives (an amount, a date, a status) "
        "in `communicate_info`; a refusal names the call it refuses in `refused` (its reason "
        'as a fact with action "refused")'
    ]


def _given(domain: Domain, value: Any, text: str) -> bool:
    """Whether `text` states `value` (an argument: a string, or a number in any form); a code
    of several words is also said in other words that hold each of them ("incorrect_amount":
    "the amount charged was incorrect")."""
    shown = str(value)
    if shown.lower() in text.lower() or not domain.missing_facts([shown], text, [text]):
        return True
    words = shown.lower().split("_")
    said = set(re.findall(r"[a-z]+", text.lower()))
    return "_" in shown and all(w.isalpha() for w in words) and set(words) <= said


# A caller who asks for what the policy allows at most or least: "the highest I'm allowed".
_BOUND = re.compile(
    r"\b(?:highest|lowest|most|least|maximum|minimum|max|as (?:much|high|many) as)\b", re.I
)


def detail_problems(
    domain: Domain, candidate: Candidate, outcomes: list[CallOutcome], said: str
) -> list[str]:
    """Every value a gold WRITE takes (a new date, a party size, a person's name, a reason) is
    returned by an earlier gold call or given by the caller's scenario, or is a number the
    policy states for a caller who asks for the policy's bound ("the highest I'm allowed": a
    tier's limit): else the caller of the gold conversation cannot answer the agent's "Could I
    have your new date?"."""
    specs = domain.toolkit.specs()
    problems = []
    for n, action in enumerate(candidate.actions):
        if action.name not in specs or specs[action.name].kind is not ToolKind.WRITE:
            continue
        earlier = " ".join(o.output for o in outcomes[:n])
        for name, value in action.arguments.items():
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                continue
            if _given(domain, value, earlier) or _given(domain, value, said):
                continue
            bound = isinstance(value, int | float) and _BOUND.search(said) is not None
            if bound and _given(domain, value, domain.policy):
                continue
            problems.append(
                f"gold action {n} ({action.name}) takes {name} {value!r}, which no earlier gold "
                "call returns and the caller's scenario never gives: put it in `known` (keyed by "
                'what the agent would ask for, such as "new date") or say it in '
                "`reason_for_call`"
            )
    return problems


def said_by(candidate: Candidate) -> str:
    """Everything the caller's scenario says or can say, as one text."""
    scenario = candidate.scenario()
    return " ".join(
        [scenario.reason_for_call, scenario.opening, scenario.task_instructions]
        + [f"{k}: {v}" for k, v in scenario.known.items()]
    )


def caller_problems(
    domain: Domain, state: dict[str, Any], candidate: Candidate, outcomes: list[CallOutcome]
) -> list[str]:
    """Every identifier a gold action takes (a record's id, an email a finder looks up) is one
    an earlier gold call returned or one the caller's scenario gives (what they know, the reason
    for the call, the opening): else the agent could only guess it."""
    ids = identifiers(domain, state)
    said = said_by(candidate)
    problems = []
    for n, action in enumerate(candidate.actions):
        earlier = " ".join(o.output for o in outcomes[:n]).lower()
        for name, value in action.arguments.items():
            if not isinstance(value, str) or value not in ids or value.lower() in earlier:
                continue
            if not domain.missing_facts([value], said, [said]):
                continue
            problems.append(
                f"gold action {n} ({action.name}) takes {name} {value!r}, which no earlier gold "
                "call returns and the caller's scenario never gives: put it in `known` (keyed by "
                "what the agent would ask for) or say it in `reason_for_call`"
            )
    if problems:
        return problems
    return detail_problems(domain, candidate, outcomes, said)


@dataclass
class _NoAction:
    """A trajectory without any tool call: the agent repeats what the user said and stops."""

    final_answer: str
    final_state_hash: str
    messages: list[Message] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)


def do_nothing_passes(task: Task) -> bool:
    """Whether an agent that calls no tool and only repeats the user's words (opening and
    everything the user knows) passes the task's checks: such a task is trivial."""
    said = [task.instruction]
    if task.user_scenario is not None:
        said += [task.user_scenario.reason_for_call, task.user_scenario.known_info]
    attempt = _NoAction(" ".join(said), state_hash(task.initial_state))
    return not outcome_problems(task, attempt)
