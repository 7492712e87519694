"""The router baseline: a light model that picks a task's route from what a policy sees.

It reads four things of a `tasks` row, each a block of words: the question (the instruction
without its preference sentence; words and word pairs, every number read as "#"), the preference
sentence, the price table
(the "## Prices for this task" section of the system prompt, as the policy reads it) and the tool
list. Each block is
a TF-IDF vector (term counts times the inverse document frequency over the training rows,
L2-normalised), and two tasks are as alike as the product of (1 + cosine) over the blocks: the
kernel of every conjunction of one word from each block, so that "1 cent" can mean one thing
beside "$0.01 per call" and another beside "$0.001 per call". On it a kernel ridge regression
(its penalty chosen by cross-validation on the training rows) predicts, for every route name of
the training rows that is no detour, the route's expected reward (the label the data stores,
`RouteScore.expected_reward`; 0 where a task does not admit the route, as a declined attempt
scores), one model per domain. The router picks the route with
the best prediction; a route the task does not admit is then played as declined.

RouterBench-style: the first row a trained orchestrator must beat, and on CPU in a second it says
whether the data holds a decision that can be learnt from what a policy sees. Plain numpy: no
model weights, no external data. `route_names` and `choose` are all the evaluation needs.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from trainer.split import content_key

BLOCKS = ("question", "preference", "prices", "tools")
# The ridge penalty, relative to the kernel's mean diagonal: the one of these that routes best
# in a two-fold cross-validation on the training rows themselves (never on the rows scored).
RIDGES = (0.01, 0.03, 0.1, 0.3)
FOLDS = 4
MIN_CROSS_VALIDATED = 40  # fewer training rows than this take the middle penalty, unchecked
_WORD = re.compile(r"\$?\d+(?:\.\d+)?|[a-z]+(?:-\d)?")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")  # a question's numbers are the instance, not its kind
MIN_TASKS = 2  # a word of fewer training tasks than this is no feature (a name, an id)
PRICES_HEAD = "## Prices for this task"


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def blocks(row: Mapping[str, Any]) -> dict[str, list[str]]:
    """The words of each block of a `tasks` row (see the module docstring)."""
    preference = _json(row["preference"]) or {}
    question = content_key(row).rsplit("|", 1)[0]  # the instruction less its preference sentence
    prompt = row["system_prompt"]
    table = prompt[prompt.find(PRICES_HEAD) :] if PRICES_HEAD in prompt else ""
    tools = [t["function"]["name"] for t in _json(row["tools"])]
    words = [_NUMBER.sub("#", w) for w in _WORD.findall(question.casefold())]
    return {
        "question": words + [f"{a} {b}" for a, b in pairwise(words)],
        "preference": _WORD.findall(str(preference.get("instruction", "")).casefold()),
        "prices": [line.strip() for line in table.casefold().splitlines() if line.startswith("|")]
        + _WORD.findall(table.casefold()),
        "tools": tools,
    }


def route_names(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every route name of the rows' route tables that is no detour, sorted."""
    return sorted({s["name"] for r in rows for s in r["route_table"] or () if not s["detour"]})


def _label(score: Mapping[str, Any]) -> float:
    expected = score.get("expected_reward")
    return float(score["reward_total"] if expected is None else expected)


def targets(row: Mapping[str, Any], names: Sequence[str]) -> list[float]:
    """The row's expected reward of each route in `names` (0 where it does not admit one; the
    played reward in rows made before expected rewards were stored)."""
    table = {s["name"]: s for s in row["route_table"] or ()}
    return [_label(table[n]) if n in table else 0.0 for n in names]


@dataclass(frozen=True)
class _Block:
    vocabulary: dict[str, int]
    idf: np.ndarray

    @classmethod
    def fit(cls, documents: Sequence[list[str]]) -> _Block:
        seen = Counter(w for d in documents for w in set(d))
        kept = sorted(w for w, k in seen.items() if k >= MIN_TASKS)
        n = len(documents)
        idf = np.array([math.log((1 + n) / (1 + seen[w])) + 1.0 for w in kept])
        return cls({w: i for i, w in enumerate(kept)}, idf)

    def vectors(self, documents: Sequence[list[str]]) -> np.ndarray:
        found = np.zeros((len(documents), len(self.vocabulary)))
        for i, words in enumerate(documents):
            for word, count in Counter(words).items():
                j = self.vocabulary.get(word)
                if j is not None:
                    found[i, j] = count
        found *= self.idf
        norms = np.linalg.norm(found, axis=1, keepdims=True)
        return found / np.where(norms > 0, norms, 1.0)


@dataclass(frozen=True)
class Router:
    """One domain's fitted router (`fit`), which `choose`s a route for a task row."""

    names: tuple[str, ...]
    blocks: dict[str, _Block]
    train: dict[str, np.ndarray]  # block -> the training rows' vectors
    weights: np.ndarray  # (training rows, routes)

    def kernel(self, rows: Sequence[Mapping[str, Any]]) -> np.ndarray:
        words = [blocks(r) for r in rows]
        found = np.ones((len(rows), len(next(iter(self.train.values())))))
        for name, block in self.blocks.items():
            found *= 1.0 + block.vectors([w[name] for w in words]) @ self.train[name].T
        return found

    def scores(self, rows: Sequence[Mapping[str, Any]]) -> np.ndarray:
        """The predicted expected reward of each route (columns in `names`) at each row."""
        return self.kernel(rows) @ self.weights

    def choose(self, rows: Sequence[Mapping[str, Any]]) -> list[str]:
        """The route each row is routed to (ties to the first name)."""
        return [self.names[int(i)] for i in np.argmax(self.scores(rows), axis=1)]


def _fit(rows: Sequence[Mapping[str, Any]], names: tuple[str, ...], ridge: float) -> Router:
    words = [blocks(r) for r in rows]
    fitted = {b: _Block.fit([w[b] for w in words]) for b in BLOCKS}
    train = {b: fitted[b].vectors([w[b] for w in words]) for b in BLOCKS}
    kernel = np.ones((len(rows), len(rows)))
    for b in BLOCKS:
        kernel *= 1.0 + train[b] @ train[b].T
    y = np.array([targets(r, names) for r in rows])
    penalty = ridge * float(np.mean(np.diag(kernel)))
    weights = np.linalg.solve(kernel + penalty * np.eye(len(rows)), y)
    return Router(names, fitted, train, weights)


def cross_validated_ridge(rows: Sequence[Mapping[str, Any]], names: tuple[str, ...]) -> float:
    """The penalty of RIDGES whose routers, each trained on all but one of FOLDS content-disjoint
    parts of `rows` and scored on that part by the labels (the expected reward of the route
    chosen), do best in all."""
    if len(rows) < MIN_CROSS_VALIDATED:
        return RIDGES[len(RIDGES) // 2]
    fold = [int(hashlib.sha256(f"ridge:{content_key(r)}".encode()).hexdigest(), 16) % FOLDS
            for r in rows]  # fmt: skip

    def routed(ridge: float) -> float:
        total = 0.0
        for k in range(FOLDS):
            train = [r for r, f in zip(rows, fold, strict=True) if f != k]
            scored = [r for r, f in zip(rows, fold, strict=True) if f == k]
            chosen = _fit(train, names, ridge).choose(scored)
            total += sum(
                targets(r, names)[names.index(c)] for r, c in zip(scored, chosen, strict=True)
            )
        return total

    return max(RIDGES, key=lambda ridge: (routed(ridge), -ridge))


def fit(rows: Sequence[Mapping[str, Any]]) -> Router:
    """A router trained on `rows` (one domain's tasks with route tables), its ridge penalty
    chosen by cross-validation on those rows (`cross_validated_ridge`)."""
    if not rows:
        raise ValueError("no rows to train the router on")
    names = tuple(route_names(rows))
    return _fit(rows, names, cross_validated_ridge(rows, names))


def fit_by_domain(rows: Sequence[Mapping[str, Any]]) -> dict[str, Router]:
    """One router per domain of `rows`, over its rows that have a route table."""
    by_domain: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        if row.get("route_table"):
            by_domain.setdefault(row["domain"], []).append(row)
    return {domain: fit(found) for domain, found in sorted(by_domain.items())}


def route_by_domain(
    routers: Mapping[str, Router], rows: Sequence[Mapping[str, Any]]
) -> list[str | None]:
    """The route each row is routed to; None for a row of a domain no router was trained on."""
    chosen: list[str | None] = [None] * len(rows)
    for domain, router in routers.items():
        mine = [i for i, r in enumerate(rows) if r["domain"] == domain]
        for i, name in zip(
            mine, router.choose([rows[i] for i in mine]) if mine else [], strict=True
        ):
            chosen[i] = name
    return chosen
