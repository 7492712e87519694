"""A request cache on disk: one JSON file per chat request, keyed on everything that shapes it.

The key is the SHA-256 of the canonical JSON of (base URL, model, messages, tools, sampling
parameters, attempt), so a rerun or a `--resume` that sends the same requests reads the answers
back and sends nothing. The attempt number is part of the key so that K sampled attempts of one
task are K different entries. The API key is never part of the key or of a file. Files are
written to a temporary name and renamed (no fsync: a lost entry only costs one more request);
two concurrent writers of one key write the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from pathlib import Path
from typing import Any

from toolscale.contract import canonical_json


def request_key(
    base_url: str,
    model: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    sampling: dict[str, Any],
) -> str:
    body = [base_url.rstrip("/"), model, messages, tools, sampling]
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


class RequestCache:
    """`get(key)` -> the stored entry or None; `put(key, entry)` stores it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            return json.loads(self._path(key).read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        tmp.write_text(canonical_json(entry))
        os.replace(tmp, path)
