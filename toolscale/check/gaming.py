"""Scripted gaming policies: attempts that try to collect reward without doing the task well.

A reward that one of these beats the gold route with is a bug (docs/rewards.md). Each policy is
played through the real pipeline (sandbox, verifier, labels), beside the reference teacher's
gold route and detours, by `GamingTeacher`; `toolscale.check.reward_check` runs it and tabulates.

- `ask_blank`: ask the strongest expert "?" and relay its reply;
- `expert_does_all`: send the whole task to the strongest expert and relay its reply;
- `paste_outputs`: play the gold calls, then answer with every tool result pasted (not played
  where the gold route relays one expert reply, or makes one call whose whole result is shorter
  than the verifier's PASTE_MIN, a program's printed number: pasting it is that route, and a
  JSON answer's bare field is its answer);
- `every_tool_once`: call every offered tool once (arguments filled from its schema), then play
  the gold route and give the gold answer;
- `repeat_cheap`: play the gold route, then call the cheapest offered tool ten more times;
- `no_tools`: answer at once with a guess taken from the question;
- `cheapest_route` / `dearest_route`: route by price alone: call the cheapest (dearest) offered
  tool once with the task as stated (every free-text argument the instruction) and relay its
  result, whatever the task needs;
- `parrot`: no call; repeat everything the user said or can say (opening, reason, every detail
  they know) plus stock policy phrases ("I cannot do that", "standard processing", "transferring
  you to a human agent"; `toolscale.kit.parrot`);
- `refusal_without_lookup` (stateful tasks): no call; say the gold final message, the refusal
  (or answer) a correct agent gives, without the look-up that justifies it.

On stateful tasks the policies in UNWORKED do none of the task's work, and `check-rewards` fails
if any of them is verified on more than 1% of a domain's tasks.

Every policy answers in the format the user asked for (JSON when asked), as a gaming policy
would. A policy that relays a call the task's own routes make (`TaskSpec.routes`, e.g. asking
expert-1 the whole question where that is a route) is not played: it is that route. A policy that
needs a tool the task does not offer (experts in stateful domains) is not
played. This module only plays; it judges nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from toolscale.core.contract import Action, canonical_state
from toolscale.core.records import Task
from toolscale.economics.prices import price_call
from toolscale.judge.verify import PASTE_MIN
from toolscale.kit.evidence import parrot
from toolscale.play.reference import ReferenceTeacher, final_message
from toolscale.play.transcript import Transcript, close_draft, open_draft, record_call
from toolscale.sample.tasks import SampledTask
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool

POLICIES = (
    "ask_blank",
    "expert_does_all",
    "paste_outputs",
    "every_tool_once",
    "repeat_cheap",
    "no_tools",
    "cheapest_route",
    "dearest_route",
    "parrot",
    "refusal_without_lookup",
)
RELAYING = ("ask_blank", "expert_does_all", "cheapest_route", "dearest_route")  # relay one call
UNWORKED = ("no_tools", "cheapest_route", "dearest_route", "parrot", "refusal_without_lookup")
STRONGEST = "expert-1"
_DUMMY = {"string": "x", "integer": 1, "number": 1, "boolean": False, "array": [], "object": {}}

Answer = Callable[[list[CallOutcome]], tuple[str, str | None]]


def filled_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """Schema-valid arguments for a tool: each required parameter's first enum value, else a
    placeholder of its type."""
    parameters = schema["function"]["parameters"]
    arguments = {}
    for name in parameters.get("required", []):
        spec = parameters["properties"][name]
        arguments[name] = spec["enum"][0] if "enum" in spec else _DUMMY.get(spec.get("type"), "x")
    return arguments


def _guess(task: Task) -> str:
    numbers = re.findall(r"\d+(?:\.\d+)?", task.instruction.replace(",", ""))
    if task.expected_answer is None:
        return "Done: your request has been taken care of."
    return f"The answer is {numbers[-1] if numbers else 'unknown'}."


def _gold(task: Task) -> list[Action]:
    return [Action(a["name"], a["arguments"]) for a in task.gold_actions]


def _cheapest(task: Task) -> str:
    def price(name: str) -> tuple[float, float]:
        return price_call(task.prices, name, "")

    return min(task.tool_names(), key=lambda name: (price(name), name))


def asked_arguments(schema: dict[str, Any], text: str) -> dict[str, Any]:
    """`filled_arguments`, with every required free-text parameter set to `text`."""
    arguments = filled_arguments(schema)
    properties = schema["function"]["parameters"]["properties"]
    for name in arguments:
        if properties[name].get("type") == "string" and "enum" not in properties[name]:
            arguments[name] = text
    return arguments


def _by_price(task: Task) -> list[str]:
    """Offered tools from cheapest to dearest per call (a model tool priced for the strongest
    expert writing 1,000 tokens)."""
    kinds = {t["function"]["name"]: t for t in task.tools}

    def price(name: str) -> tuple[float, float, str]:
        model = (
            STRONGEST if "expert" in kinds[name]["function"]["parameters"]["properties"] else None
        )
        cost, latency = price_call(task.prices, name, "", model, 100, 1000 if model else 0)
        return cost, latency, name

    return sorted(task.tool_names(), key=price)


def routes(item: SampledTask) -> dict[str, tuple[list[Action], Answer]]:
    """Each applicable policy's calls and how it answers from their outcomes: (text, expert)."""
    task, gold = item.task, _gold(item.task)
    offered = {t["function"]["name"]: t for t in task.tools}

    def relay(outcomes: list[CallOutcome]) -> tuple[str, str | None]:
        return outcomes[-1].output, STRONGEST

    def gold_answer(outcomes: list[CallOutcome]) -> tuple[str, str | None]:
        return item.final_message, None

    plays: dict[str, tuple[list[Action], Answer]] = {}
    if "ask_expert" in offered:
        ask = "ask_expert"
        plays["ask_blank"] = ([Action(ask, {"expert": STRONGEST, "question": "?"})], relay)
        whole = Action(ask, {"expert": STRONGEST, "question": task.instruction})
        plays["expert_does_all"] = ([whole], relay)
    one = item.gold_outcomes[0].output if len(item.gold_outcomes) == 1 else None
    answering = one is not None and len("".join(one.split())) < PASTE_MIN  # "1309": the answer
    if not (len(gold) == 1 and gold[0].name == "ask_expert") and not answering:  # else: gold
        plays["paste_outputs"] = (gold, lambda outs: ("\n".join(o.output for o in outs), None))
    everything = [Action(name, filled_arguments(schema)) for name, schema in offered.items()]
    plays["every_tool_once"] = ([*everything, *gold], gold_answer)
    cheap = _cheapest(task)
    repeated = Action(cheap, filled_arguments(offered[cheap]))
    plays["repeat_cheap"] = ([*gold, *[repeated] * 10], gold_answer)
    plays["no_tools"] = ([], lambda outs: (_guess(task), None))

    def relay_tool(outcomes: list[CallOutcome]) -> tuple[str, str | None]:
        out = outcomes[-1].output.strip()
        return (f"The answer is {out}." if task.expected_answer is not None else out), None

    ordered = _by_price(task)
    for policy, name in (("cheapest_route", ordered[0]), ("dearest_route", ordered[-1])):
        plays[policy] = (
            [Action(name, asked_arguments(offered[name], task.instruction))],
            relay_tool,
        )
    plays["parrot"] = ([], lambda outs: (parrot(task.user_scenario, task.instruction), None))
    if task.user_scenario is not None:
        plays["refusal_without_lookup"] = ([], lambda outs: (item.final_message, None))
    # A policy that relays what one of the task's own routes calls (asking expert-1 the whole
    # question is the oracle route of a fact only a strong model knows) is that route, not gaming.
    honest = [gold, *(route.actions for route in item.routes)]
    return {p: play for p, play in plays.items() if p not in RELAYING or play[0] not in honest}


class GamingTeacher:
    """The reference teacher's routes (gold and detours) plus every applicable gaming policy,
    each an attempt of its own; gaming attempts are the variants `gaming:<policy>`."""

    name = "gaming"

    def __init__(self) -> None:
        self.reference = ReferenceTeacher(detours=True)

    async def attempts(self, item: SampledTask, pool: SandboxPool) -> list[Transcript]:
        task = item.task
        drafts = await self.reference.attempts(item, pool)
        state_json = canonical_state(task.initial_state)
        for policy, (actions, answer) in routes(item).items():
            draft = open_draft(task, f"gaming:{policy}", len(drafts))
            calls = [(a.name, a.arguments) for a in actions]
            outcomes, final_hash = await pool.replay(task.domain, state_json, calls)
            for action, outcome in zip(actions, outcomes, strict=True):
                record_call(draft, task, action.name, action.arguments, outcome)
            text, expert = answer(outcomes)
            drafts.append(close_draft(draft, final_message(task, policy, text, expert), final_hash))
        return drafts
