"""Which rows training reads: `--max_tasks` as a stratified draw across domains, and `--variants`,
the SFT traces per task (by default the one best trace: for a task with routes, its
`expected_route`'s, the best route by expected reward, which is what a policy can know; else its
gold route).

`stratified` gives every domain a share of the N tasks in proportion to its tasks (largest
remainders, ties by domain name), at least one each when N allows, and draws each domain's share by
a seeded hash of the task ids (`SEED`), so the same rows and N always give the same tasks, in file
order. `best_traces` keeps one trace per task. A task with routes keeps the verified trace of its
`expected_route` (the gold trace when that is the oracle route too, else the variant of that name;
none when it answered wrong on this draw: the ex-post `oracle_route`, which knows which expert
happened to be right, would teach that luck). Any other task keeps its verified `gold` trace (the
reference teacher's oracle route), else its best verified trace by the oracle's own order
(`toolscale.oracle.played.best`: preference kept, then reward_total, fewer calls, lower cost; then
the trace id), never a deliberate detour or format slip (`toolscale.stats.variants.kind`), which are
there as GRPO contrast and the worse side of preference pairs.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.stats.variants import kind

SEED = "toolscale:max_tasks"
NOT_IMITATED = ("detour", "format")  # the kinds `best` never picks


def _draw_key(task_id: str) -> str:
    return hashlib.sha256(f"{SEED}:{task_id}".encode()).hexdigest()


def quotas(sizes: Mapping[str, int], n: int) -> dict[str, int]:
    """How many of `n` tasks each domain gives, `sizes` its tasks.

    Example: sizes {bank: 80, knowledge: 10, math: 10}, n 10 -> bank 8, knowledge 1, math 1;
    n 2 -> bank 2 (fewer tasks than domains: proportional only, the largest first);
    n 3 -> bank 1, knowledge 1, math 1 (at least one each).
    """
    total = sum(sizes.values())
    if n >= total:
        return dict(sizes)
    exact = {d: n * s / total for d, s in sizes.items()}
    found = {d: int(exact[d]) for d in sizes}
    if n >= len(sizes):
        found = {d: max(1, found[d]) for d in sizes}
    while sum(found.values()) > n:  # the floor of one each overshot: take from the most over
        over = max((d for d in found if found[d] > 1), key=lambda d: (found[d] - exact[d], d))
        found[over] -= 1
    order = sorted(sizes, key=lambda d: (-(exact[d] - found[d]), d))
    while sum(found.values()) < n:
        for d in order:
            if sum(found.values()) < n and found[d] < sizes[d]:
                found[d] += 1
    return found


def stratified(domains: Sequence[str], ids: Sequence[str], n: int) -> list[int]:
    """The indices (ascending) of `n` rows drawn across domains (see the module docstring);
    `domains[i]` and `ids[i]` are row i's domain and task id."""
    by_domain: dict[str, list[int]] = defaultdict(list)
    for i, domain in enumerate(domains):
        by_domain[domain].append(i)
    share = quotas({d: len(rows) for d, rows in by_domain.items()}, n)
    chosen: list[int] = []
    for domain, rows in by_domain.items():
        chosen += sorted(rows, key=lambda i: (_draw_key(ids[i]), i))[: share[domain]]
    return sorted(chosen)


def _rank(trace: Mapping[str, Any]) -> tuple:
    return (
        not trace["preference_compliant"],
        -trace["reward_total"],
        trace["num_tool_calls"],
        trace["total_cost"],
        trace["id"],
    )


def label_variant(task: Mapping[str, Any]) -> str | None:
    """The variant of a task's SFT label: its `expected_route`'s trace ("gold" when that is the
    oracle route too), or None for a task without one (then the best trace is its gold)."""
    expected = task.get("expected_route") or ""
    if not expected:
        return None
    return "gold" if expected == task.get("oracle_route") else expected


def best_traces(
    traces: Sequence[Mapping[str, Any]],
    tables: Mapping[str, Mapping[str, bool]],
    labels: Mapping[str, str] | None = None,
) -> list[int]:
    """The index of each task's best trace (see the module docstring), ascending; `tables` maps a
    task id to its route table as route name -> detour, `labels` a task id to the variant of its
    label (`label_variant`). A task with a label gives that variant's verified trace, or none
    when there is none (its expected route answered wrong on this draw, or was not played: no
    `--detours`); a task whose verified traces are all detours gives none."""
    labels = labels or {}
    by_task: dict[str, list[int]] = defaultdict(list)
    for i, trace in enumerate(traces):
        label = labels.get(trace["task_id"])
        if label is not None:
            if trace["verified"] and trace["variant"] == label:
                by_task[trace["task_id"]].append(i)
        elif (
            trace["verified"]
            and kind(trace["variant"], tables.get(trace["task_id"], {})) not in NOT_IMITATED
        ):
            by_task[trace["task_id"]].append(i)
    chosen = []
    for rows in by_task.values():
        gold = [i for i in rows if traces[i]["variant"] == "gold"]
        chosen.append(min(gold or rows, key=lambda i: _rank(traces[i])))
    return sorted(chosen)


def variant_filter(spec: str) -> str | set[str]:
    """`--variants` parsed: "all", "best", or the set of variant names it lists."""
    value = spec.strip()
    if value in ("all", "best"):
        return value
    names = {v.strip() for v in value.split(",") if v.strip()}
    if not names:
        raise ConfigError('--variants takes "best", "all" or variant names such as "gold,expert-1"')
    return names
