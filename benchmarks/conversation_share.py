"""How conversational are the stateful traces, and is every tau2-exported task complete?

Generates N tasks of the stateful domains with the reference teacher (`--detours`), then counts
the verified traces with two or more user turns (the opening plus at least one answer of the
scripted user) and those whose user has a behaviour (`UserScenario.behaviour`) per domain, and
exports the run to tau2's format to check that every task has
`known_info`, `task_instructions`, and at least one of `communicate_info` / `nl_assertions` /
a write action.

    .venv/bin/python benchmarks/conversation_share.py --num-tasks 200
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path

from toolscale.config.generate import GenerateConfig
from toolscale.core.registry import get_domain
from toolscale.pipeline.generate import generate
from toolscale.publish.export import export
from toolscale.write.output import Output


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=200)
    parser.add_argument("--domains", default="railway,bank")
    args = parser.parse_args()
    domains = args.domains.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        generate(GenerateConfig(domains=domains, num_tasks=args.num_tasks, out=out, detours=True))
        turns: dict[str, Counter[int]] = {d: Counter() for d in domains}
        behaviour = {
            row["id"]: json.loads(row["user_scenario"] or "{}").get("behaviour", "")
            for _, row in Output(out).read_rows("tasks")
        }
        behaved: Counter[str] = Counter()
        for _, row in Output(out).read_rows("traces"):
            users = sum(m["role"] == "user" for m in row["messages"])
            turns[row["domain"]][min(users, 4)] += 1
            behaved[row["domain"]] += bool(behaviour.get(row["task_id"]))
        for domain, counts in turns.items():
            total = sum(counts.values())
            multi = sum(n for users, n in counts.items() if users >= 2)
            shape = ", ".join(f"{u}{'+' if u == 4 else ''}: {n}" for u, n in sorted(counts.items()))
            print(f"{domain}: {multi}/{total} traces ({multi / total:.0%}) with >= 2 user turns")
            print(f"  user turns per trace: {shape}")
            share = behaved[domain] / total
            print(f"  traces whose user has a behaviour: {behaved[domain]} ({share:.0%})")
        export(out, Path(tmp) / "tau2", "tau2")
        for domain in domains:
            tasks = json.loads((Path(tmp) / "tau2" / domain / "tasks.json").read_text())
            specs = get_domain(domain).toolkit.specs()
            complete = 0
            for task in tasks:
                instructions = task["user_scenario"]["instructions"]
                criteria = task["evaluation_criteria"]
                writes = any(specs[a["name"]].kind == "write" for a in criteria["actions"])
                checks = criteria["communicate_info"] or criteria["nl_assertions"] or writes
                complete += bool(
                    instructions["known_info"] and instructions["task_instructions"] and checks
                )
            print(f"{domain}: {complete}/{len(tasks)} exported tau2 tasks complete")


if __name__ == "__main__":
    main()
