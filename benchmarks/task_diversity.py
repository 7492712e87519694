"""Task variety of the stateful domains: how alike are their tasks' words and conversations?

For each domain, builds N tasks (seed 0, in process: the domain's sampler, the gold route run,
the default preference spread) and reports:

- first message (the task's `instruction`: the opening plus its preference sentence): the share
  of tasks whose *masked* first message equals another task's, and the distinct-3-gram ratio
  (distinct word 3-grams / all word 3-grams over 50 first messages drawn at random, median of
  20 draws; lower = more repetitive). Masked are emails, every token holding a digit (ids,
  amounts, dates, times, train numbers) and the words of the `name` fields of the task's state
  (people, stations, payees);
- `reason_for_call` (the user scenario's): the share of tasks whose masked value equals
  another task's, and the number of distinct `task_instructions`;
- the gold conversation (the reference agent against the scripted user, as `generate` records
  it): distinct masked user follow-ups (the user's turns after the first message), distinct
  masked confirmations (the user's answers to a proposal), distinct masked agent turns said to
  the user (questions, confirmations, read-backs; the final message excluded), the share of
  conversations whose user has a behaviour (`UserScenario.behaviour`: decline, correct, pieces,
  change, ask_back, dont_know; "listed" counts the four of issue 24: decline, correct, pieces,
  change), and the user utterances that name a tool (its name, or its name with spaces).

The measures are `toolscale.check.variety`'s (synthesize-domain's variety gate uses them too).
`--source DIR` imports `toolscale` and `domains` from another checkout (e.g. an older commit
unpacked with `git archive`), so the figures of two versions come from one run of this script;
a checkout older than `toolscale.check.variety` is measured with this checkout's file of it.
`--tau2 DIR` adds tau2-bench's retail and airline tasks (their `reason_for_call`) for comparison.
`--domains stateful` measures every installed stateful domain; `--floor` also prints their
weakest figures as a `Floor(...)` (the gate's `FLOOR`, benchmarks/RESULTS.md).

    .venv/bin/python benchmarks/task_diversity.py --num-tasks 400
    .venv/bin/python benchmarks/task_diversity.py --num-tasks 400 --domains stateful --floor
    mkdir /tmp/base && git archive 7ca3a35 | tar -x -C /tmp/base
    .venv/bin/python benchmarks/task_diversity.py --num-tasks 400 --source /tmp/base
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import re
import sys
from dataclasses import asdict
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def variety() -> ModuleType:
    """The measures: `toolscale.check.variety` of the checkout imported (`--source`'s), or, for
    a checkout older than that module, this checkout's file run against the other's toolscale
    (the tasks are the other checkout's, the measures this one's)."""
    try:
        return importlib.import_module("toolscale.check.variety")
    except ModuleNotFoundError:
        path = HERE / "toolscale" / "check" / "variety.py"
        spec = importlib.util.spec_from_file_location("_variety_here", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {path}") from None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module


def tool_named(text: str, tools: list[str]) -> bool:
    """Whether `text` names one of `tools`: a name as it is ("get_fee_quote"), a name of several
    words with spaces used as a name ("the get fee quote", "get fee quote tool"), or a one-word
    name as "the <name> tool". A verb phrase that spells a tool's name ("help me book seats for
    two", tool `book_seats`) is how callers talk and is not counted."""
    low = text.casefold()
    for t in tools:
        spaced = re.escape(t.replace("_", " "))
        if "_" in t:
            pattern = rf"\b{re.escape(t)}\b|\b(the|a|your) {spaced}\b|\b{spaced} (tool|function)\b"
        else:
            pattern = rf"\b{t} (tool|function)\b"
        if re.search(pattern, low):
            return True
    return False


def domain_figures(measures: ModuleType, name: str, n: int) -> dict[str, Any]:
    from toolscale.core.registry import get_domain

    domain = get_domain(name)
    tools = sorted(domain.toolkit.specs())
    rows = measures.told(domain, n)
    row: dict[str, Any] = measures.figures(rows)
    row["tool_named"] = sum(tool_named(u, tools) for r in rows for u in [r.first, *r.said])
    return row


def tau2_figures(measures: ModuleType, root: Path, name: str) -> dict[str, Any] | None:
    path = root / "data" / "tau2" / "domains" / name / "tasks.json"
    if not path.is_file():
        return None
    tasks = json.loads(path.read_text())
    texts = [t["user_scenario"]["instructions"]["reason_for_call"] for t in tasks]
    names = {w.casefold() for t in tasks for w in re.findall(r"\b[A-Z][a-z]+_[A-Z][a-z]+", str(t))}
    masked = [measures.mask(t, names) for t in texts]
    share = measures.shared(masked)
    return {
        "tasks": len(texts),
        "dup_share": share,
        "surface_forms": len(set(masked)),
        "trigram_ratio": measures.drawn_trigram_ratio(texts),
        "reason_shared": share,
    }


def stateful() -> list[str]:
    """Every installed stateful domain (the ten bundled ones, and any TOOLSCALE_DOMAINS adds)."""
    from toolscale.core.registry import registered

    return [name for name, cls in registered().items() if cls.family == "stateful"]


COLUMNS = [
    ("tasks", "tasks", "d"),
    ("first msg shared", "dup_share", ".3f"),
    ("3-gram", "trigram_ratio", ".3f"),
    ("reason shared", "reason_shared", ".3f"),
    ("instructions", "task_instructions", "d"),
    ("user follow-ups", "user_followups", "d"),
    ("confirmations", "confirmations", "d"),
    ("agent turns", "agent_turns", "d"),
    ("behaviour", "behaviour_share", ".3f"),
    ("listed", "listed_share", ".3f"),
    ("tool named", "tool_named", "d"),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=400)
    parser.add_argument("--domains", default="railway,bank", help='names, or "stateful": all')
    parser.add_argument("--source", type=Path, help="import toolscale and domains from here")
    parser.add_argument("--tau2", type=Path, help="a tau2-bench checkout to compare with")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--floor", action="store_true", help="also print the weakest figures as a Floor(...)"
    )
    args = parser.parse_args()
    if args.source:
        sys.path.insert(0, str(args.source.resolve()))
    measures = variety()
    wanted = stateful() if args.domains == "stateful" else args.domains.split(",")
    rows = {d: domain_figures(measures, d, args.num_tasks) for d in wanted}
    floor = measures.weakest(list(rows.values())) if args.floor else None
    for name in ("retail", "airline"):
        found = tau2_figures(measures, args.tau2, name) if args.tau2 else None
        if found:
            rows[f"tau2 {name} (reason_for_call)"] = found
    if args.json:
        print(json.dumps(rows | ({"floor": asdict(floor)} if floor else {}), indent=1))
        return
    print(f"{'domain':30}" + "".join(f" {title:>14}" for title, _, _ in COLUMNS))
    for name, row in rows.items():
        cells = [format(row[key], spec) if key in row else "-" for _, key, spec in COLUMNS]
        print(f"{name:30}" + "".join(f" {cell:>14}" for cell in cells))
        if "behaviours" in row:
            print(f"{'':30} behaviours: {row['behaviours']}")
    if floor is not None:
        print(f"the weakest of {', '.join(wanted)}: {floor!r}")


if __name__ == "__main__":
    main()
