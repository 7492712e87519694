"""Whether a stateful task reads as consistent to a careful reader: its scenario, its preference
sentence and its world (check-domain runs these on every task; tests on broken ones).

`scenario_problems` lists, as (class, message), what an LLM user or a careful agent would trip
on in the texts a task gives them:

- `motive`: the opening gives one motive and the reason for the call another;
- `daytime`: a greeting or situation names a part of the day the task's clock is not in, or a
  world with no clock (`toolscale.kit.daytime`);
- `today_dated`: "today" after a request that names its own day ("... on Saturday 28 June today");
- `change_trigger`: a `change` caller's instructions do not say when to change their mind;
- `grammar`: a slot filled against its words ("You was", "Am you", "one rooms", "a 11:30 am",
  "subscribe you");
- `slot`: what the user knows names a detail by a wording's slot ("Your other is savings");
- `manner_pref`: a patient caller who says they are pressed for time;
- `avoid_unrelated`: the tool to avoid is no look-up of this request's records
  (`toolscale.economics.fit.plausible_avoid`), or the calculator where nothing is summed;
- `json_every_reply`: a chat whose JSON profile asks for every reply in JSON, not the final one;
- `repeated`: two sentences of the task instructions say the same six words (the goal restated
  as what to agree to and again as a note), outside the quoted change of mind.

`past_first` counts a changing caller's first request dated in the past (a reading-pass figure:
a refusal's record no longer opens such a call, and a dispute of a past charge rightly does).
`invariant_problems` lists the domain's world invariants the task's initial state breaks
(`toolscale.kit.invariants`); the receipt rule is `toolscale.check.receipts`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from toolscale.core.records import Task
from toolscale.economics.fit import plausible_avoid
from toolscale.economics.sayings import JSON_IN_CHAT, PATIENT_MANNERS, SAYINGS
from toolscale.kit.daytime import fits, hour_of, parts_named
from toolscale.kit.invariants import broken
from toolscale.kit.phrasing import second_person

_MONTHS = "January February March April May June July August September October November December"
_DAY = re.compile(
    r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) (\d{1,2}) ("
    + "|".join(_MONTHS.split())
    + r")\b"
)
_TODAY_DATED = re.compile(_DAY.pattern + r"[^.?!\"]*\btoday\b")
_GRAMMAR = (
    re.compile(r"\b[Yy]ou (was|wasn't)\b|\b[Aa]m you\b"),
    re.compile(r"\b(one|1) (rooms|nights|degrees|seats|tickets|packs|servings|guests|bags)\b"),
    re.compile(r"\b[Aa] (8|11|18)(:\d\d)?\b"),
    re.compile(r"\b[Yy]ou want to \w+ you\b|\byou have for you\b"),
)


def _repeated(instructions: str) -> list[str]:
    """Six words that two sentences both say (one sentence may name two records alike: "your
    tickets for the X v Y game ... and your seats for the X v Y game")."""
    told = instructions.split(' Your change of mind: "')[0]
    seen: dict[str, int] = {}
    found = []
    for n, sentence in enumerate(re.split(r"(?<=[.!?]) +(?=[A-Z])", told)):
        words = re.findall(r"[\w'$,:-]+", sentence.lower())
        for k in range(len(words) - 5):
            gram = " ".join(words[k : k + 6])
            if seen.setdefault(gram, n) != n and gram not in found:
                found.append(gram)
    return found


def _today(state: dict[str, Any]) -> str:
    day = state.get("today") or str(state.get("now", ""))[:10]
    return day if isinstance(day, str) else ""


def _past_dates(text: str, today: str) -> list[str]:
    if not today:
        return []
    year, found = int(today[:4]), []
    for match in _DAY.finditer(text):
        month = _MONTHS.split().index(match.group(2)) + 1
        if date(year, month, int(match.group(1))).isoformat() < today:
            found.append(match.group(0))
    return found


def _motive(task: Task, motives: tuple[str, ...]) -> list[str]:
    scenario = task.user_scenario
    if scenario is None or scenario.behaviour == "change":
        return []  # the opening's motive is the first request's
    opened = {m for m in motives if m in task.instruction}
    told = {m for m in motives if second_person(m) in scenario.reason_for_call}
    if opened and told and not opened & told:
        return [f"the opening says {sorted(opened)[0]!r}, the reason {sorted(told)[0]!r}"]
    return []


def _preference(task: Task, toolkit: Any, alternatives: list[list[Any]]) -> list[tuple[str, str]]:
    pref, found = task.preference, []
    manner = task.user_scenario.manner if task.user_scenario else ""
    if (
        pref.profile == "hurry"
        and manner in PATIENT_MANNERS
        and pref.instruction in SAYINGS["hurry"]
    ):
        found.append(("manner_pref", f"a {manner} caller says {pref.instruction!r}"))
    for tool in pref.forbidden_tools:
        if tool in toolkit.specs() and not plausible_avoid(
            tool, toolkit, task.gold_actions, alternatives
        ):
            found.append(("avoid_unrelated", f"asks to avoid {tool}, unrelated to the request"))
    chat = task.user_scenario is not None
    json = pref.answer_format == "json_confidence" and chat
    if json and pref.instruction not in JSON_IN_CHAT and "final" not in pref.instruction:
        found.append(("json_every_reply", f"{pref.instruction!r} in a chat"))
    return found


def scenario_problems(
    task: Task, toolkit: Any, motives: tuple[str, ...] = (), alternatives: Sequence[list[Any]] = ()
) -> list[tuple[str, str]]:
    """(class, message) for each inconsistency of the task's texts (see the module docstring);
    `motives` are the domain's motive wordings, `alternatives` the task's other routes."""
    scenario = task.user_scenario
    if scenario is None:
        return []
    found = [("motive", m) for m in _motive(task, motives)]
    hour = hour_of(task.initial_state)
    for name, text in (("opening", task.instruction), ("reason", scenario.reason_for_call)):
        if parts_named(text) and not fits(text, hour):
            found.append(("daytime", f"the {name} names {sorted(parts_named(text))} at {hour}h"))
        if _TODAY_DATED.search(text):
            found.append(("today_dated", f"the {name} says 'today' after a dated request"))
    said = " ".join([task.instruction, scenario.reason_for_call, scenario.task_instructions])
    found += [("grammar", f"{m.group(0)!r}") for g in _GRAMMAR for m in g.finditer(said)]
    for gram in _repeated(scenario.task_instructions)[:1]:
        found.append(("repeated", f"the instructions say {gram!r} twice"))
    if scenario.behaviour == "change" and "first message" not in scenario.task_instructions:
        found.append(("change_trigger", "no stated point at which to change their mind"))
    known = scenario.known_info.split(" Your request already gives")[0]
    for key in re.findall(r"\bYour ([^.]+?) is ", known):
        if key not in scenario.known:
            found.append(("slot", f"what the user knows says 'Your {key} is ...'"))
    return found + _preference(task, toolkit, list(alternatives))


def past_first(task: Task) -> list[str]:
    """A `change` caller's dropped first request dated before today: counted by the reading
    pass, not a check (a dispute of a past charge is about a past date, rightly)."""
    scenario = task.user_scenario
    if scenario is None or scenario.behaviour != "change":
        return []
    return _past_dates(scenario.first_request, _today(task.initial_state))


def invariant_problems(domain: Any, task: Task) -> list[str]:
    """The domain's world invariants that the task's initial state breaks, one line each."""
    return broken(getattr(domain, "invariants", ()), task.initial_state, task.template)


def motives_of(domain: Any) -> tuple[str, ...]:
    """Every motive wording of a kit domain's goals."""
    return tuple(m for goal in getattr(domain, "goals", ()) for m in goal.motives)
