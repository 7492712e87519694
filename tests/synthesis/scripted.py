"""A scripted proposer and solver for synthesize tests: the loopback OpenAI-compatible server of
tests/teachers/fake_openai.py, answering the intents request, one task per intent (built from
the domain's own sampled task of the same index, or one of the defects below), an evolve request
per evolved task, and the solver's turns (the gold route, or a wrong answer).

Case kinds: "read" / "write" (valid: the sampled task as is), "unknown_tool", "bad_args",
"raises" (an id that does not exist), "no_change" (a write intent whose actions only read),
"trivial" (reads only and says nothing: a question without a fact, rejected at `facts`),
"malformed" (no JSON), "contaminated" (valid, and copied into a tau2 file), "unsolved" (valid,
but the solver never solves it), "declined" (the proposer declines: the intent cannot be
grounded in its view).
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.teachers.fake_openai import Plans
from toolscale.core.contract import ToolKind, fact_stated, item_rng, tool_text
from toolscale.core.registry import get_domain
from toolscale.synthesize.facts import locate

ID = re.compile(r"\[case (\d+)\]")


def sampled(domain: str, seed: int, index: int) -> Any:
    return get_domain(domain).sample(item_rng(domain, seed, index), seed, index)


def is_write(domain: str, spec: Any) -> bool:
    specs = get_domain(domain).toolkit.specs()
    return any(specs[a.name].kind is ToolKind.WRITE for a in spec.gold_actions)


def outputs(domain: str, spec: Any) -> list[str]:
    """The gold actions' results as the sandbox writes them, run in process on the task's state."""
    kit = get_domain(domain).toolkit(json.loads(json.dumps(spec.initial_state)))
    return [tool_text(getattr(kit, a.name)(**a.arguments)) for a in spec.gold_actions]


def sourced(domain: str, spec: Any) -> list[dict[str, Any]]:
    """The sampled task's required facts with their source: the first gold result field that
    states each (a fact no result states is left out)."""
    results = outputs(domain, spec)
    facts = []
    for fact in spec.required_facts:
        found = locate(get_domain(domain), fact, results)
        if found is not None:
            facts.append({"value": fact, "action": found[0], "field": found[1]})
    return facts


def valid(domain: str, seed: int, index: int) -> dict[str, Any]:
    """The sampled task `index` as a candidate, tagged with its case number."""
    spec = sampled(domain, seed, index)
    scenario = spec.scenario
    opening = scenario.opening if scenario else spec.instruction
    return {
        "reason_for_call": f"[case {index}] {scenario.reason_for_call if scenario else opening}",
        "opening": f"[case {index}] {opening}",
        "known": dict(scenario.known) if scenario else {},
        "actions": [a.as_dict() for a in spec.gold_actions],
        "communicate_info": sourced(domain, spec),
        "difficulty": spec.difficulty,
    }


def fits(domain: str, kind: str, index: int, seed: int = 0) -> bool:
    """Whether the sampled task `index` can serve as a case of `kind`."""
    spec = sampled(domain, seed, index)
    write = is_write(domain, spec)
    specs = get_domain(domain).toolkit.specs()
    reads = [a for a in spec.gold_actions if specs[a.name].kind is ToolKind.READ]
    task = valid(domain, seed, index)
    facts = [f["value"] for f in task["communicate_info"]]
    hidden = bool(facts) and not all(fact_stated(f, task["opening"]) for f in facts)
    return {
        "read": not write and hidden,
        "write": write,
        "no_change": write and bool(reads),
        "trivial": bool(reads),
        "raises": bool(spec.gold_actions[0].arguments),
        "bad_args": bool(spec.gold_actions[0].arguments),
    }.get(kind, write or hidden)


def mix(domain: str, count: int, kinds: tuple[str, ...], seed: int = 0) -> list[str]:
    """Case kinds for intents 0..count-1, cycling through `kinds`: each index takes the next kind
    its sampled task fits (malformed when none does)."""
    cases, turn = [], 0
    for index in range(count):
        order = kinds[turn % len(kinds) :] + kinds[: turn % len(kinds)]
        kind = next((k for k in order if fits(domain, k, index, seed)), "malformed")
        turn = kinds.index(kind) + 1 if kind in kinds else turn
        cases.append(kind)
    return cases


def defect(domain: str, seed: int, index: int, kind: str) -> str:
    """The answer text of case `index` of `kind`."""
    if kind == "malformed":
        return '{"reason_for_call": "broken", "actions": [ {"name": '
    if kind == "declined":
        return json.dumps({"decline": f"case {index}: the view shows no booking of that trip"})
    task = valid(domain, seed, index)
    first = task["actions"][0]
    if kind == "unknown_tool":
        task["actions"] = [{"name": "no_such_tool", "arguments": first["arguments"]}]
    elif kind == "bad_args":
        task["actions"] = [
            {"name": first["name"], "arguments": {k: [v] for k, v in first["arguments"].items()}}
        ]
    elif kind == "raises":
        task["actions"] = [
            {"name": first["name"], "arguments": {k: "ZZ-NO-SUCH-0000" for k in first["arguments"]}}
        ]
    elif kind == "no_change":
        specs = get_domain(domain).toolkit.specs()
        task["actions"] = [a for a in task["actions"] if specs[a["name"]].kind is ToolKind.READ]
    elif kind == "trivial":
        specs = get_domain(domain).toolkit.specs()
        task["actions"] = [a for a in task["actions"] if specs[a["name"]].kind is ToolKind.READ][:1]
        task["communicate_info"] = []  # reads only, says nothing: doing nothing passes
    return "Here is the task:\n```json\n" + json.dumps(task) + "\n```"


class SynthesisPlans(Plans):
    """Answers by stage: intents, tasks (`cases[i]` for intent i), evolve (`evolved[i]`: the
    answer for the evolved task of case i, default malformed), solver turns (gold, or a wrong
    answer for "unsolved" cases)."""

    def __init__(
        self, domain: str, seed: int, cases: list[str], evolved: dict[int, str] | None = None
    ) -> None:
        self.domain, self.seed, self.cases = domain, seed, cases
        self.evolved = evolved or {}
        self.stages: dict[str, int] = {}
        self.prompts: dict[str, list[str]] = {}  # the user message of each proposer request
        self.intents_given = 0
        turns = {}
        for index, kind in enumerate(cases):
            if kind in ("read", "write", "contaminated", "unsolved"):
                turns[valid(domain, seed, index)["opening"]] = self.solver_turns(index, kind)
        super().__init__(turns)

    def solver_turns(self, index: int, kind: str) -> list[dict[str, Any]]:
        task = valid(self.domain, self.seed, index)
        specs = get_domain(self.domain).toolkit.specs()
        steps: list[dict[str, Any]] = []
        if task["known"]:
            wanted = " and ".join(f"your {k}" for k in task["known"])
            steps.append({"content": f"Could you please tell me {wanted}?"})
        for action in task["actions"]:
            if specs[action["name"]].kind is ToolKind.WRITE:
                steps.append({"content": f"I am about to {action['name']}. Shall I proceed?"})
            steps.append({"calls": [(action["name"], action["arguments"])]})
        facts = "; ".join(f["value"] for f in task["communicate_info"])
        final = "Sorry, I could not find anything." if kind == "unsolved" else f"Done: {facts}."
        steps.append({"content": final})
        return steps

    def answer(self, body: dict[str, Any], content: str) -> tuple[str, Any]:
        prompt = sum(len(str(m.get("content") or "")) for m in body["messages"]) // 4 + 1
        return "json", {
            "id": "chatcmpl-synth",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": len(content) // 4 + 1,
                "total_tokens": prompt,
            },
        }

    def reply(self, body: dict[str, Any], authorization: str = "") -> tuple[str, Any]:
        user = body["messages"][-1]["content"] if not body.get("tools") else ""
        stage = ""
        if "different reasons this caller" in user:
            stage = "intents"  # batches are asked in order: each gets the next intents
            count = int(re.search(r"Propose (\d+) different", user)[1])
            start = self.intents_given % len(self.cases)  # a new run asks from the start
            self.intents_given += count
            kinds = ["write" if k in ("write", "no_change") else "read" for k in self.cases]
            intents = [
                {"intent": f"intent-{i}", "kind": kinds[i]} for i in range(start, start + count)
            ]
            text = json.dumps({"intents": intents})
        elif "# Intent" in user:
            stage = "task"
            index = int(re.search(r"intent-(\d+)", user)[1])
            kind = self.cases[index]
            ok = kind in ("read", "write", "contaminated", "unsolved")
            text = (
                json.dumps(valid(self.domain, self.seed, index))
                if ok
                else defect(self.domain, self.seed, index, kind)
            )
        elif "Rewrite this task" in user:
            stage = "evolve"
            index = int(ID.search(user)[1])
            text = self.evolved.get(index, "I would rather not.")
        if stage:
            self.stages[stage] = self.stages.get(stage, 0) + 1
            self.prompts.setdefault(stage, []).append(user)
            return self.answer(body, text)
        self.stages["solver"] = self.stages.get("solver", 0) + 1
        return super().reply(body, authorization)
