"""Fast exact bytes of a JSON-like value, for process-local caches: `marshal` (about 3x faster
than `pickle` to write, a little faster to read, and like it exact about types: 1, 1.0 and True
pack apart), falling back to `pickle` for a value marshal cannot write. Equal bytes are equal
values of equal types; equal values may pack apart (shared objects, key order), which only
costs a cache miss. Never for storage: marshal's format is the running interpreter's."""

from __future__ import annotations

import marshal
import pickle
from typing import Any


def pack(value: Any) -> bytes:
    try:
        return b"m" + marshal.dumps(value)
    except ValueError:  # a type marshal does not write
        return b"p" + pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


def unpack(packed: bytes) -> Any:
    body = memoryview(packed)[1:]
    return marshal.loads(body) if packed[:1] == b"m" else pickle.loads(body)
