"""A panel agent's side of one conversation: a script that plays the task's gold calls, asks the
caller for what the gold route needs, confirms each write and answers, reading the caller's
replies as a capable agent does (a detail given, a yes, a no, an option picked).

`script` is a generator: it yields the agent's next turn (`Say` a text, or `Call` a tool) and is
sent what came back (the caller's reply, or the tool's result). Its knowledge of the task is the
gold route and the scenario's values, so it uses a detail only once the caller has said it, and
checks a detail it heard wrong by reading it back. The negative agents (`NEGATIVES`) talk plainly
and act wrongly: state a wrong amount or date, write without the caller's yes, write on another
of the caller's records, refuse for a rule that does not apply, answer without a call, parrot.
`negative_applies` says which of them a task admits."""

from __future__ import annotations

import json
import re
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from tests.panel import rewrite
from tests.panel.compat import plan_conversation
from tests.panel.voices import Voice, described
from toolscale.core.contract import Action, ToolKind, UserScenario
from toolscale.core.registry import get_domain
from toolscale.kit.evidence import parrot
from toolscale.sample.tasks import SampledTask

NEGATIVES = ("wrong_amount", "no_yes", "other_record", "wrong_rule", "unbacked", "parrot")
ASKS = 4  # asks for one set of details before the agent gives up


@dataclass(frozen=True)
class Say:
    text: str


@dataclass(frozen=True)
class Call:
    name: str
    arguments: dict[str, Any]


Script = Generator[Say | Call, str, None]

_NO = re.compile(
    r"^\W*(?:no\b(?! idea)|nope|not\b|oh no|ha, no|please don't|don't|that won't|hmm, not)", re.I
)
_YES = re.compile(
    r"\b(?:yes|yeah|yep|sure|ok|okay|go ahead|proceed|sounds good|please do|do it|do that|"
    r"go for it|that's right|correct|perfect|exactly|right)\b",
    re.I,
)


def agreed(reply: str) -> bool | None:
    """Whether the caller's reply says yes (True), no (False), or neither (None)."""
    if _NO.search(reply):
        return False
    return True if _YES.search(reply) else None


def said(text: str, value: str) -> bool:
    """Whether `text` holds `value` as a whole token, case ignored."""
    pattern = rf"(?<![\w@.-]){re.escape(value.casefold())}(?![\w@-]|\.\w)"
    return re.search(pattern, text.casefold()) is not None


def _records(output: str) -> list[dict[str, Any]]:
    try:
        value = json.loads(output)
    except ValueError:
        return []
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def _uses(action: Action, value: object) -> bool:
    return value in action.arguments.values()


Option = tuple[str, str, list[str]]  # (in words, the record's id, the values it shows)


def choice_at(item: SampledTask, actions: list[Action]) -> dict[int, tuple[list[Option], str]]:
    """Where the options agent lists records and asks which: after the first call whose result
    lists two or more records of which a later gold call uses exactly one (by an id field):
    {call index: (the options, the chosen record's id)}."""
    for n, outcome in enumerate(item.gold_outcomes[: len(actions)]):
        records = _records(outcome.output)
        for key in (k for k in (records[0] if records else {}) if k.endswith("id")):
            ids = [r.get(key) for r in records]
            later = [i for i in ids if any(_uses(a, i) for a in actions[n + 1 :])]
            if len(records) >= 2 and len(set(ids)) == len(ids) and len(later) == 1:
                options = [_option(r, key, records) for r in records]
                return {n: (options, str(later[0]))}
    return {}


def _option(record: dict[str, Any], key: str, records: list[dict[str, Any]]) -> Option:
    """A record in words, as a capable agent lists it: its id and up to five fields that tell it
    from the others, what a caller knows a record by first (dates, then names and other words,
    then numbers)."""
    differing = [
        (k.replace("_", " "), str(v))
        for k, v in record.items()
        if k != key
        and not k.endswith("id")
        and isinstance(v, str | int | float)
        and str(v)
        and len({str(r.get(k)) for r in records}) > 1
    ]

    def rank(field: tuple[str, str]) -> int:
        value = field[1]
        return 0 if _DATE.fullmatch(value) else 1 if re.search(r"[A-Za-z]", value) else 2

    shown = sorted(differing, key=rank)[:5]
    words = ", ".join(f"{k} {v}" for k, v in shown)
    return f"{record[key]} ({words})", str(record[key]), [v for _, v in shown]


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def rules(domain: str) -> list[str]:
    """The policy rules a domain's refusal templates test ("enrol.no.class_full" -> class_full)."""
    names = get_domain(domain).templates
    return sorted({t.split(".no.")[1] for t in names if ".no." in t})


def other_record(item: SampledTask, actions: list[Action]) -> list[Action] | None:
    """The gold actions with the first write's record id swapped for another of the caller's
    records of the same kind (one an earlier result listed), or None when none is listed."""
    specs = get_domain(item.task.domain).toolkit.specs()
    for n, action in enumerate(actions):
        if specs[action.name].kind is not ToolKind.WRITE:
            continue
        for outcome in item.gold_outcomes[:n]:
            for record in _records(outcome.output):
                for key, value in action.arguments.items():
                    if record.get(key) == value:
                        continue
                    mine = [r for r in _records(outcome.output) if r.get(key) == value]
                    other = record.get(key)
                    if mine and isinstance(other, str) and other:
                        swapped = {**action.arguments, key: other}
                        return [*actions[:n], Action(action.name, swapped), *actions[n + 1 :]]
        return None
    return None


def negative_applies(item: SampledTask, negative: str) -> bool:
    task = item.task
    scenario = task.user_scenario
    specs = get_domain(task.domain).toolkit.specs()
    writes = any(specs[a["name"]].kind is ToolKind.WRITE for a in task.gold_actions)
    actions = [Action(a["name"], a["arguments"]) for a in task.gold_actions]
    if negative == "wrong_amount":
        return rewrite.wrong_amount_or_date(item.final_message, task) is not None
    if scenario is None:
        return False
    if negative == "no_yes":
        return writes and scenario.confirm_writes
    if negative == "other_record":
        return other_record(item, actions) is not None
    if negative == "wrong_rule":
        rule = task.template.split(".no.")[1] if ".no." in task.template else ""
        return writes or any(r != rule for r in rules(task.domain))
    return bool(actions)  # unbacked, parrot


def _refusal(item: SampledTask) -> str:
    """A refusal for a policy rule the task does not break, with every id the gold answer
    states (so only the reason is wrong)."""
    task = item.task
    rule = task.template.split(".no.")[1] if ".no." in task.template else ""
    other = next((r for r in rules(task.domain) if r != rule), "policy")
    ids = ", ".join(dict.fromkeys(rewrite.ID.findall(item.final_message)))
    records = f" For your records: {ids}." if ids else ""
    return f"I've checked. I'm sorry, I can't do that: {other.replace('_', ' ')}.{records}"


def script(item: SampledTask, style: str, form: int = 0) -> Script:
    """The agent of `style` (one of STYLES or NEGATIVES) on `item` (module docstring)."""
    task = item.task
    scenario = task.user_scenario
    voice = Voice(style if style not in NEGATIVES else "plain")
    if style == "parrot":
        yield Say(parrot(scenario, task.instruction))
        return
    specs = get_domain(task.domain).toolkit.specs()
    actions = [Action(a["name"], a["arguments"]) for a in task.gold_actions]
    if style == "other_record":
        actions = other_record(item, actions) or actions
    steps = plan_conversation(scenario, actions, specs)
    if style == "no_yes":
        steps = [s for s in steps if s.confirm is None]
    if style == "unbacked":
        steps = [s for s in steps if s.call is None]
    if style == "wrong_rule":
        steps = [
            s
            for s in steps
            if s.confirm is None
            and (s.call is None or specs[s.call.name].kind is not ToolKind.WRITE)
        ]
    talk = _Talk(scenario, voice, task.instruction)
    if scenario is not None and style == "lacking_first":
        yield from talk.lacking(_lacked(scenario, actions))
    everything = scenario is not None and style == "all_at_once" and bool(scenario.known)
    if everything and not (yield from talk.obtain(list(scenario.known))):  # type: ignore[union-attr]
        return
    choices = choice_at(item, actions) if style == "options" else {}
    done = 0
    for step in steps:
        if step.ask and not (yield from talk.obtain(list(step.ask))):
            return
        if step.confirm is not None and not (yield from talk.confirmed(step.confirm)):
            return
        if step.call is not None:
            yield Call(step.call.name, step.call.arguments)
            if done in choices and not (yield from talk.picked(*choices[done])):
                return
            done += 1
    if style == "wrong_rule":
        yield Say(_refusal(item))
    elif style == "wrong_amount":
        yield Say(rewrite.wrong_amount_or_date(item.final_message, task) or item.final_message)
    else:
        yield Say(voice.final(item, form))


def _lacked(scenario: UserScenario, actions: list[Action]) -> str:
    """An identifier the caller lacks: one the scenario says they lack, else the first id a gold
    call takes that the caller does not know (found by a look-up), else an account number."""
    if scenario.lacks:
        return scenario.lacks[0]
    theirs = {*scenario.known.values(), *scenario.stated.values()}
    for action in actions:
        for key, value in action.arguments.items():
            if key.endswith("_id") and value not in theirs:
                return key.replace("_", " ")
    return "account number"


class _Talk:
    """What the agent has heard from the caller, and the exchanges that read it."""

    def __init__(self, scenario: UserScenario | None, voice: Voice, opening: str) -> None:
        self.scenario = scenario
        self.voice = voice
        self.heard = opening

    def _told(self, key: str) -> bool:
        assert self.scenario is not None
        return said(self.heard, self.scenario.known[key])

    def lacking(self, key: str) -> Generator[Say, str, None]:
        """Ask first, as a request, for an identifier the caller lacks (issue 33's "Please give
        me the order id ... so I can find the shoe order.")."""
        self.heard += "\n" + (yield Say(f"Sure. Please give me your {key}, so I can find it."))

    def obtain(self, keys: list[str]) -> Generator[Say, str, bool]:
        """Ask for `keys` until the caller has said each (a detail heard wrong is read back);
        False when they never do (the agent has said it cannot go on)."""
        assert self.scenario is not None
        wrong, checked = self.scenario.wrong, set()
        for tries in range(ASKS):
            pending = [k for k in keys if not self._told(k)]
            if not pending:
                return True
            reply = yield Say(self.voice.ask(pending, tries))
            self.heard += "\n" + reply
            for key in pending:
                if key in wrong and key not in checked and said(reply, wrong[key]):
                    checked.add(key)
                    if not self._told(key):
                        self.heard += "\n" + (yield Say(self.voice.read_back(key, wrong[key])))
        if all(self._told(k) for k in keys):
            return True
        yield Say("I'm sorry, I can't go on without those details.")
        return False

    def confirmed(self, action: Action) -> Generator[Say, str, bool]:
        for tries in range(3):
            reply = yield Say(self.voice.confirm(action, tries))
            self.heard += "\n" + reply
            verdict = agreed(reply)
            if verdict is not None:
                if not verdict:
                    yield Say(f"Understood, I have not changed anything ({described(action)}).")
                return verdict
        yield Say("I'll leave everything as it is, then.")
        return False

    def picked(self, options: list[Option], chosen: str) -> Generator[Say, str, bool]:
        """List the options and ask which; True when the caller picks `chosen` (by its id, or
        by a value only it shows)."""
        for _ in range(2):
            reply = yield Say(self.voice.which([text for text, _, _ in options]))
            self.heard += "\n" + reply
            named = [i for _, i, _ in options if said(reply, i)]
            if not named:
                values = [v for _, _, shown in options for v in shown]
                named = [
                    i
                    for _, i, shown in options
                    if any(values.count(v) == 1 and said(reply, v) for v in shown)
                ]
            if len(named) == 1:
                if named[0] == chosen:
                    return True
                break
        yield Say("I'm sorry, I can't find that one on your record.")
        return False
