"""Hostile tool arguments fail the call, never the run: `generate` against a loopback endpoint that
sends hostile arguments to every tool, beside the same run against a well-behaved endpoint.

Both endpoints are the loopback OpenAI-compatible server of tests/teachers/fake_openai.py, each in
its own process. The well-behaved one plays each task's gold route (`gold_turns`); the hostile one
(`hostile_turns`) calls every offered tool with hostile values (empty, 100,000-character, negative,
2**63, NaN, odd-unicode strings ...), sends arithmetic bombs to the calculator and argument texts
Python's JSON parser refuses, then gives up. Every bundled domain, `--tasks-per-domain` tasks each,
`toolscale generate --teacher openai` as a user runs it (a child process, so its exit code is
real); the two runs alternate `--repeats` times and the medians are compared. It checks: the
hostile run exits 0, no call counted as crashed, every attempt rejected with a stage, and its wall
time at most 3x the well-behaved run's. It also times each calculator bomb of the catalogue.
With `--write`, the figures go into benchmarks/RESULTS.md as a new section.

    .venv/bin/python benchmarks/hostile_arguments.py --tasks-per-domain 8 --repeats 3 --write
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.teachers.fake_openai import gold_turns, hostile_turns  # noqa: E402
from toolscale.check.hostile import BOMBS  # noqa: E402
from toolscale.core.contract import ToolError  # noqa: E402
from toolscale.tools.arith import evaluate  # noqa: E402

DOMAINS = ("railway", "bank", "math", "knowledge")


def serve(plans: Path) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.teachers.fake_openai", "--plans", str(plans)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert server.stdout is not None
    return server, f"http://127.0.0.1:{server.stdout.readline().strip()}/v1"


def run(base_url: str, out: Path, tasks: int, workers: int) -> dict[str, object]:
    """One `toolscale generate` child process: its exit code, wall time and run.json counts."""
    command = [
        sys.executable, "-m", "toolscale", "generate",
        "--domains", ",".join(DOMAINS), "--num-tasks", str(tasks),
        "--teacher", "openai", "--base-url", base_url, "--model", "fake",
        "--api-key-env", "BENCH_KEY", "--workers", str(workers), "--out", str(out),
    ]  # fmt: skip
    env = {**os.environ, "BENCH_KEY": "bench", "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - started
    summary = json.loads((out / "run.json").read_text()) if (out / "run.json").exists() else {}
    counts = summary.get("counts", {})
    return {
        "code": done.returncode,
        "wall_s": wall,
        "attempts": counts.get("attempts", 0),
        "verified": counts.get("verified", 0),
        "tool_crashes": counts.get("tool_crashes", summary.get("tool_crashes", "?")),
        "rejected": dict(summary.get("rejected_by_stage", {})),
        "stderr": done.stderr[-2000:],
    }


def bomb_times(repeats: int = 20) -> dict[str, tuple[float, float]]:
    """(median, slowest) of `repeats` evaluations of each bomb, in ms (each a ToolError)."""
    times = {}
    for bomb in (*BOMBS, "2**64**64", "-" * 400 + "1", "(-8)**0.5", "1e999"):
        taken = []
        for _ in range(repeats):
            started = time.perf_counter()
            try:
                evaluate(bomb)
            except ToolError:
                pass
            else:
                raise SystemExit(f"bomb {bomb[:40]!r} was evaluated, not refused")
            taken.append((time.perf_counter() - started) * 1000)
        name = bomb if len(bomb) < 30 else f"{bomb[:12]}... ({len(bomb)} chars)"
        times[name] = (statistics.median(taken), max(taken))
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks-per-domain", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="append the figures to RESULTS.md")
    args = parser.parse_args()
    n = args.tasks_per_domain
    total = n * len(DOMAINS)
    results: dict[str, list[dict[str, object]]] = {"gold": [], "hostile": []}
    with tempfile.TemporaryDirectory() as tmp:
        servers = {}
        for kind, turns in (("gold", gold_turns), ("hostile", hostile_turns)):
            plans = {k: v for d in DOMAINS for k, v in turns(d, n).items()}
            path = Path(tmp) / f"{kind}.json"
            path.write_text(json.dumps(plans))
            servers[kind] = serve(path)
        try:
            for repeat in range(args.repeats):
                for kind, (_, url) in servers.items():
                    out = Path(tmp) / f"{kind}-{repeat}"
                    results[kind].append(run(url, out, total, args.workers))
                    r = results[kind][-1]
                    print(f"{kind} #{repeat}: exit {r['code']}, {r['wall_s']:.1f} s,"
                          f" {r['attempts']} attempts, {r['verified']} verified, crashes"
                          f" {r['tool_crashes']}, rejected {r['rejected']}")  # fmt: skip
                    if r["code"] != 0:
                        print(r["stderr"], file=sys.stderr)
        finally:
            for server, _ in servers.values():
                server.terminate()
                server.wait()
    gold = statistics.median(float(r["wall_s"]) for r in results["gold"])
    hostile = statistics.median(float(r["wall_s"]) for r in results["hostile"])
    last = results["hostile"][-1]
    rejected = Counter(last["rejected"])  # type: ignore[arg-type]
    checks = {
        "hostile runs exit 0": all(r["code"] == 0 for r in results["hostile"]),
        "no call counted as crashed": all(r["tool_crashes"] == 0 for r in results["hostile"]),
        "every hostile attempt rejected with a stage": all(
            r["attempts"] == total  # one attempt per task, each played to its end
            and sum(Counter(r["rejected"]).values()) == total  # type: ignore[arg-type]
            and r["verified"] == 0
            for r in results["hostile"]
        ),
        "hostile wall time <= 3x well-behaved": hostile <= 3 * gold,
    }
    bombs = bomb_times()
    checks["every calculator bomb a ToolError in < 50 ms (median)"] = all(
        median < 50 for median, _ in bombs.values()
    )
    lines = [
        f"## Hostile tool arguments (issue 26), {datetime.date.today().isoformat()}",
        "",
        f"`benchmarks/hostile_arguments.py --tasks-per-domain {n} --repeats {args.repeats}`: "
        f"`toolscale generate --teacher openai` over {', '.join(DOMAINS)} ({n} tasks each, "
        f"{args.workers} sandbox workers) against two loopback endpoints in the same session, "
        "the runs alternating: one plays the gold routes, the other calls every offered tool "
        "with hostile values (empty, 100,000-character, negative, 2**63, 10**400, NaN, "
        "infinities, odd unicode, lone surrogates, wrong-but-plausible ids), sends the "
        "arithmetic bombs to the calculator and argument texts Python's JSON parser refuses "
        "(a 5,000-digit integer, 100,000 nested arrays), then gives up.",
        "",
        "| endpoint | exit codes | median wall (s) | attempts | verified | crashed calls | "
        "rejected by stage |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind, label in (("gold", "well-behaved"), ("hostile", "hostile")):
        rs = results[kind]
        median = statistics.median(float(r["wall_s"]) for r in rs)
        stages = ", ".join(f"{k} {v}" for k, v in sorted(Counter(rs[-1]["rejected"]).items()))  # type: ignore[arg-type]
        lines.append(
            f"| {label} | {', '.join(str(r['code']) for r in rs)} | {median:.1f} | "
            f"{rs[-1]['attempts']} | {rs[-1]['verified']} | {rs[-1]['tool_crashes']} | "
            f"{stages or '-'} |"
        )
    lines += [
        "",
        f"Hostile / well-behaved wall time: {hostile / gold:.2f}x (bound: 3x). "
        + "; ".join(f"{k}: {'yes' if v else 'NO'}" for k, v in checks.items())
        + f". Rejections of the last hostile run: {dict(rejected)}.",
        "",
        "Calculator bombs, 20 evaluations each, every one a ToolError (bound 50 ms), median / "
        "slowest (a slowest far above the median is the shared machine, not the bomb): "
        + ", ".join(f"`{k}` {m:.3f} / {s:.3f} ms" for k, (m, s) in bombs.items())
        + ".",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        with open(ROOT / "benchmarks" / "RESULTS.md", "a") as handle:
            handle.write("\n" + text)
    if not all(checks.values()):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
