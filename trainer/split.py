"""A content-disjoint held-out split of `tasks` rows: no held-out problem is a training problem.

Task ids are content hashes over everything a task holds (prices, profile, seed), so the same
problem drawn under another seed, price table or preference has another id: disjoint ids do not
make a held-out set. Here a task's content is its instruction without its preference sentence
(`preference.instruction`, appended to every profile's tasks), case and spacing folded, with
its expected outcome (the expected answer, or for a stateful task the gold final state hash):

    >>> content_key({"instruction": "What is 7 *  2? Keep it cheap.", "expected_answer": "14",
    ...              "preference": '{"instruction": "Keep it cheap."}', "expected_state_hash": ""})
    'what is 7 * 2?|14'

`split` puts every task of one content on the same side (by a hash of its key, so the split is
the same on every machine and for every subset of the rows); `disjoint` drops from a held-out
set every task whose content is in the training rows, and `overlap` names them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from toolscale.core.errors import ConfigError


def _plain(text: str) -> str:
    return " ".join(text.casefold().split())


def content_key(row: Mapping[str, Any]) -> str:
    """The problem a task row poses and the outcome it expects, normalised."""
    preference = row.get("preference") or {}
    if isinstance(preference, str):
        preference = json.loads(preference)
    instruction = row["instruction"]
    suffix = preference.get("instruction") or ""
    if suffix and instruction.endswith(suffix):
        instruction = instruction[: -len(suffix)]
    answer = row.get("expected_answer")
    outcome = answer if answer is not None else row.get("expected_state_hash", "")
    return f"{_plain(instruction)}|{_plain(str(outcome))}"


def check_fraction(fraction: float) -> None:
    """A ConfigError naming `--heldout_fraction` unless 0 <= `fraction` < 1 (1 would leave
    nothing to train on)."""
    if not 0 <= fraction < 1:
        raise ConfigError(
            f"--heldout_fraction must be at least 0 and below 1 (0 <= F < 1), not {fraction}; "
            "e.g. 0.2 keeps a fifth of the task contents out of training"
        )


def held_out(key: str, fraction: float, salt: str = "heldout") -> bool:
    """Whether content `key` is on the held-out side of a split keeping `fraction` out."""
    digest = hashlib.sha256(f"{salt}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < fraction


def split(rows: Iterable[Mapping[str, Any]], fraction: float) -> tuple[list[int], list[int]]:
    """(training indices, held-out indices) of `rows`, content-disjoint."""
    train: list[int] = []
    heldout: list[int] = []
    for i, row in enumerate(rows):
        (heldout if held_out(content_key(row), fraction) else train).append(i)
    return train, heldout


def overlap(
    training: Iterable[Mapping[str, Any]], heldout: Iterable[Mapping[str, Any]]
) -> list[int]:
    """Indices of the held-out rows whose content is also in `training`."""
    seen = {content_key(row) for row in training}
    return [i for i, row in enumerate(heldout) if content_key(row) in seen]


def disjoint(
    training: Iterable[Mapping[str, Any]], heldout: Iterable[Mapping[str, Any]]
) -> list[int]:
    """Indices of the held-out rows whose content is not in `training`."""
    rows = list(heldout)
    shared = set(overlap(training, rows))
    return [i for i in range(len(rows)) if i not in shared]
