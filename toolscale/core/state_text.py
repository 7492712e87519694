"""The canonical JSON of a state, written from the text of the parts it shares with states seen
before.

A stateful task's state is its run's world (hundreds of kilobytes) plus a few changed records, and
it is written as canonical JSON many times: to send it to the sandbox, for its hash after every
replay, before and after every READ call of a gold route. Encoding it whole each time costs
milliseconds. Here a state's tables, and the records of a table that changed, are each looked up by
their packed bytes (`toolscale.core.packing`: several times faster than the JSON encoder, and it
tells 1, 1.0 and True apart, as canonical JSON does): equal bytes are equal values of equal types,
so their canonical text is the one remembered. The result is byte for byte
`canonical_json(state)`; the memory only changes the speed. A table or record whose keys are not
all strings is encoded whole.
"""

from __future__ import annotations

import json
from typing import Any

from toolscale.core.packing import pack

# What is remembered is dropped whole once it holds this many bytes (packed values and texts): every
# changed table of every state is a new entry, so a long run would otherwise grow without end.
# After a drop the next state is written in full once; a world's tables then come from memory.
_BUDGET = 64 << 20
_TEXTS: dict[bytes, str] = {}
_KEYS: dict[str, str] = {}  # a key's JSON text: record ids recur in every state of a world
_used = 0


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_state(state: Any) -> str:
    """`canonical_json(state)`, reusing the text of tables and records seen before."""
    return _composed(state, depth=2)


def _composed(value: Any, depth: int) -> str:
    if depth == 0 or not _plain_dict(value):
        return canonical_json(value)
    parts = (f"{_key(k)}:{_remembered(value[k], depth - 1)}" for k in sorted(value))
    return "{" + ",".join(parts) + "}"


def _remembered(value: Any, depth: int) -> str:
    if not isinstance(value, (dict, list)):
        return canonical_json(value)
    global _used
    packed = pack(value)
    text = _TEXTS.get(packed)
    if text is None:
        text = _composed(value, depth)
        size = len(packed) + len(text)
        if _used + size > _BUDGET:
            _TEXTS.clear()
            _KEYS.clear()
            _used = 0
        _TEXTS[packed] = text
        _used += size
    return text


def _plain_dict(value: Any) -> bool:
    return type(value) is dict and all(type(k) is str for k in value)


def _key(key: str) -> str:
    global _used
    text = _KEYS.get(key)
    if text is None:
        text = _KEYS[key] = json.dumps(key, ensure_ascii=False)
        _used += len(key) + len(text)
    return text
