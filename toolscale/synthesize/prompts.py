"""What the proposing model reads: the domain's policy, a compact list of its tools, a sample of
its world, and what to write back (intents, a task, a harder task) as JSON.

The world sample is a deterministic, size-bounded excerpt of the state (a few entries of each
collection, chosen by the candidate's own RNG), so prompts stay small for small local models
and different candidates see different entities. Nothing here sends a request.
"""

from __future__ import annotations

import json
import random
from typing import Any

from toolscale.core.contract import Domain, canonical_json
from toolscale.synthesize.candidates import Candidate

TASK_FORMAT = (
    '{"reason_for_call": "why the user calls, with the concrete details", '
    '"opening": "the user\'s first message, without ids or personal details", '
    '"known": {"booking id": "the exact value", "...": "what the user can tell when asked"}, '
    '"unknown_info": "what the user does not know", '
    '"task_instructions": "how the user behaves", '
    '"actions": [{"name": "tool_name", "arguments": {"arg": "value"}}], '
    '"communicate_info": ["short facts the agent must tell the user"], '
    '"nl_assertions": ["statements true of a correct conversation"], '
    '"difficulty": "easy|medium|hard"}'
)


def tool_lines(domain: Domain) -> str:
    """One line per tool: name(arguments: types) [KIND] and the first line of its docstring."""
    specs = domain.toolkit.specs()
    lines = []
    for schema in domain.toolkit.schemas():
        function = schema["function"]
        properties = function["parameters"].get("properties", {})
        arguments = ", ".join(f"{k}: {v.get('type', 'any')}" for k, v in properties.items())
        summary = (function.get("description") or "").strip().splitlines()
        kind = specs[function["name"]].kind.value.upper()
        lines.append(f"- {function['name']}({arguments}) [{kind}] {summary[0] if summary else ''}")
    return "\n".join(lines)


def _excerpt(value: Any, rng: random.Random, per: int) -> Any:
    if isinstance(value, dict) and len(value) > per:
        keys = sorted(rng.sample(sorted(value), per))
        return {k: value[k] for k in keys}
    if isinstance(value, list) and len(value) > per:
        return [value[i] for i in sorted(rng.sample(range(len(value)), per))]
    return value


def world_sample(state: dict[str, Any], rng: random.Random, max_chars: int) -> str:
    """A JSON excerpt of `state` of at most about `max_chars` characters: every scalar, and up to
    N entries of each collection, N the largest that fits (at least 1)."""
    seed = rng.random()
    text = canonical_json(state)
    for per in (16, 12, 8, 6, 4, 3, 2, 1):
        if len(text) <= max_chars:
            break
        pick = random.Random(seed)
        text = canonical_json({k: _excerpt(v, pick, per) for k, v in state.items()})
    return text


def _system(domain: Domain) -> str:
    return (
        f"You design realistic customer-service tasks for the {domain.name} domain, whose agent "
        "follows this policy and can call these tools.\n\n"
        f"# Policy\n{domain.policy.strip()}\n\n# Tools\n{tool_lines(domain)}\n\n"
        "Answer with JSON only."
    )


def intent_messages(
    domain: Domain, sample: str, count: int, focus: list[str]
) -> list[dict[str, str]]:
    """Ask for `count` diverse user intents, leaning on the tools in `focus`."""
    user = (
        f"# A sample of the database\n{sample}\n\n"
        f"Propose {count} different reasons a user of this service could contact the agent. "
        f"Favour situations that need these tools: {', '.join(focus)}. Mix simple requests with "
        "ones that need several steps; a `write` intent changes the data, a `read` one only "
        'asks. Answer as {"intents": [{"intent": "...", "kind": "read|write"}]}.'
    )
    return [{"role": "system", "content": _system(domain)}, {"role": "user", "content": user}]


def task_messages(domain: Domain, intent: str, kind: str, sample: str) -> list[dict[str, str]]:
    """Ask for one concrete task for `intent`, grounded in the entities of `sample`."""
    user = (
        f"# A sample of the database\n{sample}\n\n# Intent ({kind})\n{intent}\n\n"
        "Write one concrete task for this intent, using only ids and values from the sample. "
        "`actions` are the exact tool calls, in order, that a correct agent makes under the "
        "policy (lookups included); `known` holds every value of those calls that only the "
        "user can give, keyed by what the agent would ask for. Answer as:\n" + TASK_FORMAT
    )
    return [{"role": "system", "content": _system(domain)}, {"role": "user", "content": user}]


def evolve_messages(domain: Domain, candidate: Candidate, sample: str) -> list[dict[str, str]]:
    """Ask for a harder version of `candidate`: more constraints, more entities, a trickier
    situation, still grounded in `sample` and solvable under the policy."""
    user = (
        f"# A sample of the database\n{sample}\n\n# Task\n"
        f"{json.dumps(candidate.model_dump(), ensure_ascii=False)}\n\n"
        "Rewrite this task into a harder one: add a constraint, another entity or a trickier "
        "situation, so that a correct agent needs more steps or more care. Keep it solvable "
        "under the policy and grounded in the sample. Answer in the same JSON form:\n" + TASK_FORMAT
    )
    return [{"role": "system", "content": _system(domain)}, {"role": "user", "content": user}]
