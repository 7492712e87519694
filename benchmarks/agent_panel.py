"""The agent panel's table: is a capable agent judged right whatever its wording (issue 33)?

Scripted agents play each task's gold calls but talk as different capable agents do
(`tests.panel.voices.STYLES`), and scripted agents act wrongly (`tests.panel.agent.NEGATIVES`);
each is played by the real `OpenAITeacher` against the scripted user and against the LLM user
simulator (each side an in-process scripted endpoint, `tests.panel.endpoints`) and judged by the
real `Rubric`, over `--tasks` tasks of every bundled domain (every template in turn). Printed
per user: each style's verified share *of the tasks the plain style verified* (target >= 98%),
per domain and over all, and each negative agent's rejected share of the tasks it applies to
(target >= 98%); then the commonest reasons for a rejection of a correct attempt and for a
verdict on a wrong one, with one task each.

    PYTHONPATH=$PWD .venv/bin/python -P benchmarks/agent_panel.py --tasks 40 --also bb11636

`--also COMMIT` plays the same panel on another commit's toolscale/ and domains/ (extracted with
`git archive`), `--tree PATH` on a checkout; each tree runs in its own process with that tree
first on the path (the panel itself always comes from this checkout), and reports which tree
it imported. `--json FILE` keeps every verdict.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def child(tasks: int, domains: list[str], users: list[str]) -> dict[str, Any]:
    """Play the panel in this process (the tree on the path) and return every verdict."""
    import toolscale
    from tests.panel.agent import NEGATIVES
    from tests.panel.run import panel_tasks, play
    from tests.panel.voices import STYLES
    from toolscale.sandbox.pool import SandboxPool

    async def main() -> dict[str, Any]:
        items = [item for domain in domains for item in panel_tasks(domain, tasks)]
        verdicts: dict[str, Any] = {}
        async with SandboxPool(workers=os.cpu_count() or 2) as pool:
            for user in users:
                for agent in (*STYLES, *NEGATIVES):
                    results = await play(items, agent, user, pool)
                    verdicts[f"{user}/{agent}"] = [
                        {
                            "domain": r.domain,
                            "template": r.template,
                            "task": r.transcript.messages[1].content,
                            "verified": r.verified,
                            "reason": (r.reasons or [""])[0][:160],
                        }
                        for r in results
                    ]
        return verdicts

    tree = str(Path(toolscale.__file__).resolve().parent.parent)
    return {"tree": tree, "verdicts": asyncio.run(main())}


def extract(commit: str, into: Path) -> Path:
    archive = into / f"{commit}.tar"
    subprocess.run(
        ["git", "-C", str(ROOT), "archive", "-o", str(archive), commit, "toolscale", "domains"],
        check=True,
    )
    with tarfile.open(archive) as tar:
        tar.extractall(into / commit, filter="data")
    return into / commit


def run_tree(tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{ROOT}", "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, "-P", __file__, "--child", "--tasks", str(args.tasks)]
    command += ["--domains", ",".join(args.domains), "--users", ",".join(args.users)]
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["tree"]).resolve() != tree.resolve():
        sys.exit(f"the run meant for {tree} imported toolscale from {result['tree']}")
    return result


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def tables(verdicts: dict[str, Any], domains: list[str], users: list[str]) -> list[str]:
    """Markdown tables of one tree's verdicts (module docstring)."""
    if str(ROOT) not in sys.path:  # run with -P: the panel's names come from this checkout
        sys.path.insert(0, str(ROOT))
    from tests.panel.agent import NEGATIVES
    from tests.panel.voices import STYLES

    lines = []
    for user in users:
        plain = {v["task"] for v in verdicts[f"{user}/plain"] if v["verified"]}
        lines += [f"\n**{user} user**: verified share of the tasks plain verified\n"]
        lines += ["| style | " + " | ".join(domains) + " | all |"]
        lines += ["|---" * (len(domains) + 2) + "|"]
        for style in STYLES:
            rows = verdicts[f"{user}/{style}"]
            cells = []
            for domain in [*domains, None]:
                base = [v for v in rows if v["task"] in plain and domain in (None, v["domain"])]
                if style == "plain":
                    every = [v for v in rows if domain in (None, v["domain"])]
                    cells.append(f"{len(base)}/{len(every)}")
                else:
                    cells.append(_share(sum(v["verified"] for v in base), len(base)))
            lines.append(f"| {style} | " + " | ".join(cells) + " |")
        lines += [f"\n**{user} user**: negative agents, rejected share (tasks they apply to)\n"]
        lines += ["| negative | " + " | ".join(domains) + " | all |"]
        lines += ["|---" * (len(domains) + 2) + "|"]
        for negative in NEGATIVES:
            rows = verdicts[f"{user}/{negative}"]
            cells = []
            for domain in [*domains, None]:
                mine = [v for v in rows if domain in (None, v["domain"])]
                rejected = sum(not v["verified"] for v in mine)
                cells.append(f"{_share(rejected, len(mine))} ({len(mine)})" if mine else "-")
            lines.append(f"| {negative} | " + " | ".join(cells) + " |")
    return lines


def reasons(verdicts: dict[str, Any], users: list[str], top: int) -> list[str]:
    """The commonest rejections of correct attempts and verdicts on wrong ones, one task each."""
    from tests.panel.agent import NEGATIVES

    lines = []
    for user in users:
        plain = {v["task"] for v in verdicts[f"{user}/plain"] if v["verified"]}
        found: Counter[tuple[str, str]] = Counter()
        example: dict[tuple[str, str], str] = {}
        for key, rows in verdicts.items():
            agent = key.split("/")[1]
            if not key.startswith(f"{user}/"):
                continue
            for v in rows:
                wrong = agent in NEGATIVES and v["verified"]
                if wrong or (agent not in NEGATIVES and not v["verified"] and v["task"] in plain):
                    reason = re.sub(r"'[^']*'", "'…'", v["reason"]) if not wrong else "verified"
                    found[(agent, reason)] += 1
                    example.setdefault((agent, reason), f"{v['domain']} {v['template']}")
        lines.append(f"\n{user} user, commonest wrong verdicts:")
        for (agent, reason), count in found.most_common(top):
            lines.append(f"  {agent}: {count} x {reason} (e.g. {example[(agent, reason)]})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=40, help="Tasks per domain.")
    parser.add_argument("--domains", default="", help="Comma-separated; default every domain.")
    parser.add_argument("--users", default="scripted,llm")
    parser.add_argument("--also", action="append", default=[], metavar="COMMIT")
    parser.add_argument("--tree", action="append", default=[], type=Path, metavar="PATH")
    parser.add_argument("--top", type=int, default=12, help="Reasons listed per user.")
    parser.add_argument("--json", type=Path, help="Write every verdict here.")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.domains:
        from toolscale.core.registry import names

        args.domains = ",".join(sorted(names()))
    args.domains, args.users = args.domains.split(","), args.users.split(",")
    if args.child:
        print(json.dumps(child(args.tasks, args.domains, args.users)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        trees = [(c, extract(c, Path(tmp))) for c in args.also]
        trees += [(str(t), t) for t in args.tree] + [("this checkout", ROOT)]
        results = {label: run_tree(tree, args) for label, tree in trees}
    for label, result in results.items():
        print(f"\n## {label} ({result['tree']}), {args.tasks} tasks per domain")
        print("\n".join(tables(result["verdicts"], args.domains, args.users)))
        print("\n".join(reasons(result["verdicts"], args.users, args.top)))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
