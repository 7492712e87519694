"""What `toolscale synthesize` costs per accepted task, against the scripted loopback server.

The server (tests/teachers/fake_openai.py, in a thread of this process) answers the intents
request, one task per intent and one evolve request per executing task, and plays the solver's
turns; the task answers mix valid tasks with each defect the filters catch (tests/synthesis/
scripted.py), so the funnel is a realistic one and every stage does its real work: parsing,
schema checks, gold execution in the sandbox, the do-nothing check, MinHash de-duplication, K
solver attempts judged by the verifier. A cold run, then `--resume` (every answer from the
request cache). Prints the run.json figures and a Markdown section for RESULTS.md.

    .venv/bin/python benchmarks/synthesize_loopback.py --intents 40 --attempts 4
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's tests/

from tests.synthesis.scripted import SynthesisPlans, mix, valid
from tests.teachers.fake_openai import fake_openai
from toolscale.cli.main import app
from toolscale.stats.yields import STAGES
from toolscale.write.output import Output

KINDS = ("read", "write", "malformed", "write", "raises", "unsolved", "bad_args", "trivial")


def run(server, out: Path, args: list[str]) -> tuple[dict, float]:
    started = time.perf_counter()
    result = CliRunner().invoke(
        app,
        ["synthesize", "--base-url", server.base_url, "--model", "fake", "--out", str(out), *args],
        env={"OPENAI_API_KEY": "sk-bench"},
    )
    wall = time.perf_counter() - started
    if result.exit_code != 0:
        raise SystemExit(result.output)
    return json.loads((out / "run.json").read_text()), wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--domain", default="railway")
    parser.add_argument("--intents", type=int, default=40)
    parser.add_argument("--attempts", type=int, default=4)
    options = parser.parse_args()
    cases = mix(options.domain, options.intents, KINDS)
    first_read = cases.index("read")
    twin = dict(valid(options.domain, 0, first_read), opening="Hello again.")
    plans = SynthesisPlans(options.domain, 0, cases, evolved={first_read: json.dumps(twin)})
    args = ["--domains", options.domain, "--num-tasks", str(options.intents)]
    args += ["--solver-attempts", str(options.attempts), "--evolve", "1"]
    with tempfile.TemporaryDirectory() as tmp, fake_openai(plans) as server:
        out = Path(tmp) / "out"
        cold, cold_wall = run(server, out, args)
        sent = plans.requests
        before = [list(Output(out).read_rows(c)) for c in ("tasks", "rejected_tasks")]
        warm, warm_wall = run(server, out, [*args, "--resume"])
        resent = plans.requests - sent
        same = before == [list(Output(out).read_rows(c)) for c in ("tasks", "rejected_tasks")]
    synthesis = cold["synthesis"]
    per = synthesis["cost"]["per_accepted_task"]
    funnel = " -> ".join(f"{k} {synthesis['funnel'][k]}" for k in STAGES)
    endpoints = cold["endpoints"]
    date = subprocess.run(["date", "-u"], capture_output=True, text=True).stdout.strip()
    print(f"""
## Task synthesis against the loopback server (issue 13)

`.venv/bin/python benchmarks/synthesize_loopback.py --domain {options.domain} --intents \
{options.intents} --attempts {options.attempts}` ({date}, 2 cores shared with other sessions;
scripted proposer and solver in a thread of the same process, 2 sandbox workers, `--evolve 1`).

- funnel: {funnel}; rejected by stage {synthesis["yields"]["rejected_by_stage"]}
- requests sent: {synthesis["cost"]["requests_sent"]} (proposer {
        endpoints["proposer"]["requests"]
    }, \
solver {endpoints["solver"]["requests"]}); server saw {sent}
- tokens: {synthesis["cost"]["tokens"]} (the fake counts ~4 characters per prompt token)
- wall: {synthesis["cost"]["wall_s"]} s inside the run, {cold_wall:.1f} s for the command
- per accepted task: {per["requests"]} requests, {per["tokens"]} tokens, {per["wall_s"]} s
- `--resume`: {resent} requests sent, {
        warm["endpoints"]["proposer"]["cached"] + warm["endpoints"]["solver"]["cached"]
    } answers from the cache, {warm_wall:.1f} s, rows {"identical" if same else "DIFFERENT"}
""")


if __name__ == "__main__":
    main()
