"""The panel's two scripted endpoints, in process (the `Chat` protocol a teacher and a user
simulator call; everything past it is the real teacher, user simulator, sandbox and verifier).

`AgentEndpoint` answers a teacher's requests from each task's agent script
(`tests.panel.agent.script`): a conversation is known by its instruction, and each request
sends the script what came back since its last turn; a caller who answers the final message
(a new question after a change of mind) hears the answer again, then a goodbye.

`UserEndpoint` answers a user simulator's requests as a capable LLM playing the caller would,
from the task's scenario: it gives the details asked for (all it has that the agent names, or
another identifier when it lacks the one asked), says yes to the change it called for and no to
others, picks the option its details name (else says once what it wants, then guesses by its
words), follows its change of mind, and ends (###STOP###) when the agent has answered or
refused.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.panel.agent import Call, Script, said, script
from tests.panel.voices import closing
from toolscale.core.contract import UserScenario
from toolscale.llm.client import Completion
from toolscale.sample.tasks import SampledTask


def _completion(message: dict[str, Any]) -> Completion:
    words = len(str(message.get("content") or "").split()) + 8 * len(message.get("tool_calls", []))
    return Completion(message, 0, words, 0.0, False)


class AgentEndpoint:
    """Each task's agent of `style`, one conversation per instruction."""

    def __init__(self, items: list[SampledTask], style: str) -> None:
        self.items = {item.task.instruction: item for item in items}
        self.style = style
        self.scripts: dict[str, Script] = {}
        self.turns: dict[str, int] = {}
        self.finals: dict[str, str] = {}  # each conversation's last text

    async def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], sampling: dict[str, Any]
    ) -> Completion:
        key = str(messages[1]["content"])
        self.turns[key] = self.turns.get(key, 0) + 1
        try:
            if key not in self.scripts:
                form = len(self.scripts)
                self.scripts[key] = script(self.items[key], self.style, form)
                turn = next(self.scripts[key])
            else:
                turn = self.scripts[key].send(str(messages[-1].get("content") or ""))
        except StopIteration:  # the caller answered the final message: say it again, once
            again = self.finals.pop(key, None)
            return _completion({"role": "assistant", "content": again or closing(self.style)})
        if isinstance(turn, Call):
            call = {"name": turn.name, "arguments": _json(turn.arguments)}
            n = self.turns[key]
            tool_call = {"id": f"p{n}", "type": "function", "function": call}
            return _completion({"role": "assistant", "content": None, "tool_calls": [tool_call]})
        self.finals[key] = turn.text
        return _completion({"role": "assistant", "content": turn.text})


def _json(value: object) -> str:
    return json.dumps(value)


STOP = "###STOP###"
_FILLER = {"of", "the", "a", "an", "for", "your", "my"}
_SYNONYMS = {"id": ("id", "number", "reference", "code"), "number": ("number", "id", "many")}
_ASKING = re.compile(
    r"\?|\b(?:please|could you|can you|tell me|let me know|give me|need|share|send|reply|"
    r"confirm)\b",
    re.I,
)
_PROPOSAL = re.compile(
    r"\b(?:shall i|should i|do you want me to|would you like me to|want me to|go ahead|proceed|"
    r"confirm|yes/no|reply yes|ok to|okay to)\b",
    re.I,
)
_IDENTIFIER = re.compile(r"\b(?:id|number|reference|email|phone|code|name)\b", re.I)
_REFUSAL = re.compile(r"\b(?:can't|cannot|unable to|not able to|not possible)\b", re.I)


def _asks_for(text: str, key: str) -> bool:
    said_words = set(re.findall(r"[a-z]+", text.casefold()))
    words = [w.removesuffix("'s") for w in key.casefold().split() if w not in _FILLER]
    return bool(words) and all(any(s in said_words for s in _SYNONYMS.get(w, (w,))) for w in words)


def _names_change(text: str, marker: str) -> bool:
    said_words = re.findall(r"[a-z]+", text.casefold())
    return all(
        any(w.startswith(m[: max(4, len(m) - 2)]) for w in said_words) for m in marker.split()
    )


def _described(mine: str, scenario: UserScenario) -> bool:
    return not scenario.wants or f"I want to {scenario.wants}." in mine


def user_answer(scenario: UserScenario, view: list[dict[str, Any]]) -> str:
    """The caller's next message in `view` (the conversation from their side: their own turns
    as "assistant", the agent's as "user")."""
    agent = str(view[-1]["content"])
    mine = " ".join(str(m["content"]) for m in view if m["role"] == "assistant")
    details = {**scenario.stated, **scenario.known}
    agent_turns = sum(1 for m in view if m["role"] == "user")
    if scenario.behaviour == "change" and agent_turns == 1 and scenario.change:
        return scenario.change
    if not _ASKING.search(agent):
        return STOP
    if _PROPOSAL.search(agent):
        declined = any(_names_change(agent, m) for m in scenario.declines)
        if _REFUSAL.search(agent) or not scenario.accepts_changes or declined:
            return f"No, please leave it as it is. I only wanted to {scenario.wants}."
        return "Yes, please go ahead."
    if _REFUSAL.search(agent):
        return STOP
    options = [line[2:] for line in agent.splitlines() if line.startswith("- ")]
    if options:
        words = set(re.findall(r"[a-z0-9]+", f"{scenario.wants} {scenario.opening}".casefold()))
        by_value = [o for o in options if any(said(o, v) for v in details.values())]
        if len(by_value) == 1:
            return f"I mean {by_value[0]}."
        if not _described(mine, scenario):  # none named by a detail: say what they want
            return f"I'm not sure which one that is. I want to {scenario.wants}."
        scores = [len(words & set(re.findall(r"[a-z0-9]+", o.casefold()))) for o in options]
        return f"I mean {options[scores.index(max(scores))]}."
    asked = [k for k in details if _asks_for(agent, k)]
    if asked:
        return " ".join(f"My {k} is {details[k]}." for k in asked)
    untold = [k for k, v in scenario.known.items() if not said(mine, v)]
    if untold and _IDENTIFIER.search(agent):
        key = untold[0]
        return f"I don't have that, but my {key} is {scenario.known[key]}."
    return "Sorry, I don't have anything more than what I've told you."


class UserEndpoint:
    """The caller of each task, answering its user simulator's requests (module docstring)."""

    def __init__(self, items: list[SampledTask]) -> None:
        self.scenarios = {
            item.task.instruction: item.task.user_scenario
            for item in items
            if item.task.user_scenario is not None
        }

    async def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], sampling: dict[str, Any]
    ) -> Completion:
        view = messages[1:]
        scenario = self.scenarios[str(view[0]["content"])]
        return _completion({"role": "assistant", "content": user_answer(scenario, view)})
