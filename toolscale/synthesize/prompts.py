"""What the proposing model reads: the domain's policy and tools, one caller's view of the state
(`toolscale.synthesize.view`), and what to write back (intents, a task, a harder task, or a
decline) as JSON.

Every request of one intent batch (the intents, then each intent's task and its harder
versions) shows the same view, so a task is written about the records its intent was. The
task's schema asks for required facts as values with their source (`facts`; a value a write
creates named by its field alone, a refusal's reason from the refused call's error), the refused
call of a refusal or hand-off, and free-text assertions only when an assertion judge will read
them. The tools are listed with what each argument allows; what each returns is in the view
(`toolscale.synthesize.returns`). Nothing here sends a request.
"""

from __future__ import annotations

import json
from typing import Any

from toolscale.core.contract import Domain
from toolscale.synthesize.candidates import Candidate

DECLINE = '{"decline": "why this intent cannot be grounded in these records"}'


def task_format(judged: bool) -> str:
    """The JSON a task answer has; `nl_assertions` only when a judge reads them."""
    assertions = (
        '"nl_assertions": ["a statement a judge can check in the conversation"], ' if judged else ""
    )
    return (
        '{"reason_for_call": "why the caller calls, with the concrete details", '
        '"opening": "the caller\'s first message, without ids or personal details", '
        '"known": {"email": "the exact value", "booking id": "the exact value"}, '
        '"unknown_info": "what the caller does not know", '
        '"task_instructions": "how the caller behaves", '
        '"actions": [{"name": "tool_name", "arguments": {"arg": "value"}}], '
        '"refused": null, '
        '"communicate_info": [{"value": "173.48", "action": 2, "field": "refund_amount"}], '
        f'{assertions}"difficulty": "easy|medium|hard"}}'
    )


def rules(judged: bool) -> str:
    """What every task answer must respect, numbered as the problems name them."""
    facts = (
        "5. `communicate_info`: what the agent must tell the caller at the end, each a value "
        '(an amount, a date, a status, an id a change created) with its source: `{"value": ..., '
        '"action": N, "field": "..."}` where N counts the `actions` from 0 and `field` names the '
        "field of that action's result that holds the value, as the tools' results above show "
        '(a dotted path such as "fares.first" for a nested one, "years.1" for an element of a '
        'list; "" for a result that is not an object, such as calculate\'s number). Write the '
        "value as the record shows it; the agent may say it in any ordinary form. A value you "
        "cannot know in advance (an id or a total a write creates) is left out: name its field "
        'alone, `{"action": 3, "field": "invoice_id"}`, and the gold execution fills it in. No '
        "sentences, nothing the caller said themselves. A task that changes nothing and is no "
        "refusal or hand-off (a question) needs at least one such value, else it is rejected."
    )
    refusal = (
        "6. A refusal or a hand-off: when the caller asks for something the policy forbids on "
        'these records, put that call in `"refused": {"name": ..., "arguments": {...}}` (it '
        "is not among the `actions`, which hold only the look-ups that show why, and "
        "`transfer_to_human_agents` for a hand-off); it is run after them and must fail. Its "
        'reason is a fact with the source "refused": `{"value": "full", "action": "refused"}`, '
        "a word or number the tool's error states (the look-ups' value that breaks the rule, "
        'or the policy\'s limit); leave the value out, `{"action": "refused"}`, and it is taken '
        "from the error. The task is judged on its look-ups, its state (unchanged) and those "
        "reasons."
    )
    assertions = (
        "7. `nl_assertions`: statements about the conversation that a judge reads (what the "
        "agent must have done or said that no value shows); keep them few and checkable."
        if judged
        else "7. Write no `nl_assertions`: no judge reads them in this run, so a task with any "
        "is rejected. Everything the agent must say is a value in `communicate_info`."
    )
    return "\n".join(
        [
            "1. Use only ids and values shown in the records above, or returned by an earlier "
            "action. Never invent an id, a date or an amount. A tool's arguments take only the "
            "values its description allows (see the tools).",
            "2. The clock is fixed (see above): respect the policy's time rules. A trip that "
            "has left, a date in the past or a deadline that has passed cannot be acted on; a "
            "place, a table or a seat is free only where the records shown leave one (a "
            "field such as seats left, or the counts).",
            "3. `actions`: the exact tool calls, in order, that a correct agent makes under the "
            "policy, look-ups included (identify the caller as the policy demands; look up a "
            "record by the name the caller gives before using its id). They are run on exactly "
            "these records and every one must succeed; a change the caller asks for must be "
            "among them.",
            "4. `known`: every value the agent needs from the caller to make those calls (their "
            "email or id, a booking id, the new date and time, a party size, a person's name, a "
            'reason), keyed by what the agent would ask for, as a noun ("new date", not '
            '"the date he wants"): the caller reads each as "Your <key> is <value>." and '
            "gives it when asked; a detail a write takes that no earlier action returns and "
            "`known` lacks is rejected. The opening names none of them. A condition the caller "
            "sets (a highest amount) is said once, in the caller's words, in `reason_for_call` "
            '("only if the total is under $100"), and not in `known`. Write the scenario in the '
            'second person ("you").',
            facts,
            refusal,
            assertions,
            "8. If this intent cannot be done with these records under the policy (the record "
            "it needs is not shown, its time has passed) and is no refusal either, answer "
            f"{DECLINE} instead, naming what is missing. Never invent to fill a gap.",
        ]
    )


def _argument(name: str, schema: dict[str, Any]) -> str:
    """ "reason: string (illness, appointment or holiday.)": the type, and the allowed values
    or the description's constraint."""
    allowed = schema.get("enum")
    note = (
        "one of " + ", ".join(map(str, allowed))
        if allowed
        else " ".join(str(schema.get("description") or "").split())
    )
    return f"{name}: {schema.get('type', 'any')}" + (f" ({note})" if note else "")


def tool_lines(domain: Domain) -> str:
    """One line per tool: name(argument: type (what it allows); ...) [KIND] and its
    description on one line."""
    specs = domain.toolkit.specs()
    lines = []
    for schema in domain.toolkit.schemas():
        function = schema["function"]
        properties = function["parameters"].get("properties", {})
        arguments = "; ".join(_argument(k, v) for k, v in properties.items())
        summary = " ".join((function.get("description") or "").split())
        kind = specs[function["name"]].kind.value.upper()
        lines.append(f"- {function['name']}({arguments}) [{kind}] {summary}")
    return "\n".join(lines)


def _system(domain: Domain) -> str:
    return (
        f"You design realistic customer-service tasks for the {domain.name} domain, whose agent "
        "follows this policy and can call these tools.\n\n"
        f"# Policy\n{domain.policy.strip()}\n\n# Tools\n{tool_lines(domain)}\n\n"
        "Answer with JSON only."
    )


def intent_messages(
    domain: Domain, view: str, count: int, focus: list[str]
) -> list[dict[str, str]]:
    """Ask for `count` diverse intents of the caller of `view`, leaning on the tools in `focus`."""
    user = (
        f"{view}\n\n"
        f"Propose {count} different reasons this caller could contact the agent, each one the "
        "agent can act on with the records shown, today. "
        f"Favour situations that need these tools: {', '.join(focus)}. Mix simple requests with "
        "ones that need several steps; a `write` intent changes the data, a `read` one only "
        "asks (a question whose answer is a value a tool returns) or is refused or handed to a "
        "human by the policy. Where a favoured tool has no valid use on these records, a "
        "request the policy refuses is a good intent. Name the records each one is about (by "
        "id), a different record for each intent where the records allow. "
        'Answer as {"intents": [{"intent": "...", "kind": "read|write"}]}.'
    )
    return [{"role": "system", "content": _system(domain)}, {"role": "user", "content": user}]


def task_messages(
    domain: Domain, intent: str, kind: str, view: str, judged: bool = False
) -> list[dict[str, str]]:
    """Ask for one concrete task for `intent` over the records of `view` (or a decline)."""
    user = (
        f"{view}\n\n# Intent ({kind})\n{intent}\n\n"
        "Write one concrete task in which this caller contacts the agent for this intent.\n"
        f"{rules(judged)}\n\nAnswer as:\n{task_format(judged)}"
    )
    return [{"role": "system", "content": _system(domain)}, {"role": "user", "content": user}]


def evolve_messages(
    domain: Domain, candidate: Candidate, view: str, judged: bool = False
) -> list[dict[str, str]]:
    """Ask for a harder version of `candidate` over the same records (or a decline)."""
    user = (
        f"{view}\n\n# Task\n{json.dumps(candidate.model_dump(), ensure_ascii=False)}\n\n"
        "Rewrite this task into a harder one: add a constraint, another record or a trickier "
        "situation, so that a correct agent needs more steps or more care.\n"
        f"{rules(judged)}\n\nAnswer in the same JSON form:\n{task_format(judged)}"
    )
    return [{"role": "system", "content": _system(domain)}, {"role": "user", "content": user}]
