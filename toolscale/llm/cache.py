"""A request cache on disk: one SQLite table of answered chat requests, keyed on what shapes them.

The key is the SHA-256 of the canonical JSON of (model, messages, tools, sampling parameters,
attempt), so a rerun or a `--resume` that sends the same requests reads the answers
back and sends nothing. The attempt number is part of the key so that K sampled attempts of one
task are K different entries. The teacher's keys leave the URL out (`base_url=None`), so a
`--resume` against another endpoint list, serving the same model, reads the same entries; the
expert endpoints key on their URL too. The API key is never part of the key or of an entry.

The table lives in `<folder>/requests.sqlite` (stdlib sqlite3, write-ahead log): a lookup and an
insert cost tens of microseconds, where a file per request cost half a millisecond of blocking
file-system work on the event loop. Each insert is its own transaction, so an entry is on disk
once `put` returns; several processes (the sandbox workers asking real experts) may share one
folder, SQLite serialises their writes. Two writers of one key write the same answer.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from toolscale.core.contract import canonical_json
from toolscale.core.errors import ConfigError

FILE_NAME = "requests.sqlite"
_BUSY_TIMEOUT_S = 30.0


def request_key(
    base_url: str | None,
    model: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    sampling: dict[str, Any],
) -> str:
    body = [model, messages, tools, sampling]
    if base_url is not None:
        body.insert(0, base_url.rstrip("/"))
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def _set_up(db: sqlite3.Connection) -> None:
    """WAL mode and the table, on a connection that may be one of several opening a new file at
    once (the sandbox workers asking experts): switching a new database to WAL can answer
    "database is locked" at once, without waiting for the busy timeout, while another process
    does the same; that is retried, with short pauses, for as long as the busy timeout."""
    deadline = time.monotonic() + _BUSY_TIMEOUT_S
    pause = 0.01
    while True:
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, entry TEXT)")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)


class RequestCache:
    """`get(key)` -> the stored entry or None; `put(key, entry)` stores it. The database is
    opened on first use, so a cache that is never used creates nothing."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.path = self.root / FILE_NAME
        self._db: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                self.root.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
                _set_up(db)
            except (OSError, sqlite3.Error) as exc:
                raise ConfigError(
                    f"cannot use the request cache {self.path} ({exc}); move it away or choose "
                    "another --cache-dir"
                ) from None
            self._db = db
        return self._db

    def check(self) -> None:
        """Open an existing cache now, so an unusable one stops the run before it starts."""
        if self.path.exists():
            self._connection()

    def get(self, key: str) -> dict[str, Any] | None:
        if self._db is None and not self.path.exists():
            return None
        row = self._connection().execute("SELECT entry FROM entries WHERE key = ?", (key,))
        found = row.fetchone()
        return None if found is None else json.loads(found[0])

    def put(self, key: str, entry: dict[str, Any]) -> None:
        row = (key, canonical_json(entry))
        self._connection().execute("INSERT OR REPLACE INTO entries (key, entry) VALUES (?, ?)", row)

    def count(self) -> int:
        """How many answers are stored."""
        if self._db is None and not self.path.exists():
            return 0
        return self._connection().execute("SELECT count(*) FROM entries").fetchone()[0]

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
