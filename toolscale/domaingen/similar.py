"""The near-duplicate gate: how alike two domains' tool signatures are.

A domain's shingles are one token per tool name, one per parameter (tool, name, type), and the
word bigrams of each tool's and parameter's description. Two domains are compared by the
Jaccard similarity of their shingle sets, computed exactly (a domain has a few hundred
shingles, so no MinHash estimate is needed); at or above the threshold the candidate is a
near-duplicate of the closest bundled or already accepted domain. The kit's own tools
(`calculate`, `transfer_to_human_agents`), which every stateful domain has, are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from toolscale.domaingen.spec import KIT_TOOLS


def _bigrams(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.casefold())
    return {" ".join(words[i : i + 2]) for i in range(max(1, len(words) - 1))} - {""}


def shingles(schemas: Iterable[Mapping[str, Any]]) -> set[str]:
    """The shingles of a toolkit's schemas (`Toolkit.schemas()`: OpenAI function schemas)."""
    found: set[str] = set()
    for schema in schemas:
        function = schema.get("function", schema)
        name = str(function.get("name", ""))
        if name in KIT_TOOLS:
            continue
        found.add(f"tool:{name}")
        found |= {f"says:{b}" for b in _bigrams(str(function.get("description", "")))}
        properties = function.get("parameters", {}).get("properties", {})
        for param, prop in properties.items():
            found.add(f"param:{name}:{param}:{prop.get('type', '')}")
            found |= {f"says:{b}" for b in _bigrams(str(prop.get("description", "")))}
    return found


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def closest(candidate: set[str], others: Mapping[str, set[str]]) -> tuple[str, float] | None:
    """The most similar of `others` (name -> shingles) and its similarity; None when empty."""
    scored = [(jaccard(candidate, s), name) for name, s in sorted(others.items())]
    if not scored:
        return None
    score, name = max(scored)
    return name, round(score, 4)
