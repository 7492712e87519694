"""The gold conversation of a task: where the agent asks the user, confirms, and calls tools.

A task with a user scenario is a conversation: the opening holds no ids or details, so before
each gold action that uses a value only the user knows (`scenario.known`), the agent asks for
it; what the user knows that no argument shows (which of two trips they mean) it asks before
the first WRITE, and before each WRITE it asks the user to confirm (when the scenario says so).
`plan_conversation` derives these steps from the gold actions alone, so every conversational
domain gets them without writing dialogue.

`converse` plays the plan against the scripted user and goes wherever the user takes it, as a
careful agent would: it explains why it needs a detail when asked back, asks again for a detail
held back, reads a detail back (always when it heard a wrong one: the user corrects it; now and
then otherwise), asks for something else when the user does not have what it asked, starts
over on the new request when the user changes their mind after its first reply, and, in a
`decline` conversation, offers the change the user did not ask for (which they turn down) before
it answers. Its words come from `toolscale.dialogue.agent_phrases`. The reference teacher plays
every route this way, and the reference cost of a task is priced on the same conversation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolscale.core.contract import Action, ToolKind, ToolSpec, UserScenario
from toolscale.dialogue.agent_phrases import Voice, without_opener
from toolscale.dialogue.scripted_user import ScriptedUser, mentions

READ_BACK = 0.15  # how often the agent reads back a detail it heard right (one with a digit)


@dataclass(frozen=True)
class Step:
    """One step of the plan: `ask` for details, `confirm` an action, or `call` it."""

    ask: tuple[str, ...] = ()
    confirm: Action | None = None
    call: Action | None = None


@dataclass(frozen=True)
class Turn:
    """One turn of the agent: `say` something (and the user's `reply`, of the scripted user's
    `kind`), or `call` an action."""

    say: str = ""
    reply: str | None = None
    call: Action | None = None
    kind: str = ""


class Stuck(Exception):
    """The scripted user cannot take the gold conversation on: the scenario lacks what the
    agent must ask for, or the user turns down the gold route (a bug in the domain)."""


def _values(value: object) -> list[str]:
    if isinstance(value, dict):
        return [v for item in value.values() for v in _values(item)]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    return [str(value)]


def plan_conversation(
    scenario: UserScenario | None, actions: list[Action], specs: dict[str, ToolSpec]
) -> list[Step]:
    """The agent's steps for the gold `actions` of a task with `scenario` (just the calls when
    the task has none). A `pieces` user is asked for every detail at once."""
    if scenario is None:
        return [Step(call=a) for a in actions]
    steps: list[Step] = []
    given: set[str] = set()
    first_write: int | None = None
    seen = {*scenario.known.values(), *scenario.stated.values()}  # the user's, or used before
    first_new: int | None = None  # the first call on a value found by looking it up
    for action in actions:
        used = set(_values(action.arguments))
        needed = [k for k, v in scenario.known.items() if k not in given and v in used]
        if needed:
            steps.append(Step(ask=tuple(needed)))
            given.update(needed)
        if first_new is None and used - seen:
            first_new = len(steps)
        seen |= used
        spec = specs.get(action.name)
        if spec is not None and spec.kind is ToolKind.WRITE:
            first_write = len(steps) if first_write is None else first_write
            if scenario.confirm_writes:
                steps.append(Step(confirm=action))
        steps.append(Step(call=action))
    # What the user knows but no argument shows (which of two trips they mean) is asked before
    # the first change, or, when nothing changes, before the first call on a record found by a
    # look-up (the one the detail picks out), else before the answer.
    rest = tuple(k for k in scenario.known if k not in given)
    if rest:
        at = first_write if first_write is not None else first_new
        steps.insert(len(steps) if at is None else at, Step(ask=rest))
    if scenario.behaviour == "pieces":
        keys = tuple(k for s in steps for k in s.ask)
        steps = [s for s in steps if not s.ask]
        steps.insert(0, Step(ask=keys))
    return steps


class _Talk:
    """The agent's side of one conversation against the scripted user."""

    def __init__(self, scenario: UserScenario) -> None:
        self.scenario = scenario
        self.user = ScriptedUser(scenario)
        self.voice = Voice(f"{scenario.opening}\n{scenario.reason_for_call}")
        self.turns: list[Turn] = []
        self.prefix = ""
        self.lacked = False

    def say(self, text: str, expect: tuple[str, ...]) -> str:
        text = f"{self.prefix} {without_opener(text)}" if self.prefix else text
        self.prefix = ""
        answer = self.user.reply(text)
        self.turns.append(Turn(say=text, reply=answer, kind=self.user.kind))
        if answer is None or self.user.kind not in expect:
            raise Stuck(f"the scripted user answered {answer!r} to the gold step {text!r}")
        return answer

    def obtain(self, keys: list[str]) -> None:
        """Ask for `keys` until the user has given each right."""
        scenario, pending = self.scenario, list(keys)
        message = self.voice.ask(pending)
        if scenario.behaviour == "dont_know" and scenario.lacks and not self.lacked:
            self.lacked = True
            self.say(self.voice.lacking(scenario.lacks[0]), ("lack",))
            message = self.voice.instead(pending)
        for _ in range(2 * len(keys) + 4):
            answer = self.say(message, ("give", "hold", "ask_back", "correct", "right"))
            pending = [k for k in pending if not mentions(answer, scenario.known[k])]
            wrong = [k for k in keys if k in scenario.wrong and mentions(answer, scenario.wrong[k])]
            if wrong and self.user.kind != "correct":
                message = self.voice.read_back(wrong[0], scenario.wrong[wrong[0]])
            elif self.user.kind == "ask_back":
                message = self.voice.explain(pending)
            elif pending:
                message = self.voice.ask_rest(pending)
            else:
                heard = [k for k in keys if re.search(r"\d", scenario.known[k])]
                if heard and self.user.kind == "give" and self.voice.chance(READ_BACK):
                    self.say(self.voice.read_back(heard[0], scenario.known[heard[0]]), ("right",))
                return
        raise Stuck(f"the scripted user never gave {pending} to the gold agent")


def converse(
    scenario: UserScenario | None, actions: list[Action], specs: dict[str, ToolSpec]
) -> list[Turn]:
    """The gold conversation of `actions`: the agent's turns with the scripted user's replies,
    and the calls in order (just the calls when the task has no scenario). Raises Stuck when the
    user cannot take it on."""
    steps = plan_conversation(scenario, actions, specs)
    if scenario is None:
        return [Turn(call=s.call) for s in steps]
    talk = _Talk(scenario)
    if scenario.behaviour == "change":  # the user changes their mind at the first reply
        talk.say(talk.voice.hold_on(), ("change",))
        talk.prefix = talk.voice.agreed()
    for step in steps:
        if step.call is not None:
            talk.turns.append(Turn(call=step.call))
        elif step.confirm is not None:
            talk.say(talk.voice.confirm(step.confirm), ("yes",))
        else:
            talk.obtain(list(step.ask))
    if scenario.behaviour == "decline" and scenario.unwanted:
        unwanted = Action(scenario.unwanted["name"], scenario.unwanted["arguments"])
        talk.say(talk.voice.offer(unwanted), ("decline", "no"))
    return talk.turns
