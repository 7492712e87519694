"""The messages the model gets: the spec of a topic, the five files from a spec, and a repair.

The files prompt carries docs/kit.md and one bundled domain's five files as the example (its
imports made relative, as the generated package's must be: it is installed under its own name).
A repair quotes what the model wrote and the problems a stage found, one per line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from toolscale.check.variety import FLOOR
from toolscale.domaingen.files import FILES, as_text
from toolscale.domaingen.spec import KIT_TOOLS, SCHEMA

SYSTEM = (
    "You write stateful tool-use domains for toolscale's domain kit (kit v2). You answer with "
    "exactly what is asked, nothing else."
)


def class_name(name: str) -> str:
    """The domain class a generated package must define: dental_clinic -> DentalClinicDomain."""
    return "".join(part.capitalize() for part in name.split("_")) + "Domain"


def _five_files_only(text: str) -> str:
    """`text` without its imports of the package's modules beyond the five files (a bundled
    domain's `invariants.py`, which the kit does not need) and the class lines naming them."""
    dropped: set[str] = set()
    for found in re.finditer(r"^from \.(\w+) import (.+)\n", text, re.M):
        if f"{found.group(1)}.py" not in FILES:
            dropped |= {n.strip() for n in found.group(2).split(",")}
            text = text.replace(found.group(0), "")
    for name in dropped:
        text = re.sub(rf"^\s+\w+ = {re.escape(name)}\n", "", text, flags=re.M)
    return text


def example_files(folder: Path, package: str) -> dict[str, str]:
    """A bundled domain's five files, its absolute imports of itself made relative (and of
    other modules of it left out)."""
    files = {}
    for name in FILES:
        text = (folder / name).read_text(encoding="utf-8")
        text = text.replace(f"from {package} import", "from . import")
        files[name] = _five_files_only(text.replace(f"from {package}.", "from ."))
    return files


def spec_messages(topic: str, name: str, min_tools: int, min_goals: int) -> list[dict[str, str]]:
    ask = f"""Design a toolscale domain about: {topic}.

Answer with one JSON object (no prose) that follows this JSON Schema:
{json.dumps(SCHEMA, indent=1)}

- "name" is "{name}".
- Entities: 2 to 4 (one is the customer, or whoever calls); each with a key field ending in
  "_id", its fields, and its owner entity if it has one (a booking's customer).
- Tools: at least {min_tools} in all, counting {" and ".join(KIT_TOOLS)}, which the kit adds (do
  not list them): READ tools that find a record by its id, by an email or a name, or list an
  owner's records ("finds": entity, or "lists": entity); READ quotes that change nothing; and
  WRITE tools, each naming the rules it may refuse with in "raises".
- Rules: the policy, each one named in CamelCase (TooLate, LimitReached), raised by some WRITE
  tool; "handoff": true for a case only a person handles.
- Goals: at least {min_goals} things a caller wants, each done by one tool ("tool"), the records
  it works on in "needs", the READ quotes it calls first in "before". The files stage requires
  every tool in some task's gold route, so each tool must be some goal's "tool" or "before"
  call, or the finder or lister of an entity a goal needs; the kit's calculate needs a goal
  whose tool is calculate (a sum over looked-up values), and transfer_to_human_agents a rule
  with "handoff": true (or a goal whose tool it is).
- Every rule must be reachable: a goal's tool raises it, and the world can hold records that
  break it and no other rule (each rule becomes a refusal task of that goal).
- A question's answer must be something only a look-up shows: a goal whose answer the policy
  states (opening hours, a fixed fee) finds nothing to ask about."""
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": ask}]


def files_messages(
    spec: dict[str, Any], name: str, kit_doc: str, example: str, shown: dict[str, str]
) -> list[dict[str, str]]:
    ask = f"""Write the toolscale domain of this spec as a kit v2 package named `{name}`.

The spec:
```json
{json.dumps(spec, indent=1)}
```

The kit's documentation:

{kit_doc}

The bundled `{example}` domain, a complete example of the five files:

{as_text(shown)}

Write the five files {", ".join(FILES)} of `{name}`, each as one fenced block whose info string
names it (```python world.py). Import the package's own modules relatively (`from . import
rules`, `from .tools import ...`). `__init__.py` defines `class {class_name(name)}
(StatefulDomain)` with `name = "{name}"`. Every tool must be in some task's gold path, every rule
reached by a refusal, READ tools change nothing, and a tool given a bad value raises a
ToolError (lookup, number, a PolicyError), never another exception. Follow the documentation's
"Rules the author must follow": check-domain enforces each of them. Then a variety gate samples
{FLOOR.tasks} tasks and asks them to be as varied as the bundled domains' (their weakest: a
first-message distinct-3-gram ratio of at least {FLOOR.trigram_ratio}, at most
{FLOOR.reason_shared:.0%} of tasks sharing their reason for calling with names and values
masked, at least {FLOOR.user_followups} distinct user follow-ups): give each goal several
wordings in `words` and several `motives`, and the entities labelled details a caller can be
asked for. Answer with the five blocks only."""
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": ask}]


def repair_messages(
    messages: list[dict[str, str]], answer: str, stage: str, problems: list[str]
) -> list[dict[str, str]]:
    """The conversation so far, the model's last answer and what the stage found in it."""
    listed = "\n".join(f"- {p}" for p in problems)
    ask = (
        f"The {stage} check found these problems:\n{listed}\n\nAnswer again with the whole "
        "corrected answer, in the same form, mending every problem."
    )
    return [*messages, {"role": "assistant", "content": answer}, {"role": "user", "content": ask}]
