"""Provider set-ups: a task's own prices for some of its tools and models, where fast means dear.

A price schedule scales a whole provider (`toolscale.economics.prices`: standard, open-weights,
premium); within one, the fastest route is mostly also the cheapest, so a user in a hurry and one
watching the cost would pick the same route. A set-up replaces a few entries of the task's table
(`TaskSpec.prices`, applied over the schedule) with a real trade-off:

- `metered_sandbox`: a fast code sandbox billed per second of run time, and a calculator that is
  a slow, near-free remote service: one program beats several calculator calls on time, never on
  price;
- `self_hosted_frontier`: the frontier expert-1 self-hosted (cheap tokens, slow), the mid expert-2
  a hosted API (dear tokens, fast);
- `premium_search`: a premium search API (fast, dear per query) beside a cheap, slowish small
  expert-3.

An orchestration domain draws one (or none: the schedule's prices as they are) from the task's
item RNG after the task itself, so the problems drawn do not change. The table the task shows
is the one its reward prices.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from toolscale.core.contract import ToolPrice

SETUPS: dict[str, dict[str, ToolPrice]] = {
    "listed": {},
    "metered_sandbox": {
        "code_executor": ToolPrice(latency_ms=40.0, per_second=0.05),
        "calculator": ToolPrice(fee=0.000001, latency_ms=900.0),
    },
    "self_hosted_frontier": {
        "expert-1": ToolPrice(input_per_m=0.3, output_per_m=1.2, latency_ms=1500.0,
                              ms_per_token=30.0),
        "expert-2": ToolPrice(input_per_m=1.0, output_per_m=8.0, latency_ms=300.0,
                              ms_per_token=4.0),
    },
    "premium_search": {
        "search": ToolPrice(fee=0.02, latency_ms=150.0, ms_per_token=0.1),
        "expert-3": ToolPrice(input_per_m=0.02, output_per_m=0.1, latency_ms=900.0,
                              ms_per_token=8.0),
    },
}  # fmt: skip


def draw_setup(rng: random.Random, weights: Mapping[str, float]) -> dict[str, ToolPrice]:
    """One set-up's prices, drawn from `rng` with the given weights over SETUPS' names."""
    names: Sequence[str] = sorted(weights)
    name = rng.choices(names, weights=[weights[n] for n in names])[0]
    return dict(SETUPS[name])
