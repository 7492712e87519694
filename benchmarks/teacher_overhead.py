"""LLM-teacher pipeline overhead: completed episodes per second against an instant endpoint.

Starts the loopback fake OpenAI server (tests/teachers/fake_openai.py) in its own process, scripted
to play each math task's gold actions, then in the same run measures
  1. a bare async `openai` loop: the same conversations at the same concurrency, tool results
     replaced by a fixed string (no sandbox, no verification, no output);
  2. the pipeline: `toolscale.generate.generate --teacher openai` (sampling, sandbox execution of
     every call, verification with replay, labels, parquet shards, request cache),
and reports pipeline rate / bare rate (target >= 0.9) and the pipeline's CPU time per tool call
(this process, and this process plus its sandbox workers). It also runs the same tasks with the
reference teacher (same sandbox, verification and output, no HTTP) to show which part bounds the
rate.

    .venv/bin/python benchmarks/teacher_overhead.py --num-tasks 1000 --concurrency 64
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import openai

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.teachers.fake_openai import gold_turns
from toolscale.generate import GenerateConfig, generate
from toolscale.preferences import DEFAULT_SPREAD
from toolscale.registry import get_domain
from toolscale.tasks import build_task, with_preference


def cpu_s(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


async def bare_loop(base_url: str, prompts: list[tuple[str, str, list]], concurrency: int) -> float:
    """Episodes per second of a plain loop: request, fake tool results, repeat until no call."""
    client = openai.AsyncOpenAI(api_key="bench", base_url=base_url, max_retries=0)
    slots = asyncio.Semaphore(concurrency)

    async def episode(system: str, instruction: str, tools: list) -> None:
        async with slots:
            messages: list = [
                {"role": "system", "content": system},
                {"role": "user", "content": instruction},
            ]
            for _ in range(12):
                reply = await client.chat.completions.create(
                    model="fake", messages=messages, tools=tools, max_tokens=1024, temperature=0.0
                )
                message = reply.choices[0].message
                if not message.tool_calls:
                    return
                messages.append(message.model_dump(exclude_none=True))
                for call in message.tool_calls:
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": "ok"})

    started = time.perf_counter()
    await asyncio.gather(*(episode(*p) for p in prompts))
    elapsed = time.perf_counter() - started
    await client.close()
    return len(prompts) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-tasks", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
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
            bare = asyncio.run(bare_loop(base_url, prompts, args.concurrency))
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
            floor_started = time.perf_counter()
            generate(replace(config, teacher="reference", out=Path(tmp) / "reference"))
            floor = n / (time.perf_counter() - floor_started)
            cpu_self, cpu_children = cpu_s(resource.RUSAGE_SELF), cpu_s(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            summary = generate(config)
            elapsed = time.perf_counter() - started
            own = cpu_s(resource.RUSAGE_SELF) - cpu_self
            workers = cpu_s(resource.RUSAGE_CHILDREN) - cpu_children
        finally:
            server.terminate()
            server.wait()
    episodes = summary["counts"]["attempts"]
    calls = sum(len(t.gold_actions) for t in tasks)
    pipeline = episodes / elapsed
    print(f"tasks {n}, concurrency {args.concurrency}, workers {args.workers}")
    print(f"bare openai loop: {bare:.1f} episodes/s")
    print(
        f"pipeline: {pipeline:.1f} episodes/s ({summary['counts']['verified']} verified, "
        f"{summary['endpoints']['teacher']['requests']} requests, {calls} tool calls)"
    )
    print(f"pipeline / bare: {pipeline / bare:.2%} (target >= 90%)")
    print(
        f"the same pipeline with the reference teacher (no LLM, no HTTP): {floor:.1f} episodes/s "
        f"(pipeline / reference: {pipeline / floor:.2%})"
    )
    print(
        f"pipeline CPU per tool call: {own / calls * 1000:.2f} ms in the pipeline process, "
        f"{(own + workers) / calls * 1000:.2f} ms with its sandbox workers (server excluded)"
    )


if __name__ == "__main__":
    main()
