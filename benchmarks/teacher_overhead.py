"""LLM-teacher pipeline overhead: completed episodes per second against an instant endpoint.

Starts the loopback fake OpenAI server (tests/teachers/fake_openai.py) in its own process, scripted
to play each math task's gold actions, then, `--repeats` times in turn in the same run, measures
  1. a bare async `openai` loop: the same conversations at the same concurrency, tool results
     replaced by a fixed string (no sandbox, no verification, no output), once as a user would
     write it (`chat.completions.create`, default transport) and once on the pipeline's own HTTP
     path (aiohttp transport, low-level `post`, JSON), which isolates what the pipeline adds;
  2. the pipeline: `toolscale.pipeline.generate.generate --teacher openai` (sampling, sandbox
  execution of
     every call, verification with replay, labels, parquet shards, request cache, data card),
and reports the medians: pipeline rate / bare rate (issue 3's target: >= 0.9 of the plain loop;
issue 16's: >= 0.7 of the loop on the pipeline's own HTTP path), end to end (the pipeline's
worker start-up and its data card included) and in the steady state (from the first written chunk
to the last, against the bare loop from its 64th finished episode to its last), and the
pipeline's CPU time per tool call (this process, and this process plus its sandbox workers). It
also runs the same tasks once with the reference teacher (same sandbox, verification and output,
no HTTP) to show which part bounds the rate.

    .venv/bin/python benchmarks/teacher_overhead.py --num-tasks 5000 --repeats 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import httpx2
import openai

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.teachers.fake_openai import gold_turns
from toolscale.config.generate import GenerateConfig
from toolscale.core.registry import get_domain
from toolscale.economics.preferences import DEFAULT_SPREAD
from toolscale.pipeline.generate import generate
from toolscale.sample.tasks import build_task, with_preference
from toolscale.stats.run_stats import RunStats


def cpu_s(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def machine_busy_s() -> float:
    """CPU seconds the whole machine has been busy (all cores, /proc/stat): unlike getrusage it
    sees the sandboxed interpreters (and the fake server, and anything else running); 0 where
    there is no /proc/stat."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


async def bare_loop(
    base_url: str, prompts: list[tuple[str, str, list]], concurrency: int, raw: bool = False
) -> tuple[float, float]:
    """(end-to-end, steady) episodes per second of a plain loop: request, fake tool results,
    repeat until the answer has no call. `raw`: the pipeline's own HTTP path (toolscale.llm.client):
    the client's aiohttp transport, and the body posted with the low-level `post` and the answer
    parsed as JSON, instead of the default httpx transport and `chat.completions.create` (which
    transforms every field of the request and builds pydantic models of the answer)."""
    http = {"http_client": openai.DefaultAioHttpClient()} if raw else {}
    client = openai.AsyncOpenAI(api_key="bench", base_url=base_url, max_retries=0, **http)

    async def ask(messages: list, tools: list) -> dict:
        body = dict(model="fake", messages=messages, tools=tools, max_tokens=1024, temperature=0.0)
        if raw:
            answer = await client.post("/chat/completions", cast_to=httpx2.Response, body=body)
            return json.loads(answer.text)["choices"][0]["message"]
        reply = await client.chat.completions.create(**body)
        return reply.choices[0].message.model_dump(exclude_none=True)

    slots = asyncio.Semaphore(concurrency)
    finished: list[float] = []

    async def episode(system: str, instruction: str, tools: list) -> None:
        async with slots:
            messages: list = [
                {"role": "system", "content": system},
                {"role": "user", "content": instruction},
            ]
            for _ in range(12):
                message = await ask(messages, tools)
                if not message.get("tool_calls"):
                    break
                messages.append(message)
                for call in message["tool_calls"]:
                    messages.append({"role": "tool", "tool_call_id": call["id"], "content": "ok"})
        finished.append(time.perf_counter())

    started = time.perf_counter()
    await asyncio.gather(*(episode(*p) for p in prompts))
    elapsed = time.perf_counter() - started
    await client.close()
    first = min(concurrency, len(finished)) - 1
    steady = (len(finished) - 1 - first) / (finished[-1] - finished[first])
    return len(prompts) / elapsed, steady


def pipeline(config: GenerateConfig) -> dict[str, float]:
    """End-to-end and steady episodes per second of one `generate` run, and its CPU seconds."""
    marks: list[tuple[float, int]] = []
    cpu_self, cpu_children = cpu_s(resource.RUSAGE_SELF), cpu_s(resource.RUSAGE_CHILDREN)
    busy = machine_busy_s()
    started = time.perf_counter()

    def progress(stats: RunStats, endpoints: dict | None = None) -> None:
        marks.append((time.perf_counter(), stats.funnel().attempts))

    summary = generate(config, on_progress=progress)
    elapsed = time.perf_counter() - started
    (t0, c0), (t1, c1) = marks[0], marks[-1]
    return {
        "rate": summary["counts"]["attempts"] / elapsed,
        "steady": (c1 - c0) / (t1 - t0),
        "verified": summary["counts"]["verified"],
        "requests": summary["endpoints"]["teacher"]["requests"],
        "cpu_own": cpu_s(resource.RUSAGE_SELF) - cpu_self,
        "cpu_workers": cpu_s(resource.RUSAGE_CHILDREN) - cpu_children,
        "cpu_machine": machine_busy_s() - busy,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    n = args.num_tasks
    with tempfile.TemporaryDirectory() as tmp:
        plans = Path(tmp) / "plans.json"
        plans.write_text(json.dumps(gold_turns("math", n)))
        server = subprocess.Popen(
            [sys.executable, "-m", "tests.teachers.fake_openai", "--plans", str(plans)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parent.parent,
        )
        try:
            assert server.stdout is not None
            base_url = f"http://127.0.0.1:{server.stdout.readline().strip()}/v1"
            domain = get_domain("math")
            tasks = [
                with_preference(build_task(domain, 0, i, 15.0), DEFAULT_SPREAD).task
                for i in range(n)
            ]
            prompts = [(t.system_prompt, t.instruction, t.tools) for t in tasks]
            os.environ["BENCH_KEY"] = "bench"
            config = GenerateConfig(
                domains=["math"],
                num_tasks=n,
                out=Path(tmp) / "out",
                teacher="openai",
                base_url=base_url,
                model="fake",
                api_key_env="BENCH_KEY",
                concurrency=args.concurrency,
                chunk_size=args.concurrency,
                workers=args.workers,
            )
            bare, raw, runs = [], [], []
            for repeat in range(args.repeats):
                bare.append(asyncio.run(bare_loop(base_url, prompts, args.concurrency)))
                raw.append(asyncio.run(bare_loop(base_url, prompts, args.concurrency, raw=True)))
                runs.append(pipeline(replace(config, out=Path(tmp) / f"out-{repeat}")))
            floor_started = time.perf_counter()
            generate(replace(config, teacher="reference", out=Path(tmp) / "reference"))
            floor = n / (time.perf_counter() - floor_started)
        finally:
            server.terminate()
            server.wait()
    calls = sum(len(t.gold_actions) for t in tasks)
    median = statistics.median
    bare_rate, bare_steady = median(b[0] for b in bare), median(b[1] for b in bare)
    rate, steady = median(r["rate"] for r in runs), median(r["steady"] for r in runs)
    fixed = median(n / r["rate"] - n / r["steady"] for r in runs)
    print(f"tasks {n}, concurrency {args.concurrency}, workers {args.workers}")
    print(f"medians of {args.repeats} repeats, bare loop and pipeline in turn:")
    print(f"bare openai loop: {bare_rate:.1f} episodes/s end to end, {bare_steady:.1f} steady")
    print(
        f"pipeline: {rate:.1f} episodes/s end to end, {steady:.1f} steady "
        f"({runs[0]['verified']} verified, {runs[0]['requests']} requests, {calls} tool calls)"
    )
    ratios = ", ".join(f"{r['rate'] / b[0]:.1%}" for r, b in zip(runs, bare, strict=True))
    print(f"pipeline / bare, end to end: {rate / bare_rate:.1%} (repeats: {ratios})")
    print(f"pipeline / bare, steady state: {steady / bare_steady:.1%} (target for both: >= 90%)")
    # Issue 16's target (>= 70%) is against the next loop: the same HTTP path as the pipeline.
    raw_rate, raw_steady = median(b[0] for b in raw), median(b[1] for b in raw)
    print(
        f"bare loop on the pipeline's own HTTP path (aiohttp, post, JSON): {raw_rate:.1f} "
        f"episodes/s end to end, {raw_steady:.1f} steady; pipeline / it: {rate / raw_rate:.1%} "
        f"end to end, {steady / raw_steady:.1%} steady (target for both: >= 70%)"
    )
    print(f"pipeline start-up and finish (workers, data card), beyond steady: {fixed:.1f} s")
    print(
        f"the same pipeline with the reference teacher (no LLM, no HTTP): {floor:.1f} episodes/s "
        "end to end"
    )
    own = median(r["cpu_own"] for r in runs)
    workers = median(r["cpu_workers"] for r in runs)
    print(
        f"pipeline CPU per tool call: {own / calls * 1000:.2f} ms in the pipeline process, "
        f"{(own + workers) / calls * 1000:.2f} ms with its sandbox workers (server excluded)"
    )
    machine = median(r["cpu_machine"] for r in runs)
    print(
        f"the whole machine's busy CPU during the pipeline run: {machine / calls * 1000:.2f} ms "
        "per tool call (the sandboxed interpreters, which the figure above leaves out, the fake "
        "server and anything else running included)"
    )


if __name__ == "__main__":
    main()
