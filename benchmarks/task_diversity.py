"""Task variety of the stateful domains: how alike are the first messages of their tasks?

For each domain, samples N tasks (seed 0, in process, through the domain's own sampler) and
reports, on the user's first message (`TaskSpec.instruction`):

- dup share: the share of tasks whose *masked* first message equals another task's. Masked are
  emails, every token holding a digit (ids, amounts, dates, times, train numbers) and the words
  of people's names found in the task's state (`name` fields);
- distinct-3-gram ratio: distinct word 3-grams / all word 3-grams over 50 first messages drawn
  at random, median of 20 draws (lower = more repetitive).

`--source DIR` imports `domains` from another checkout (e.g. a `git worktree` of an older
commit), so the figures of two versions come from one run of this script. `--tau2 DIR` adds
tau2-bench's retail and airline tasks (their `reason_for_call`, the nearest thing tau2 stores to
a first message; tau2's user simulator writes the real one) for comparison.

    .venv/bin/python benchmarks/task_diversity.py --num-tasks 400
    git worktree add /tmp/base bf4913a
    .venv/bin/python benchmarks/task_diversity.py --num-tasks 400 --source /tmp/base
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

_EMAIL = re.compile(r"\S+@\S+")
_DIGITS = re.compile(r"\S*\d\S*")


def names_in(state: Any) -> set[str]:
    """The words of every `name` field in a state (people's names)."""
    found: set[str] = set()
    if isinstance(state, dict):
        for key, value in state.items():
            if key == "name" and isinstance(value, str):
                found.update(w.casefold() for w in value.split())
            else:
                found |= names_in(value)
    elif isinstance(state, list):
        for item in state:
            found |= names_in(item)
    return found


def mask(text: str, names: set[str]) -> str:
    text = _DIGITS.sub("<n>", _EMAIL.sub("<email>", text))
    words = [("<name>" if w.casefold().strip(".,!?") in names else w) for w in text.split()]
    return " ".join(words).casefold()


def trigram_ratio(texts: list[str]) -> float:
    grams = [
        tuple(words[i : i + 3])
        for words in (t.casefold().split() for t in texts)
        for i in range(len(words) - 2)
    ]
    return len(set(grams)) / len(grams) if grams else 0.0


def figures(openings: list[str], masked: list[str]) -> dict[str, float]:
    counts = Counter(masked)
    rng = random.Random(0)
    ratios = [trigram_ratio(rng.sample(openings, min(50, len(openings)))) for _ in range(20)]
    return {
        "tasks": len(openings),
        "dup_share": sum(counts[m] > 1 for m in masked) / len(masked),
        "surface_forms": len(counts),
        "trigram_ratio": statistics.median(ratios),
    }


def domain_figures(name: str, n: int) -> dict[str, float]:
    from toolscale.core.contract import item_rng
    from toolscale.core.registry import get_domain

    domain = get_domain(name)
    openings, masked = [], []
    people: dict[int, set[str]] = {}  # by id of the state: a run's world is shared
    for index in range(n):
        spec = domain.sample(item_rng(name, 0, index), 0, index)
        key = id(spec.initial_state)
        if key not in people:
            people[key] = names_in(spec.initial_state)
        openings.append(spec.instruction)
        masked.append(mask(spec.instruction, people[key]))
    return figures(openings, masked)


def tau2_figures(root: Path, name: str) -> dict[str, float] | None:
    path = root / "data" / "tau2" / "domains" / name / "tasks.json"
    if not path.is_file():
        return None
    tasks = json.loads(path.read_text())
    texts = [t["user_scenario"]["instructions"]["reason_for_call"] for t in tasks]
    names = {w.casefold() for t in tasks for w in re.findall(r"\b[A-Z][a-z]+_[A-Z][a-z]+", str(t))}
    return figures(texts, [mask(t, names) for t in texts])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=400)
    parser.add_argument("--domains", default="railway,bank")
    parser.add_argument("--source", type=Path, help="import `domains` from this checkout")
    parser.add_argument("--tau2", type=Path, help="a tau2-bench checkout to compare with")
    args = parser.parse_args()
    if args.source:
        sys.path.insert(0, str(args.source.resolve()))
    rows = {d: domain_figures(d, args.num_tasks) for d in args.domains.split(",")}
    for name in ("retail", "airline"):
        found = tau2_figures(args.tau2, name) if args.tau2 else None
        if found:
            rows[f"tau2 {name} (reason_for_call)"] = found
    print(f"{'domain':34} {'tasks':>6} {'dup share':>10} {'forms':>6} {'3-gram ratio':>13}")
    for name, row in rows.items():
        print(
            f"{name:34} {row['tasks']:>6} {row['dup_share']:>10.3f} {row['surface_forms']:>6}"
            f" {row['trigram_ratio']:>13.3f}"
        )


if __name__ == "__main__":
    main()
