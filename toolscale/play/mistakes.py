"""Detours of a stateful task that look like an agent's real mistakes, built from its gold route.

`--detours` plays them beside the gold route (toolscale.play.reference), so the data holds the
contrasts a policy learns from: a recovered mistake (correct, but dearer), a loop of look-ups
(correct, but over a hurried or thrifty user's budget), a forbidden tool called (correct, but
breaking the user's constraint), and routes that get the task wrong and are rejected with their
stage (the write left out or made twice, the answer given without the look-ups behind it).
Each is (variant, actions); the final message is the gold route's, as an agent sure of itself
would say it. Whether a route is right is the verifier's decision, never assumed here.
"""

from __future__ import annotations

from typing import Any

from toolscale.core.contract import Action, ToolKind, ToolSpec
from toolscale.core.records import Task

LOOP = 4  # how many times the looping agent makes each look-up
# The variants `mistakes` can return (what the card and other readers count as detours).
VARIANTS = (
    "guessed_id",
    "lookup_loop",
    "forbidden_tool",
    "write_skipped",
    "write_twice",
    "no_lookup",
)


def _id_argument(action: Action) -> str | None:
    """The first text argument that names a record (an id, a number, an email)."""
    for name, value in action.arguments.items():
        if isinstance(value, str) and value and name.endswith(("id", "number", "email")):
            return name
    return None


def mistyped(value: str) -> str:
    """`value` with one character mistyped: its last digit one higher (9 -> 0), else a letter
    doubled. Examples: "BK4292" -> "BK4293", "ana@example.com" -> "aana@example.com"."""
    for i in range(len(value) - 1, -1, -1):
        if value[i].isdigit():
            return value[:i] + str((int(value[i]) + 1) % 10) + value[i + 1 :]
    return value[0] + value


def _reuse(spec: ToolSpec, schema: dict[str, Any], gold: list[Action]) -> dict[str, Any] | None:
    """Arguments for a tool the gold route does not call, taken from the gold calls' arguments of
    the same names; None when a required one has none."""
    known = {k: v for action in gold for k, v in action.arguments.items()}
    parameters = schema["function"]["parameters"]
    arguments = {k: known[k] for k in parameters.get("properties", {}) if k in known}
    if any(k not in arguments for k in parameters.get("required", [])):
        return None
    return arguments


def mistakes(task: Task, specs: dict[str, ToolSpec]) -> list[tuple[str, list[Action]]]:
    """The mistake detours of a stateful task (see the module docstring)."""
    gold = [Action(a["name"], a["arguments"]) for a in task.gold_actions]
    reads = [i for i, a in enumerate(gold) if specs[a.name].kind is ToolKind.READ]
    writes = [i for i, a in enumerate(gold) if specs[a.name].kind is ToolKind.WRITE]
    routes: list[tuple[str, list[Action]]] = []
    for i in reads:  # an id guessed before asking for it (or mistyped): the tool says no
        name = _id_argument(gold[i])
        if name is not None:
            wrong = Action(
                gold[i].name, {**gold[i].arguments, name: mistyped(gold[i].arguments[name])}
            )
            routes.append(("guessed_id", [*gold[:i], wrong, *gold[i:]]))
            break
    if reads:  # every look-up made again and again before going on
        looped = [
            a for a in gold for _ in range(LOOP if specs[a.name].kind is ToolKind.READ else 1)
        ]
        routes.append(("lookup_loop", looped))
    schemas = {s["function"]["name"]: s for s in task.tools}
    for tool in task.preference.forbidden_tools:  # the tool the user asked not to be used
        if tool in schemas and specs[tool].kind is not ToolKind.WRITE:
            arguments = _reuse(specs[tool], schemas[tool], gold)
            if arguments is not None:
                routes.append(("forbidden_tool", [Action(tool, arguments), *gold]))
    if writes:  # said to be done, but the change was never made; or made twice
        last = writes[-1]
        routes.append(("write_skipped", gold[:last] + gold[last + 1 :]))
        routes.append(("write_twice", [*gold[: last + 1], gold[last], *gold[last + 1 :]]))
    elif reads:  # the answer without the look-ups that establish it
        routes.append(("no_lookup", [a for i, a in enumerate(gold) if i not in reads]))
    return routes
