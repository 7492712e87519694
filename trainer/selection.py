"""Which rows training reads: `--max_tasks` as a stratified draw across domains, and `--variants`,
the SFT traces per task (by default the one best trace: for a task with routes, its
`expected_route`'s, the best route by expected reward, which is what a policy can know; else its
gold route). The `--variants` choice is `toolscale.stats.sft_choice`, shared with `toolscale export
--format sft` so that both take the same traces; its names are importable from here too.

`stratified` gives every domain a share of the N tasks in proportion to its tasks (largest
remainders, ties by domain name), at least one each when N allows, and draws each domain's share by
a seeded hash of the task ids (`SEED`), so the same rows and N always give the same tasks, in file
order.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping, Sequence

from toolscale.stats.sft_choice import (
    CHOICE_COLUMNS,
    NOT_IMITATED,
    best_traces,
    chosen,
    described,
    label_variant,
    variant_filter,
)

__all__ = [
    "CHOICE_COLUMNS",
    "NOT_IMITATED",
    "best_traces",
    "chosen",
    "described",
    "label_variant",
    "quotas",
    "stratified",
    "variant_filter",
]

SEED = "toolscale:max_tasks"


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
    picked: list[int] = []
    for domain, rows in by_domain.items():
        picked += sorted(rows, key=lambda i: (_draw_key(ids[i]), i))[: share[domain]]
    return sorted(picked)
