"""What the LLM endpoints of a run did and cost: requests, retries, faults, tokens, dollars.

One `Ledger` per endpoint (teacher, user simulator), all charging one shared `Budget`. Prices are
$ per 1M tokens from the teacher price table; a cached answer costs nothing (nothing was sent).
`Budget.check` is called before each request that would be sent, so a run stops at the first
request after the limit: the overshoot is at most the requests already in flight.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


class StopRun(Exception):
    """Stops the whole run cleanly: finished chunks stay written, the run can be resumed."""


class BudgetExhausted(StopRun):
    """`--max-cost-usd` is spent."""


class EndpointRejected(StopRun):
    """The endpoint refused the key, the model or the route (401 / 403 / 404): nothing later
    can succeed, so the run stops instead of rejecting every attempt."""


@dataclass
class Budget:
    max_cost_usd: float | None = None
    spent_usd: float = 0.0

    def check(self) -> None:
        if self.max_cost_usd is not None and self.spent_usd >= self.max_cost_usd:
            raise BudgetExhausted(
                f"--max-cost-usd {self.max_cost_usd:g} reached (spent ${self.spent_usd:.6f})"
            )


@dataclass
class Ledger:
    """Counters of one endpoint. `counts` keys: calls (logical requests), sent (HTTP requests,
    retries included), cached, fault:<kind> (every failed HTTP try), failed:<kind> (requests
    that failed after all retries), prompt_tokens, completion_tokens."""

    price_in: float
    price_out: float
    budget: Budget
    counts: Counter[str] = field(default_factory=Counter)
    cost_usd: float = 0.0

    def charge(self, prompt_tokens: int, completion_tokens: int) -> None:
        self.counts["prompt_tokens"] += prompt_tokens
        self.counts["completion_tokens"] += completion_tokens
        cost = (prompt_tokens * self.price_in + completion_tokens * self.price_out) / 1e6
        self.cost_usd += cost
        self.budget.spent_usd += cost

    def summary(self) -> dict[str, Any]:
        c = self.counts
        return {
            "requests": c["calls"],
            "sent": c["sent"],
            "cached": c["cached"],
            "retries": c["sent"] - c["calls"],
            "faults": {k[6:]: v for k, v in sorted(c.items()) if k.startswith("fault:")},
            "failed": {k[7:]: v for k, v in sorted(c.items()) if k.startswith("failed:")},
            "prompt_tokens": c["prompt_tokens"],
            "completion_tokens": c["completion_tokens"],
            "cost_usd": round(self.cost_usd, 9),
        }
