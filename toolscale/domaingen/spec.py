"""The spec stage's answer: a domain described as JSON, checked with jsonschema and for sense.

A spec names the entities (their fields, key and owner), the tools (kind, parameters, the
tool-graph links `finds` / `lists` and the rules each raises), the policy rules (each one
`PolicyError`, a refusal or a hand-off) and the goals (the tool that does each, the READ calls
`before` it). It is what the files stage writes the code from, and what its problems are checked
against: a spec problem is one line the model can act on. The spec asks what check-domain will
require of the files: every tool, the kit's `calculate` and `transfer_to_human_agents` included,
in some goal's route (`unused`). Nothing here runs code the model wrote.
"""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema

IDENT = "^[a-z][a-z0-9_]*$"
RULE = "^[A-Z][A-Za-z0-9]*$"
FIELD = {
    "type": "object",
    "required": ["name", "type"],
    "properties": {
        "name": {"type": "string", "pattern": IDENT},
        "type": {"enum": ["string", "integer", "number", "boolean", "list", "object"]},
        "description": {"type": "string"},
    },
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "description", "entities", "tools", "rules", "goals"],
    "properties": {
        "name": {"type": "string", "pattern": IDENT},
        "description": {"type": "string", "minLength": 10},
        "entities": {
            "type": "array",
            "minItems": 2,
            "items": {
                "type": "object",
                "required": ["name", "key", "fields"],
                "properties": {
                    "name": {"type": "string", "pattern": IDENT},
                    "key": {"type": "string", "pattern": IDENT},
                    "owner": {"type": ["string", "null"]},
                    "fields": {"type": "array", "minItems": 2, "items": FIELD},
                },
            },
        },
        "tools": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "kind", "description"],
                "properties": {
                    "name": {"type": "string", "pattern": IDENT},
                    "kind": {"enum": ["READ", "WRITE", "GENERIC"]},
                    "description": {"type": "string", "minLength": 5},
                    "params": {"type": "array", "items": FIELD},
                    "finds": {"type": ["string", "null"]},
                    "lists": {"type": ["string", "null"]},
                    "raises": {"type": "array", "items": {"type": "string", "pattern": RULE}},
                },
            },
        },
        "rules": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["name", "description"],
                "properties": {
                    "name": {"type": "string", "pattern": RULE},
                    "description": {"type": "string", "minLength": 5},
                    "handoff": {"type": "boolean"},
                },
            },
        },
        "goals": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["name", "tool"],
                "properties": {
                    "name": {"type": "string", "pattern": IDENT},
                    "tool": {"type": "string"},
                    "needs": {"type": "array", "items": {"type": "string"}},
                    "before": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}
KIT_TOOLS = ("calculate", "transfer_to_human_agents")  # StatefulGenericTools adds these
_FENCED = re.compile(r"```(?:json)?\s*\n(.*?)```", re.S)


def parse(text: str, min_tools: int) -> tuple[dict[str, Any] | None, list[str]]:
    """The spec in the model's answer (bare JSON or one fenced block), and its problems."""
    candidates = [m.group(1) for m in _FENCED.finditer(text)] or [text]
    body = candidates[0].strip()
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        return None, ["the answer holds no JSON object; answer with the spec as one JSON object"]
    try:
        spec = json.loads(body[start : end + 1])
    except json.JSONDecodeError as exc:
        return None, [f"the spec is not valid JSON: {exc}"]
    problems = schema_problems(spec)
    return spec, problems or sense_problems(spec, min_tools)


def schema_problems(spec: Any) -> list[str]:
    """jsonschema's findings, one line each with the path they are at."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    errors = sorted(validator.iter_errors(spec), key=lambda e: list(e.absolute_path))
    return [f"spec{''.join(f'[{p!r}]' for p in e.absolute_path)}: {e.message}" for e in errors]


def sense_problems(spec: dict[str, Any], min_tools: int) -> list[str]:
    """What the schema cannot say: names unique, links to declared things, every rule raised,
    every goal's tool declared, and at least `min_tools` tools (the kit's two included)."""
    problems = []
    entities = {e["name"]: e for e in spec["entities"]}
    tools = {t["name"]: t for t in spec["tools"]}
    rules = {r["name"] for r in spec["rules"]}
    for kind, items in (("entity", spec["entities"]), ("tool", spec["tools"])):
        seen = [i["name"] for i in items]
        twice = sorted({n for n in seen if seen.count(n) > 1})
        problems += [f"{kind} {n} is declared twice" for n in twice]
    for entity in spec["entities"]:
        owner = entity.get("owner")
        if owner and owner not in entities:
            problems.append(f"entity {entity['name']}: owner {owner} is not an entity")
    for tool in spec["tools"]:
        for link in ("finds", "lists"):
            target = tool.get(link)
            if target and target not in entities:
                problems.append(f"tool {tool['name']}: {link} {target}, which is not an entity")
        if tool.get("raises") and tool["kind"] != "WRITE":
            problems.append(f"tool {tool['name']}: only a WRITE tool raises policy rules")
        for rule in tool.get("raises", ()):
            if rule not in rules:
                problems.append(f"tool {tool['name']} raises {rule}, which is not a rule")
    raised = {r for t in spec["tools"] for r in t.get("raises", ())}
    problems += [f"rule {r} is raised by no tool" for r in sorted(rules - raised)]
    for goal in spec["goals"]:
        if goal["tool"] not in tools and goal["tool"] not in KIT_TOOLS:
            problems.append(f"goal {goal['name']}: tool {goal['tool']} is not declared")
        for need in goal.get("needs", ()):
            if need not in entities:
                problems.append(f"goal {goal['name']}: needs {need}, which is not an entity")
        for step in goal.get("before", ()):
            if step not in tools:
                problems.append(f"goal {goal['name']}: before-call {step} is not declared")
            elif tools[step]["kind"] != "READ":
                problems.append(f"goal {goal['name']}: before-call {step} is not a READ tool")
    problems += unused(spec)
    count = len(set(tools) | set(KIT_TOOLS))
    if count < min_tools:
        kit = ", ".join(KIT_TOOLS)
        problems.append(f"{count} tools (with {kit}); declare at least {min_tools}")
    return problems


def _needed(spec: dict[str, Any]) -> set[str]:
    """The entities some goal works on, with their owners (identified to reach them)."""
    owners = {e["name"]: e.get("owner") for e in spec["entities"]}
    found: set[str] = set()
    for goal in spec["goals"]:
        for need in goal.get("needs", ()):
            while need and need not in found:
                found.add(need)
                need = owners.get(need)
    return found


def unused(spec: dict[str, Any]) -> list[str]:
    """The tools no task's gold route would reach, as check-domain --strict finds them: a tool
    is reached as some goal's `tool` or `before` call, as the finder or lister of an entity a
    goal needs (or of its owner), and `transfer_to_human_agents` also by a hand-off rule."""
    needed = _needed(spec)
    used = {g["tool"] for g in spec["goals"]} | {
        b for g in spec["goals"] for b in g.get("before", ())
    }
    used |= {t["name"] for t in spec["tools"] if {t.get("finds"), t.get("lists")} & needed}
    if any(r.get("handoff") for r in spec["rules"]):
        used.add("transfer_to_human_agents")
    problems = []
    for tool in [t["name"] for t in spec["tools"]] + list(KIT_TOOLS):
        if tool in used:
            continue
        if tool == "calculate":
            problems.append(
                "no goal uses the kit's calculate tool: add a goal whose tool is calculate "
                "(a sum over looked-up values), since every tool must be in some gold route"
            )
        elif tool == "transfer_to_human_agents":
            problems.append(
                "nothing reaches the kit's transfer_to_human_agents: add a rule with "
                '"handoff": true, or a goal whose tool is transfer_to_human_agents'
            )
        else:
            problems.append(
                f"tool {tool} is in no goal's route: make it a goal's tool or one of its "
                '"before" calls (a finder or lister counts when a goal needs its entity)'
            )
    return problems
