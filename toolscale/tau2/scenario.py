"""A tau2 task's user, as toolscale's `UserScenario`, and what the reference agent says last.

tau2 writes the user's instructions to the user ("You received your order ..."); toolscale's
scenario also needs the user's first message (`opening`). It is tau2's `ticket` when the task
has one, else the reason for the call turned to the first person by a few plain rewrites (a
scripted or simulated user then goes on from the scenario). `known_info` sentences of the form
"Your X is Y." become `known[X] = Y`, which the scripted user gives when asked; the rest of the
text is kept whole under `known["details"]`. This module needs no tau2.
"""

from __future__ import annotations

import re

from toolscale.core.contract import UserScenario
from toolscale.tau2.taskfile import Tau2Instructions, Tau2Task

_FIRST_PERSON = [
    (r"\byou are\b", "I am"),
    (r"\byou were\b", "I was"),
    (r"\byou're\b", "I'm"),
    (r"\byou've\b", "I've"),
    (r"\byou'd\b", "I'd"),
    (r"\byou'll\b", "I'll"),
    (r"\byourself\b", "myself"),
    (r"\byours\b", "mine"),
    (r"\byour\b", "my"),
    (r"\b(to|for|with|tell|tells|told|ask|asks|give|gives|help|helps|let|lets) you\b", r"\1 me"),
    (r"\byou\b", "I"),
]
_KNOWN = re.compile(r"^your (?P<key>[\w ,'-]+?) (?:is|are) (?P<value>.+?)\.?$", re.IGNORECASE)


def first_person(text: str) -> str:
    """The instruction as the user would say it ("You want to cancel" -> "I want to cancel")."""
    for pattern, repl in _FIRST_PERSON:

        def cased(m: re.Match[str], r: str = repl) -> str:
            return _case(m.expand(r), m.group(0))

        text = re.sub(pattern, cased, text, flags=re.IGNORECASE)
    return " ".join(text.split())


def _case(new: str, old: str) -> str:
    return new[0].upper() + new[1:] if old[:1].isupper() else new


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def known(text: str | None) -> dict[str, str]:
    """tau2's known_info as key/value pairs ("Your user id is u_1." -> {"user id": "u_1"})."""
    found: dict[str, str] = {}
    rest = []
    for sentence in _sentences(text or ""):
        match = _KNOWN.match(sentence)
        if match and match["key"].casefold() not in found:
            found[match["key"].casefold()] = match["value"].strip()
        else:
            rest.append(sentence)
    if rest:
        found["details"] = " ".join(rest)
    return found


def user_scenario(task: Tau2Task) -> UserScenario:
    scenario = task.user_scenario
    criteria = task.criteria
    instructions = scenario.instructions
    if isinstance(instructions, Tau2Instructions):
        reason = instructions.reason_for_call
        return UserScenario(
            reason_for_call=reason,
            opening=task.ticket or first_person(reason),
            known=known(instructions.known_info),
            unknown_info=instructions.unknown_info or "",
            task_instructions=instructions.task_instructions or "",
            nl_assertions=list(criteria.nl_assertions or []),
            persona=scenario.persona or "",
        )
    return UserScenario(  # free-text instructions (tau2's older task layout)
        reason_for_call=instructions,
        opening=task.ticket or first_person(instructions),
        task_instructions=instructions,
        nl_assertions=list(criteria.nl_assertions or []),
        persona=scenario.persona or "",
    )


def required_facts(task: Tau2Task) -> list[str]:
    """What tau2's communicate check requires: `communicate_info`, when COMMUNICATE is in the
    task's reward basis (otherwise tau2's reward ignores it)."""
    criteria = task.criteria
    return list(criteria.communicate_info or []) if "COMMUNICATE" in criteria.reward_basis else []


def final_message(task: Tau2Task) -> str:
    """What the reference agent says at the end: every required fact, as tau2 looks for it."""
    facts = required_facts(task)
    if not facts:
        return "Your request has been handled. Is there anything else I can help you with?"
    return "Here is what you asked for: " + "; ".join(facts) + "."
