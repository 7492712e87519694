"""The route mix of GRPO's rollouts: each rollout's route class, counted into per-step shares.

A rollout's class is the route its calls took, in the oracle's terms
(`toolscale.stats.routes.route_class`: "calculator", "search+calculator", "expert-3", a stateful
task's tool sequence, "no_tool"). `RouteMix` receives every batch the reward functions judge (as
the rollout dump does) and `MetricsRecorder` writes its shares into each metrics.jsonl row as
`toolscale/route/<class>`: the share of the rollouts generated since the previous logged step,
which sum to 1 on a step that generated rollouts (the main process's rollouts: all of them on
one device). `benchmarks/plot_route_shares.py` draws them beside the reward curve.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from toolscale.stats.routes import route_class

PREFIX = "toolscale/route/"


def rollout_route(labels: Mapping[str, Any]) -> str:
    """The route class of a judged rollout (its labels: the Trace columns, `tool_calls` with
    every call the judge recorded, refused ones included)."""
    return route_class((c["name"], c["arguments"]) for c in labels.get("tool_calls") or [])


def oracle_class(task: Any) -> str:
    """The route class of a task's gold (oracle) actions."""
    return route_class((a["name"], a["arguments"]) for a in task.gold_actions)


class RouteMix:
    """Counts the route classes of the rollouts it is given (a `trainer.reward_functions.Dump`);
    `take` returns their shares as metrics and starts counting again."""

    def __init__(self, main_process: bool = True) -> None:
        self.main_process = main_process
        self._counts: Counter[str] = Counter()

    def __call__(
        self, step: int, completions: list, environments: list, labels: list[dict[str, Any]]
    ) -> None:
        if self.main_process:
            self._counts.update(rollout_route(x) for x in labels)

    def take(self) -> dict[str, float]:
        """`{PREFIX + class: share}` of the rollouts counted since the last take, classes sorted;
        empty when there were none."""
        total = sum(self._counts.values())
        shares = {f"{PREFIX}{name}": n / total for name, n in sorted(self._counts.items())}
        self._counts.clear()
        return shares
