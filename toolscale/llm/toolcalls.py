"""Read the tool calls out of one assistant message: native `tool_calls` first, then calls
written in the text, as `<tool_call>{...}</tool_call>` (Hermes / Qwen style) or as a bare JSON
object `{"name": ..., "arguments": {...}}` (or a list of them).

Arguments are kept as the exact text the model wrote, so that unparsable arguments survive into
the trace; this module judges nothing (unknown tools and bad arguments are the sandbox's and the
verifier's business).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from toolscale.core.contract import canonical_json

_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_NAME = re.compile(r'"name"\s*:\s*"([^"]+)"')
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


@dataclass(frozen=True)
class ParsedCall:
    name: str
    arguments: str  # the JSON text as written (may be invalid JSON)


def _arguments_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return canonical_json({} if value is None else value)


def _from_object(value: Any) -> ParsedCall | None:
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    arguments = value.get("arguments", value.get("parameters"))
    return ParsedCall(value["name"], _arguments_text(arguments))


def _from_tagged(inner: str) -> ParsedCall | None:
    try:
        return _from_object(json.loads(inner))
    except (ValueError, RecursionError):  # not JSON, or JSON Python refuses (a 5,000-digit int)
        # The model meant a call but broke the JSON: keep the name if it can be read, and the
        # whole text as arguments, so the model is told its arguments did not parse.
        name = _NAME.search(inner)
        return ParsedCall(name.group(1), inner) if name else None


def _bare(content: str) -> list[ParsedCall]:
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    if not text.startswith(("{", "[")):
        return []
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return []
    items = value if isinstance(value, list) else [value]
    calls = [_from_object(item) for item in items]
    return [c for c in calls if c is not None] if all(calls) else []


def parse_message(message: dict[str, Any]) -> tuple[str, list[ParsedCall]]:
    """(the text content without embedded calls, the calls in order)."""
    content = message.get("content") or ""
    native = message.get("tool_calls") or []
    if native:
        calls = [
            ParsedCall(
                str(c.get("function", {}).get("name", "")),
                _arguments_text(c.get("function", {}).get("arguments")),
            )
            for c in native
        ]
        return content, calls
    if "<tool_call>" in content:
        calls = [c for c in (_from_tagged(m) for m in _TAGGED.findall(content)) if c]
        if calls:
            return _TAGGED.sub("", content).strip(), calls
    calls = _bare(content)
    if calls:
        return "", calls
    return content, []
