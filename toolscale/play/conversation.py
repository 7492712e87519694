"""The gold conversation of a task: where the agent asks the user, confirms, and calls tools.

A task with a user scenario is a conversation: the opening holds no ids or details, so before
each gold action that uses a value only the user knows (`scenario.known`), the agent asks for
it; what the user knows that no argument shows (which of two trips they mean) it asks before
the first WRITE, and before each WRITE it asks the user to confirm (when the scenario says so).
`plan` derives these steps from the gold actions alone, so every conversational domain gets them
without writing dialogue; the reference teacher plays them against the scripted user, and the
reference cost of a task is priced on the same conversation.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolscale.core.contract import Action, ToolKind, ToolSpec, UserScenario, canonical_json


@dataclass(frozen=True)
class Step:
    """One step of the agent: `say` a message the user answers, or `call` an action."""

    say: str = ""
    call: Action | None = None


def _values(value: object) -> list[str]:
    if isinstance(value, dict):
        return [v for item in value.values() for v in _values(item)]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    return [str(value)]


def ask(keys: list[str]) -> str:
    wanted = " and ".join(f"your {key}" for key in keys)
    return f"Could you please tell me {wanted}?"


def _text(value: object) -> str:
    return value if isinstance(value, str) else canonical_json(value)


def describe(action: Action) -> str:
    """An action as the agent states it before asking for confirmation."""
    what = action.name.replace("_", " ")
    arguments = ", ".join(f"{k.replace('_', ' ')} {_text(v)}" for k, v in action.arguments.items())
    return f"{what} ({arguments})" if arguments else what


def confirm(action: Action) -> str:
    return f"Before I go ahead: I am about to {describe(action)}. Shall I proceed?"


def plan_conversation(
    scenario: UserScenario | None, actions: list[Action], specs: dict[str, ToolSpec]
) -> list[Step]:
    """The agent's steps for the gold `actions` of a task with `scenario` (just the calls when
    the task has none)."""
    if scenario is None:
        return [Step(call=a) for a in actions]
    steps: list[Step] = []
    given: set[str] = set()
    first_write: int | None = None
    for action in actions:
        used = set(_values(action.arguments))
        needed = [k for k, v in scenario.known.items() if k not in given and v in used]
        if needed:
            steps.append(Step(say=ask(needed)))
            given.update(needed)
        spec = specs.get(action.name)
        if spec is not None and spec.kind is ToolKind.WRITE:
            first_write = len(steps) if first_write is None else first_write
            if scenario.confirm_writes:
                steps.append(Step(say=confirm(action)))
        steps.append(Step(call=action))
    # What the user knows but no argument shows (which of two trips they mean) is asked before
    # the first change, or before the answer when nothing changes.
    rest = [k for k in scenario.known if k not in given]
    if rest:
        steps.insert(len(steps) if first_write is None else first_write, Step(say=ask(rest)))
    return steps
