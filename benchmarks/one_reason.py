"""How many refusal tasks could be refused for a second reason, per stateful domain?

Samples tasks 0..N-1 (seed 0) of each stateful domain in-process, as `generate` draws them, and
for each refusal task (one whose spec names the call its caller asked for, `TaskSpec.refused`)
asks which rules that call breaks on the task's state (`toolscale.kit.broken_rules.tool_reasons`,
every rule checked, not only the first): a task with two or more reasons (two rules, or a rule
and another refusal such as a showing already over) is one a careful agent could refuse
correctly for the other reason. `--before` keeps a refusal draw on the first rule its check
raises, as the kit did before the one-reason rule (the rest of the code as it is; every rule is
still counted). `--digests`
writes one digest per task (its template, opening, gold calls, final message, facts, state), to
compare two runs: `--compare OLD.json` counts the tasks that changed.

    python benchmarks/one_reason.py --num-tasks 400 --before --digests /tmp/before.json
    python benchmarks/one_reason.py --num-tasks 400 --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from unittest import mock

from toolscale.core.contract import canonical_json, item_rng, state_hash
from toolscale.core.registry import get_domain
from toolscale.kit.broken_rules import tool_reasons

DOMAINS = (
    "bank",
    "basketball",
    "ecommerce",
    "medicine",
    "movie",
    "railway",
    "restaurant",
    "school",
    "travel",
    "weather",
)


def digest(spec: Any) -> str:
    body = [
        spec.template,
        spec.instruction,
        [a.as_dict() for a in spec.gold_actions],
        spec.final_message,
        spec.required_facts,
        spec.scenario.model_dump() if spec.scenario else None,
        state_hash(spec.initial_state),
    ]
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()[:16]


class _Keep:
    """What `--before` puts in place of a draw's reasons: any draw is kept."""

    def only(self) -> bool:
        return True


def measure(name: str, tasks: int) -> tuple[dict[str, int], list[str], list[str]]:
    """(counts, the digests of the tasks, one line per task with two or more reasons)."""
    domain = get_domain(name)
    counts = {"refusals": 0, "two_reasons": 0}
    digests, lines = [], []
    for index in range(tasks):
        spec = domain.sample(item_rng(name, 0, index), 0, index)
        digests.append(f"{spec.template} {digest(spec)}")
        if getattr(spec, "refused", None) is None:  # (code before TaskSpec.refused: none)
            continue
        counts["refusals"] += 1
        found = tool_reasons(
            domain.toolkit, spec.initial_state, spec.refused.name, spec.refused.arguments
        )
        if len(found.rules) + bool(found.other) >= 2:
            counts["two_reasons"] += 1
            lines.append(f"{name} task {index} ({spec.template}): {found.described()}")
    return counts, digests, lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=400)
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--before", action="store_true", help="draw as before the rule")
    parser.add_argument("--digests", default="", help="write the task digests here")
    parser.add_argument("--compare", default="", help="count changes against these digests")
    parser.add_argument("--show", type=int, default=3, help="examples printed per domain")
    args = parser.parse_args()
    old = json.loads(Path(args.compare).read_text()) if args.compare else {}
    written: dict[str, list[str]] = {}
    with ExitStack() as stack:
        if args.before:  # every draw with its first rule right is kept, as the kit did
            keep = _Keep()
            for where in ("toolscale.kit.draws.reasons", "toolscale.kit.compose.tool_reasons"):
                stack.enter_context(mock.patch(where, lambda *a, **k: keep))
        print("| domain | refusals | two or more reasons | tasks changed |")
        print("|---|---|---|---|")
        examples = []
        for name in args.domains.split(","):
            counts, digests, lines = measure(name, args.num_tasks)
            written[name] = digests
            before = old.get(name, [])
            changed = sum(a != b for a, b in zip(before, digests, strict=False)) if before else "-"
            print(f"| {name} | {counts['refusals']} | {counts['two_reasons']} | {changed} |")
            examples += lines[: args.show]
    print(*examples, sep="\n")
    if args.digests:
        Path(args.digests).write_text(json.dumps(written))


if __name__ == "__main__":
    main()
