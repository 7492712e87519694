"""toolscale's verdict against tau2's evaluator's reward on every task of tau2 domains: the gold
attempt and broken ones (toolscale.tau2.agreement), with a line per task as it goes and the
counts per variant at the end (also written as JSON).

    TOOLSCALE_TAU2_SRC=/path/to/tau2-bench python benchmarks/tau2_verdicts.py \
        [--domains tau2:retail,tau2:airline] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain
from toolscale.sandbox.pool import SandboxPool
from toolscale.tau2.agreement import compare_task, summary


async def run(names: list[str]) -> dict[str, object]:
    results: dict[str, object] = {}
    async with SandboxPool(2) as pool:
        for name in names:
            try:
                domain = get_domain(name)
            except ConfigError as exc:
                print(f"{name}: skipped ({exc})", flush=True)
                results[name] = {"skipped": str(exc)}
                continue
            found, start = [], time.perf_counter()
            for index in range(len(domain.templates)):
                part = await compare_task(pool, domain, index)  # type: ignore[arg-type]
                found += part
                marks = " ".join(f"{c.variant}:{int(c.toolscale)}/{c.tau2:g}" for c in part)
                print(f"{name} task {part[0].task}: {marks}", flush=True)
            results[name] = {**summary(found), "seconds": round(time.perf_counter() - start)}
            print(json.dumps(results[name], indent=1), flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default="tau2:retail,tau2:airline")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    results = asyncio.run(run(args.domains.split(",")))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
