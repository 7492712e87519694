"""How many stateful tasks a no-tool parrot passes, played through the real pipeline.

A loopback OpenAI-compatible server (tests/teachers/fake_openai.py, in a thread of this
process) plays an agent that never calls a tool: its first turn asks the caller for every
detail a bank or railway caller may be asked for (so the scripted user gives them all), its
next turn repeats everything the user said (a detail by its value alone, so the user hears no
new question and the conversation ends), then stock policy phrases ("I cannot do that",
"standard processing", "transferring you to a human agent"). `toolscale generate --teacher
openai` plays it on N tasks of bank and railway (half each) against the scripted user; the
sandbox, the verifier and the labels are the real ones. Prints the share of tasks with a
verified attempt, per domain and in all, as a Markdown section for RESULTS.md. The script uses
only what main had before issue 22, so the same file measures the base commit too (run it from
a checkout of that commit).

    .venv/bin/python benchmarks/parrot_loopback.py --num-tasks 200
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's tests/

from tests.teachers.fake_openai import Plans, fake_openai
from toolscale.write.output import Output

STOCK = (
    "I cannot do that. I'm sorry, that is not possible under our policy. Your request will go "
    "through standard processing. Transferring you to a human agent. YOU ARE BEING TRANSFERRED "
    "TO A HUMAN AGENT. PLEASE HOLD ON."
)
# Every word a bank or railway caller's details are asked by (the scripted user gives a detail
# when each word of its key is in the agent's message).
ASK = (
    "To help you I need your details: your email, customer id, account number, card number, "
    "booking id, booking reference, name, travel date, departure time, number of passengers, "
    "fare class, payee name, merchant, amount, date, city, station and travel origin and "
    "destination?"
)


DETAIL = re.compile(r"My [\w ]+? is (.+?)\.(?=\s|$)")


class ParrotPlans(Plans):
    """Asks for every detail once, then parrots every user message plus stock phrases."""

    def __init__(self) -> None:
        super().__init__({})

    def completion(self, instruction: str, turn: int, fault: str, body: dict) -> dict[str, Any]:
        said = [str(m.get("content") or "") for m in body["messages"] if m["role"] == "user"]
        # "My booking id is BK1234." is repeated as "BK1234.": naming the detail again would
        # read to the user as a question, and the conversation would never end.
        said = [DETAIL.sub(r"\1.", text) for text in said]
        text = ASK if turn == 0 else " ".join([*said, STOCK]).replace("?", ".")
        message = {"role": "assistant", "content": text}
        prompt = sum(len(str(m.get("content") or "")) for m in body["messages"]) // 4 + 1
        return {
            "id": "chatcmpl-parrot",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "parrot"),
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": 7, "total_tokens": prompt + 7},
        }


def run(base_url: str, out: Path, num_tasks: int, seed: int) -> float:
    command = [sys.executable, "-m", "toolscale", "generate", "--teacher", "openai"]
    command += ["--base-url", base_url, "--model", "parrot", "--domains", "bank,railway"]
    command += ["--num-tasks", str(num_tasks), "--seed", str(seed), "--out", str(out)]
    started = time.perf_counter()
    result = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "OPENAI_API_KEY": "sk-parrot"}
    )
    if result.returncode != 0:
        raise SystemExit(result.stderr[-3000:])
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    plans = ParrotPlans()
    with tempfile.TemporaryDirectory() as tmp, fake_openai(plans) as server:
        out = Path(tmp) / "out"
        wall = run(server.base_url, out, options.num_tasks, options.seed)
        output = Output(out)
        tasks = {r["id"]: r["domain"] for _, r in output.read_rows("tasks")}
        passed: dict[str, set[str]] = defaultdict(set)
        for config in ("traces", "rejected"):
            for _, row in output.read_rows(config):
                if row["verified"]:
                    passed[row["domain"]].add(row["task_id"])
        stages: dict[str, int] = defaultdict(int)
        for _, row in output.read_rows("rejected"):
            stages[str(row["failure_stage"])] += 1
        commit = json.loads((out / "run.json").read_text())["versions"].get("toolscale_commit")
    per = {d: sum(1 for t in tasks.values() if t == d) for d in sorted(set(tasks.values()))}
    lines = [
        f"- {d}: {len(passed[d])}/{n} tasks verified ({len(passed[d]) / n:.1%})"
        for d, n in per.items()
    ]
    total = sum(len(v) for v in passed.values())
    date = subprocess.run(["date", "-u"], capture_output=True, text=True).stdout.strip()
    print(f"""
`.venv/bin/python benchmarks/parrot_loopback.py --num-tasks {options.num_tasks} --seed \
{options.seed}` ({date}, commit {commit}; {plans.requests} requests to the loopback server,
{wall:.1f} s)

{chr(10).join(lines)}
- all: {total}/{len(tasks)} tasks verified ({total / max(1, len(tasks)):.1%}); rejected by stage \
{dict(sorted(stages.items()))}
""")


if __name__ == "__main__":
    main()
