"""Near-duplicate and contamination checks: MinHash (datasketch) over a task's words and its
gold-call signature.

A task's features are the word bigrams of what the user wants (reason for call, what the user
knows, how the user behaves) plus one token per gold call and per call argument, so two tasks
asking the same thing with the same calls are near-duplicates even when worded a little
differently. `NearDuplicates` keeps the tasks seen so far in an LSH index (in the order they
are added, so the first of a group is kept); `load_tau2` fills one from a folder of tau2-bench
task files (`--decontaminate PATH`). Estimated Jaccard similarity at or above the threshold is
a match.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from datasketch import MinHash, MinHashLSH

from toolscale.core.contract import canonical_json
from toolscale.core.errors import ConfigError
from toolscale.synthesize.candidates import Candidate

NUM_PERM = 128


def features(texts: Iterable[str], actions: Iterable[tuple[str, dict[str, Any]]]) -> set[str]:
    """Word bigrams of the texts and call tokens of the actions."""
    found: set[str] = set()
    for text in texts:
        words = re.findall(r"[a-z0-9]+", text.casefold())
        found.update(" ".join(words[i : i + 2]) for i in range(max(1, len(words) - 1)))
    for name, arguments in actions:
        found.add(f"call:{name}")
        found.update(f"arg:{name}:{k}={canonical_json(v)}" for k, v in arguments.items())
    found.discard("")
    return found


def candidate_features(candidate: Candidate) -> set[str]:
    scenario = candidate.scenario()
    texts = (scenario.reason_for_call, scenario.known_info, scenario.task_instructions)
    return features(texts, ((a.name, a.arguments) for a in candidate.actions))


def _minhash(tokens: set[str]) -> MinHash:
    sketch = MinHash(num_perm=NUM_PERM)
    for token in sorted(tokens):
        sketch.update(token.encode())
    return sketch


class NearDuplicates:
    """`match(tokens)` -> the key of a stored near-duplicate, or None; `add(key, tokens)`."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self.index = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)
        self.sketches: dict[str, MinHash] = {}

    def __len__(self) -> int:
        return len(self.sketches)

    def match(self, tokens: set[str]) -> str | None:
        sketch = _minhash(tokens)
        hits = sorted(
            k
            for k in self.index.query(sketch)
            if sketch.jaccard(self.sketches[k]) >= self.threshold
        )
        return hits[0] if hits else None

    def add(self, key: str, tokens: set[str]) -> None:
        if key not in self.sketches:
            self.sketches[key] = _minhash(tokens)
            self.index.insert(key, self.sketches[key])


def first_of_groups(
    items: Iterable[tuple[str, set[str]]], threshold: float
) -> dict[str, str | None]:
    """For each (key, features) in order: the key of an earlier kept near-duplicate, or None
    when it is kept. The same items in the same order give the same answer wherever it runs
    (a run, or `toolscale merge` over the candidates of its shards)."""
    seen = NearDuplicates(threshold)
    twins: dict[str, str | None] = {}
    for key, tokens in items:
        twins[key] = seen.match(tokens)
        if twins[key] is None:
            seen.add(key, tokens)
    return twins


def tau2_features(task: dict[str, Any]) -> set[str] | None:
    """The features of one tau2-bench task (its user scenario's instructions and its evaluation
    actions), or None when the value is not a tau2 task."""
    scenario = task.get("user_scenario")
    if not isinstance(scenario, dict):
        return None
    instructions = scenario.get("instructions")
    if isinstance(instructions, dict):
        keys = ("reason_for_call", "known_info", "task_instructions")
        texts = [str(instructions.get(k) or "") for k in keys]
    else:
        texts = [str(instructions or "")]
    criteria = task.get("evaluation_criteria") or {}
    actions = [
        (str(a.get("name")), a.get("arguments") or {})
        for a in criteria.get("actions") or []
        if isinstance(a, dict)
    ]
    return features(texts, actions)


def load_tau2(path: Path, threshold: float) -> NearDuplicates:
    """Every tau2-format task in the JSON files under `path` (a file holding a list of tasks, or
    {"tasks": [...]}), keyed "<file>#<task id>". An unreadable folder or file, or a folder with
    no task at all, is a ConfigError."""
    if not path.exists():
        raise ConfigError(
            f"--decontaminate {path} does not exist; give a folder of tau2 task files"
        )
    files = [path] if path.is_file() else sorted(path.rglob("*.json"))
    seen = NearDuplicates(threshold)
    for file in files:
        try:
            value = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(
                f"--decontaminate: cannot read {file} ({exc.__class__.__name__}); give a folder of "
                "tau2 task files (JSON)"
            ) from None
        tasks = value.get("tasks", []) if isinstance(value, dict) else value
        for n, task in enumerate(tasks if isinstance(tasks, list) else []):
            tokens = tau2_features(task) if isinstance(task, dict) else None
            if tokens:
                seen.add(
                    f"{file.relative_to(path) if path.is_dir() else file.name}#{task.get('id', n)}",
                    tokens,
                )
    if not len(seen):
        raise ConfigError(
            f"--decontaminate {path} holds no tau2 task (JSON files with a list of tasks, each "
            "with a user_scenario)"
        )
    return seen
