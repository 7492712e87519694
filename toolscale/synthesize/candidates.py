"""Parse what the proposing model wrote: intents and candidate tasks, as typed records.

A model's answer is text; the JSON inside it (bare, fenced, or after some prose) is found and
validated here. Anything that does not parse into a record is a malformed candidate, rejected
at the `parse` stage with the reason. Whether the actions name real tools or execute is not
checked here (`toolscale.synthesize.filters` does that).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from toolscale.core.contract import UserScenario
from toolscale.synthesize.facts import Fact

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


class Intent(BaseModel):
    """One purpose a user could call for; `kind` says whether it needs a change to the data."""

    model_config = ConfigDict(frozen=True)

    intent: str
    kind: Literal["read", "write"] = "read"


class ProposedAction(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    arguments: dict[str, Any] = {}


class Candidate(BaseModel):
    """One proposed task: a tau2-shaped user scenario, gold actions, and what the agent must
    communicate (`communicate_info`: values with their source in a gold call's result, checked
    in its final message) and do (`nl_assertions`: free text, kept only where a judge is).
    `refused` is the call the caller asks for that the policy refuses (a refusal or hand-off
    task): never made by the gold route, it is run after it and must fail, and its error's
    text is the source of the refusal's reason (`toolscale.synthesize.facts`)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    reason_for_call: str
    opening: str
    known: dict[str, str] = {}
    unknown_info: str = ""
    task_instructions: str = ""
    actions: list[ProposedAction]
    refused: ProposedAction | None = None
    communicate_info: list[Fact] = []
    nl_assertions: list[str] = []
    difficulty: Literal["easy", "medium", "hard"] = "medium"

    @field_validator("known", mode="before")
    @classmethod
    def _text_values(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {str(k): v if isinstance(v, str) else json.dumps(v) for k, v in value.items()}
        return value

    @field_validator("communicate_info", mode="before")
    @classmethod
    def _sourced(cls, value: Any) -> Any:
        if isinstance(value, list):
            for n, item in enumerate(value):
                if not isinstance(item, dict):
                    raise ValueError(
                        f"item {n} ({item!r}) is not an object: write each fact as "
                        '{"value": ..., "action": N, "field": "..."}, the value as it appears '
                        "in that field of gold action N's result (or no value, for one the "
                        'gold execution fills in; or "action": "refused" for a refusal\'s '
                        "reason)"
                    )
        return value

    @field_validator("reason_for_call", "opening")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @property
    def facts(self) -> list[str]:
        """The values the agent must state (the task's `required_facts`)."""
        return [fact.value for fact in self.communicate_info]

    def scenario(self, writes: bool = True) -> UserScenario:
        """The caller; `writes`: the gold route changes the data (else the caller accepts no
        change, as the kit's questions, refusals and hand-offs: judged on their look-up)."""
        return UserScenario(
            accepts_changes=writes,
            reason_for_call=self.reason_for_call,
            opening=self.opening,
            known=dict(self.known),
            unknown_info=self.unknown_info,
            task_instructions=self.task_instructions,
            nl_assertions=list(self.nl_assertions),
        )


def find_json(text: str) -> Any:
    """The first JSON value in `text`: the whole text, a fenced block, or the first object or
    list that decodes from some `{` or `[` on; None when there is none."""
    for chunk in (text, *_FENCE.findall(text)):
        try:
            return json.loads(chunk)
        except json.JSONDecodeError:
            pass
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[\[{]", text):
        try:
            return decoder.raw_decode(text, match.start())[0]
        except json.JSONDecodeError:
            continue
    return None


_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*])\s+(.+?)\s*$", re.MULTILINE)


def parse_intents(text: str) -> list[Intent]:
    """The intents in an answer: {"intents": [...]} or a bare list, each item an object with
    `intent` (and `kind`) or a plain string; items that do not parse are skipped. An answer with
    no JSON at all that is a numbered or bulleted list (what small models often write) gives its
    items, as read intents."""
    value = find_json(text)
    if isinstance(value, dict):
        value = value.get("intents", [])
    if value is None:
        value = _ITEM.findall(text)
    if not isinstance(value, list):
        return []
    found = []
    for item in value:
        if isinstance(item, str):
            item = {"intent": item}
        try:
            intent = Intent.model_validate(item)
        except ValidationError:
            continue
        if intent.intent.strip():
            found.append(intent)
    return found


def declined(text: str) -> str | None:
    """The proposer's reason when its answer declines the request ({"decline": "why"}), else
    None; an empty reason is a decline too, with the reason "(no reason given)"."""
    value = find_json(text)
    if isinstance(value, dict) and "decline" in value and "actions" not in value:
        reason = value["decline"]
        text = reason.strip() if isinstance(reason, str) else json.dumps(reason)
        return text or "(no reason given)"
    return None


def parse_candidate(text: str) -> tuple[Candidate | None, str]:
    """(the candidate, "") or (None, why it is malformed)."""
    value = find_json(text)
    if value is None:
        return None, "the answer holds no JSON object"
    if isinstance(value, dict) and isinstance(value.get("task"), dict):
        value = value["task"]
    if not isinstance(value, dict):
        return None, f"the answer's JSON is a {type(value).__name__}, not an object"
    try:
        return Candidate.model_validate(value), ""
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(map(str, error["loc"])) or "task"
        return None, f"field {where}: {error['msg']}"
