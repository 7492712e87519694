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

`--source DIR` imports `toolscale` and `domains` from another checkout (e.g. an older commit
unpacked with `git archive`), so the figures of two versions come from one run of this script.
`--tau2 DIR` adds tau2-bench's retail and airline tasks (their `reason_for_call`) for comparison.

    .venv/bin/python benchmarks/task_diversity.py --num-tasks 400
    mkdir /tmp/base && git archive 7ca3a35 | tar -x -C /tmp/base
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
LISTED = ("decline", "correct", "pieces", "change")


def names_in(state: Any) -> set[str]:
    """The words of every `name` field in a state (people's, stations', payees' names)."""
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
    words = [("<name>" if w.casefold().strip(".,!?;:'\"()") in names else w) for w in text.split()]
    return " ".join(words).casefold()


def trigram_ratio(texts: list[str]) -> float:
    grams = [
        tuple(words[i : i + 3])
        for words in (t.casefold().split() for t in texts)
        for i in range(len(words) - 2)
    ]
    return len(set(grams)) / len(grams) if grams else 0.0


def shared(masked: list[str]) -> float:
    """The share of items whose (masked) text equals another item's."""
    counts = Counter(masked)
    return sum(counts[m] > 1 for m in masked) / len(masked) if masked else 0.0


def figures(openings: list[str], masked: list[str]) -> dict[str, float]:
    rng = random.Random(0)
    ratios = [trigram_ratio(rng.sample(openings, min(50, len(openings)))) for _ in range(20)]
    return {
        "tasks": len(openings),
        "dup_share": shared(masked),
        "surface_forms": len(set(masked)),
        "trigram_ratio": statistics.median(ratios),
    }


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


def conversation(messages: list[Any]) -> tuple[list[str], list[str], list[str]]:
    """(the user's follow-ups, the user's answers to a proposal, the agent's turns said to the
    user before its final message) of a gold conversation."""
    users, confirmations, agent = [], [], []
    talk = [m for m in messages[2:-1] if m.role in ("user", "assistant") and not m.tool_calls]
    for n, m in enumerate(talk):
        if m.role == "user":
            users.append(m.content)
            if n and re.search(r"(proceed|go ahead|shall i|do that)\W*$", talk[n - 1].content):
                confirmations.append(m.content)
        else:
            agent.append(m.content)
    return users, confirmations, agent


def domain_figures(name: str, n: int) -> dict[str, Any]:
    from toolscale.core.registry import get_domain
    from toolscale.economics.preferences import DEFAULT_SPREAD
    from toolscale.sample.tasks import build_task, gold_messages, with_preference

    domain = get_domain(name)
    tools = sorted(domain.toolkit.specs())
    firsts, masked_firsts, reasons, instructions = [], [], [], set()
    users: set[str] = set()
    confirmations: set[str] = set()
    agent: set[str] = set()
    behaviours: Counter[str] = Counter()
    naming = 0
    people: dict[str, set[str]] = {}  # by world id: a run's world is shared
    for index in range(n):
        item = with_preference(build_task(domain, 0, index, 15.0), DEFAULT_SPREAD)
        task = item.task
        if task.world not in people or not task.world:
            people[task.world] = names_in(task.initial_state)
        names = people[task.world]
        scenario = task.user_scenario
        firsts.append(task.instruction)
        masked_firsts.append(mask(task.instruction, names))
        reasons.append(mask(scenario.reason_for_call, names))
        instructions.add(scenario.task_instructions)
        said, confirmed, spoke = conversation(
            gold_messages(task, item.gold_outcomes, item.final_message)
        )
        users.update(mask(u, names) for u in said)
        confirmations.update(mask(c, names) for c in confirmed)
        agent.update(mask(a, names) for a in spoke)
        behaviours[getattr(scenario, "behaviour", "") or "plain"] += 1
        naming += sum(tool_named(u, tools) for u in [task.instruction, *said])
    row = figures(firsts, masked_firsts)
    row.update(
        {
            "reason_shared": shared(reasons),
            "task_instructions": len(instructions),
            "user_followups": len(users),
            "confirmations": len(confirmations),
            "agent_turns": len(agent),
            "behaviour_share": 1 - behaviours["plain"] / n,
            "listed_share": sum(behaviours[b] for b in LISTED) / n,
            "behaviours": dict(sorted(behaviours.items())),
            "tool_named": naming,
        }
    )
    return row


def tau2_figures(root: Path, name: str) -> dict[str, Any] | None:
    path = root / "data" / "tau2" / "domains" / name / "tasks.json"
    if not path.is_file():
        return None
    tasks = json.loads(path.read_text())
    texts = [t["user_scenario"]["instructions"]["reason_for_call"] for t in tasks]
    names = {w.casefold() for t in tasks for w in re.findall(r"\b[A-Z][a-z]+_[A-Z][a-z]+", str(t))}
    row = figures(texts, [mask(t, names) for t in texts])
    row["reason_shared"] = row["dup_share"]
    return row


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
    parser.add_argument("--domains", default="railway,bank")
    parser.add_argument("--source", type=Path, help="import toolscale and domains from here")
    parser.add_argument("--tau2", type=Path, help="a tau2-bench checkout to compare with")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    if args.source:
        sys.path.insert(0, str(args.source.resolve()))
    rows = {d: domain_figures(d, args.num_tasks) for d in args.domains.split(",")}
    for name in ("retail", "airline"):
        found = tau2_figures(args.tau2, name) if args.tau2 else None
        if found:
            rows[f"tau2 {name} (reason_for_call)"] = found
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'domain':30}" + "".join(f" {title:>14}" for title, _, _ in COLUMNS))
    for name, row in rows.items():
        cells = [format(row[key], spec) if key in row else "-" for _, key, spec in COLUMNS]
        print(f"{name:30}" + "".join(f" {cell:>14}" for cell in cells))
        if "behaviours" in row:
            print(f"{'':30} behaviours: {row['behaviours']}")


if __name__ == "__main__":
    main()
