"""`toolscale check-rewards`: play the gaming policies on a run's tasks and tabulate who wins.

For the first tasks of each domain of an output folder (rebuilt with the run's own schedules,
dropout, profiles and reward config from run.json), the reference teacher's gold route and
detours and every gaming policy (`toolscale.check.gaming`) are played through the real sandbox,
verifier and labels. Per domain and profile the table reports how often the gold route is the
best attempt of its group, how often the cheapest correct attempt wins under `cheap`, whether any
gaming policy is ever the best attempt (by `reward_total` or by `reward_group`), and each
policy's mean `reward_total` against the gold route's; per stateful domain, how many tasks each
policy that does none of the work (`toolscale.gaming.UNWORKED`: a parrot, a refusal without
look-up, routing by price alone, a guess) got verified, which must stay at or below 1%. The
result is OUT/reward_check.json, which the data card shows. Nothing is added to the dataset.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolscale.check.gaming import UNWORKED, GamingTeacher
from toolscale.config.generate import GenerateConfig
from toolscale.core.errors import ConfigError
from toolscale.economics.prices import BUILTIN, DEFAULT_SCHEDULES, Economics
from toolscale.judge.rewards import RewardConfig
from toolscale.pipeline.task import domain_worlds, rubric_of, run_task
from toolscale.publish.validate import run_settings
from toolscale.sandbox.pool import SandboxPool
from toolscale.write.output import Output, write_json

EPS = 1e-9
MAX_UNWORKED_SHARE = 0.01  # of a stateful domain's tasks an UNWORKED policy may pass


def _best(rows: list[dict[str, Any]], key: str) -> float:
    return max(r[key] for r in rows)


def group_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What one group (every attempt at one task) says: is gold best, does any gaming attempt
    tie or beat the best honest attempt, and is the cheapest correct attempt the winner."""
    honest = [r for r in rows if not r["variant"].startswith("gaming:")]
    gaming = [r for r in rows if r["variant"].startswith("gaming:")]
    gold = next(r for r in rows if r["variant"] == "gold")
    correct = [r for r in rows if r["verified"]]
    cheapest = min(correct, key=lambda r: r["total_cost"]) if correct else None
    return {
        "gold_best": gold["reward_total"] >= _best(rows, "reward_total") - EPS,
        "gaming_best": bool(gaming)
        and _best(gaming, "reward_total") >= _best(honest, "reward_total") - EPS,
        "gaming_best_group": bool(gaming)
        and _best(gaming, "reward_group") > _best(honest, "reward_group") + EPS,
        "cheapest_wins": cheapest is not None
        and cheapest["total_cost"] <= min(r["total_cost"] for r in correct)
        and cheapest["reward_total"] >= _best(rows, "reward_total") - EPS,
    }


def tabulate(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per (domain, profile) with the shares and means described above."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[row["task_id"]].append(row)
    cells: dict[tuple[str, str], list[list[dict[str, Any]]]] = defaultdict(list)
    for members in groups.values():
        cells[(members[0]["domain"], members[0]["preference_profile"])].append(members)
    table = []
    for (domain, profile), cell in sorted(cells.items()):
        summaries = [group_summary(m) for m in cell]
        means: dict[str, list[float]] = defaultdict(list)
        for m in cell:
            for r in m:
                means[r["variant"]].append(r["reward_total"])
        n = len(cell)
        table.append(
            {
                "domain": domain,
                "profile": profile,
                "groups": n,
                "gold_best": sum(s["gold_best"] for s in summaries) / n,
                # Only a `cheap` user asked for the cheapest route; elsewhere it is not the goal.
                "cheapest_wins": sum(s["cheapest_wins"] for s in summaries) / n
                if profile == "cheap"
                else None,
                "gaming_best": sum(s["gaming_best"] for s in summaries),
                "gaming_best_group": sum(s["gaming_best_group"] for s in summaries),
                "mean_reward_total": {
                    v: round(sum(x) / len(x), 4)
                    for v, x in sorted(means.items())
                    if v == "gold" or v.startswith("gaming:")
                },
            }
        )
    return table


def unworked_verified(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per stateful domain (one whose tasks have a user scenario) and UNWORKED policy: tasks
    played, tasks it was verified on, and that share."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        policy = row["variant"].removeprefix("gaming:")
        if row["variant"].startswith("gaming:") and policy in UNWORKED and row["conversational"]:
            entry = counts[(row["domain"], policy)]
            entry[0] += 1
            entry[1] += bool(row["verified"])
    return [
        {"domain": d, "policy": p, "tasks": n, "verified": v, "share": round(v / n, 4)}
        for (d, p), (n, v) in sorted(counts.items())
    ]


def passed(table: list[dict[str, Any]], unworked: Sequence[dict[str, Any]] = ()) -> bool:
    """No gaming policy ever best, and each one's mean below the gold route's, in every cell;
    no UNWORKED policy verified on more than 1% of a stateful domain's tasks."""
    for cell in table:
        gold = cell["mean_reward_total"]["gold"]
        gaming = [v for k, v in cell["mean_reward_total"].items() if k.startswith("gaming:")]
        if cell["gaming_best"] or cell["gaming_best_group"] or any(v >= gold for v in gaming):
            return False
    return all(entry["share"] <= MAX_UNWORKED_SHARE for entry in unworked)


async def play(config: GenerateConfig, economics: Economics, per_domain: int) -> list[dict]:
    """Every attempt (gold, detours, gaming) at the first `per_domain` tasks of each domain."""
    teacher = GamingTeacher()
    async with SandboxPool(config.workers, config.call_timeout_s) as pool:
        stores = {d: domain_worlds(d, config.seed)[0] for d in config.domains}
        rubric = rubric_of(config)
        results = await asyncio.gather(
            *(
                run_task(config, domain, index, teacher, pool, economics, stores[domain], rubric)
                for domain in config.domains
                for index in range(per_domain)
            )
        )
    errors = [e for r in results for e in r.stats.errors]
    if errors:  # a domain bug, not a reward finding: the table would silently lack its rows
        raise ConfigError(
            f"{len(errors)} domain errors, the first: {errors[0].line()}; fix the domain "
            f"(toolscale check-domain {errors[0].domain}) before checking rewards"
        )
    conversational = {
        t["id"] for r in results for t in r.tasks if json.loads(t["user_scenario"]) is not None
    }
    return [
        {**row, "conversational": row["task_id"] in conversational}
        for r in results
        for row in (*r.traces, *r.rejected)
    ]


def check_rewards(root: Path | str, per_domain: int = 100, workers: int = 2) -> dict[str, Any]:
    """Play the gaming policies on the first `per_domain` tasks of each domain of output `root`
    and write `root/reward_check.json`; returns its content."""
    root = Path(root)
    output = Output(root)
    if not (root / "run.json").is_file():
        raise ConfigError(f"{root} holds no run.json; give the --out folder of a generate run")
    if per_domain < 1:
        raise ConfigError(f"--tasks must be at least 1 (got {per_domain})")
    saved = json.loads((root / "run.json").read_text())["config"]
    settings = run_settings(output)
    count = min(per_domain, -(-saved["num_tasks"] // len(saved["domains"])))
    config = GenerateConfig(
        domains=saved["domains"],
        num_tasks=count * len(saved["domains"]),
        out=root,
        seed=saved["seed"],
        workers=workers,
        profiles=settings.profiles,
        reward=settings.reward,
        detours=True,  # the gaming teacher plays every detour: the route tables hold them
    )
    rows = asyncio.run(play(config, settings.economics, count))
    table = tabulate(rows)
    unworked = unworked_verified(rows)
    report = {
        "tasks_per_domain": count,
        "passed": passed(table, unworked),
        "table": table,
        "unworked": unworked,
    }
    write_json(root / "reward_check.json", report)
    return report


def default_check(domains: list[str], per_domain: int, seed: int = 0) -> list[dict]:
    """The gaming rows for `domains` under default settings (what the tests assert on)."""
    config = GenerateConfig(
        domains=domains,
        num_tasks=per_domain * len(domains),
        out=Path("."),
        seed=seed,
        reward=RewardConfig(),
        detours=True,
    )
    economics = Economics(tuple(BUILTIN[n] for n in DEFAULT_SCHEDULES))
    return asyncio.run(play(config, economics, per_domain))
