"""The evaluation table: one row per policy over the same tasks, and what route each one chose.

Every row is computed from one judged attempt per task (`Scored`: verdict, reward_total, cost,
latency, preference compliance, the route class it took and the oracle's), whoever made it: a
checkpoint's rollout, an endpoint's attempt, or a route played for reference
(`trainer.reference_routes`). The columns:

- success: the share of tasks whose attempt the verifier passed;
- mean reward_total, under the dataset's reward (one reward for every row);
- share of the oracle: the row's mean reward_total over the oracle row's (None without one, or
  when the oracle's mean is 0);
- $ per solved task: everything the row spent (every attempt's total_cost, failed ones included)
  over the tasks it solved (None when it solved none);
- mean latency: the mean total_latency_ms (tools and the orchestrator's own tokens, priced by the
  task's latency model);
- preference compliance: the share of attempts that keep their profile's hard constraints;
- route = oracle: the share of tasks whose attempt took the oracle route's class
  (`toolscale.stats.routes.route_class`: "calculator", "search+calculator", "expert-3", ...;
  an attempt that called a tool its task does not offer is in class `unknown_tool`);
- route shares per preference profile (`Row.profile_routes`: the counts, in evaluation.json;
  the shares in a table under the markdown one, for every row that is no fixed route): of the
  tasks of each profile, the share whose attempt took each route class. A policy that
  collapses onto one route whatever the user asked shows the same shares under every profile.

The confusion of a row counts its attempts by (chosen class, oracle class). Example: attempts
(calculator, oracle calculator, verified, $0.01), (expert-1, oracle calculator, verified, $0.05),
(no_tool, oracle search, wrong, $0.002) give success 2/3, $ per solved (0.01 + 0.05 + 0.002) / 2
= $0.031, route = oracle 1/3, confusion {calculator: {calculator: 1}, expert-1: {calculator: 1},
no_tool: {search: 1}}; if the first two tasks are of profile "cheap" and the third of "fast",
profile routes {cheap: {calculator: 1, expert-1: 1}, fast: {no_tool: 1}}: route shares under
"cheap" calculator 50%, expert-1 50%.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

ORACLE = "oracle"
# The kind of each reference row that is no fixed route (`trainer.router_rows` adds the last two).
KINDS = {
    ORACLE: ORACLE,
    "expected oracle": "expected",
    "router baseline": "baseline",
    "competence router": "baseline",
}
UNKNOWN_TOOL = "unknown_tool"  # the class of an attempt that called a tool its task lacks


def without_nan(value: Any) -> Any:
    """`value` with every nan float (at any depth of dicts, lists and tuples) as None, which JSON
    writes as null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: without_nan(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [without_nan(v) for v in value]
    return value


@dataclass(frozen=True)
class Scored:
    """One policy's judged attempt at one task."""

    task_id: str
    verified: bool
    reward_total: float
    total_cost: float
    total_latency_ms: float
    compliant: bool
    route: str  # the route class the attempt took
    oracle: str  # the route class of the task's oracle route
    profile: str = ""  # the task's preference profile


@dataclass(frozen=True)
class Row:
    """One policy's columns (see the module docstring)."""

    policy: str
    kind: str  # "policy" (evaluated), "oracle", "expected", "baseline" or "fixed" (a fixed route)
    tasks: int
    solved: int
    success: float
    mean_reward: float
    share_of_oracle: float | None
    usd_per_solved: float | None
    mean_cost: float
    mean_latency_ms: float
    compliance: float
    oracle_route_share: float
    confusion: dict[str, dict[str, int]] = field(default_factory=dict)  # chosen -> oracle -> n
    # preference profile -> chosen route class -> tasks
    profile_routes: dict[str, dict[str, int]] = field(default_factory=dict)


def row_of(policy: str, kind: str, attempts: Sequence[Scored], oracle_mean: float | None) -> Row:
    """The row of `attempts` (one per task); `oracle_mean` is the oracle row's mean reward."""
    n = len(attempts)
    if n == 0:
        raise ValueError(f"{policy}: no attempts")
    solved = sum(a.verified for a in attempts)
    spent = sum(a.total_cost for a in attempts)
    mean = sum(a.reward_total for a in attempts) / n
    confusion: dict[str, Counter[str]] = {}
    by_profile: dict[str, Counter[str]] = {}
    for a in attempts:
        confusion.setdefault(a.route, Counter())[a.oracle] += 1
        by_profile.setdefault(a.profile, Counter())[a.route] += 1
    return Row(
        policy=policy,
        kind=kind,
        tasks=n,
        solved=solved,
        success=solved / n,
        mean_reward=mean,
        share_of_oracle=mean / oracle_mean if oracle_mean else None,
        usd_per_solved=spent / solved if solved else None,
        mean_cost=spent / n,
        mean_latency_ms=sum(a.total_latency_ms for a in attempts) / n,
        compliance=sum(a.compliant for a in attempts) / n,
        oracle_route_share=sum(a.route == a.oracle for a in attempts) / n,
        confusion={c: dict(sorted(o.items())) for c, o in sorted(confusion.items())},
        profile_routes={p: dict(sorted(c.items())) for p, c in sorted(by_profile.items())},
    )


@dataclass(frozen=True)
class Table:
    """The rows of one evaluation (evaluated policies first, then the oracle, then the
    expected-reward oracle, the router baseline and the fixed routes, best mean reward first),
    the attempts behind them, and what they were run on."""

    rows: tuple[Row, ...]
    attempts: dict[str, list[Scored]]
    about: dict[str, Any]  # dataset, split, tasks, reward, the evaluated orchestrator

    def row(self, policy: str) -> Row:
        return next(r for r in self.rows if r.policy == policy)

    def oracle_shares(self) -> dict[str, int]:
        """How many tasks each route class is the oracle's on, most first."""
        first = next(iter(self.attempts.values()), [])
        return dict(Counter(a.oracle for a in first).most_common())

    def to_json(self) -> str:
        body = {
            **self.about,
            "oracle_route_classes": self.oracle_shares(),
            "rows": [asdict(r) for r in self.rows],
            "attempts": {p: [asdict(a) for a in found] for p, found in self.attempts.items()},
        }
        return json.dumps(without_nan(body), indent=2) + "\n"

    def to_markdown(self) -> str:
        n = self.rows[0].tasks if self.rows else 0
        shares = ", ".join(f"{c} {k} ({100 * k / n:.0f}%)" for c, k in self.oracle_shares().items())
        lines = [
            f"{n} tasks of {self.about.get('dataset', '?')} ({self.about.get('split', 'all')}); "
            f"oracle route classes: {shares or 'none'}.",
            "",
            markdown_rows(self.rows),
        ]
        notes = [str(x) for x in self.about.get("notes") or []]
        if self.about.get("small_sample_warning"):
            notes.insert(0, f"**Warning: too few tasks.** {self.about['small_sample_warning']}.")
        lines += [line for note in notes for line in ("", note)]
        if self.about.get("isolation_warning"):  # an explicit, weaker --isolation
            lines[:0] = [f"**Warning: weaker sandbox.** {self.about['isolation_warning']}.", ""]
        shown = [r for r in self.rows if r.kind != "fixed" and r.profile_routes]
        if shown:
            lines += ["", "Route shares per preference profile (of that profile's tasks):", ""]
            lines.append(markdown_profile_shares(shown))
        for r in self.rows:
            if r.kind == "policy":
                lines += ["", f"Chosen route class (rows) vs oracle route class: {r.policy}", ""]
                lines.append(markdown_confusion(r.confusion))
        return "\n".join(lines) + "\n"


def build(
    evaluated: dict[str, list[Scored]], reference: dict[str, list[Scored]], about: dict[str, Any]
) -> Table:
    """The table of the evaluated policies and the reference rows (the oracle, fixed routes)."""
    oracle = reference.get(ORACLE)
    oracle_mean = sum(a.reward_total for a in oracle) / len(oracle) if oracle else None
    rows = [row_of(p, "policy", found, oracle_mean) for p, found in evaluated.items()]
    kept = [row_of(p, KINDS.get(p, "fixed"), found, oracle_mean) for p, found in reference.items()]
    kept.sort(key=lambda r: (r.kind != ORACLE, -r.mean_reward, r.policy))
    return Table(tuple(rows + kept), {**evaluated, **reference}, about)


def money(value: float | None) -> str:
    return "n/a" if value is None else f"${value:.6f}"


def share(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


HEAD = (
    "| policy | success | mean reward_total | / oracle | $ per solved task | mean latency "
    "| preference compliance | route = oracle |\n|---|---|---|---|---|---|---|---|"
)


def markdown_line(r: Row, label: str | None = None) -> str:
    return (
        f"| {label or r.policy} | {r.success:.2f} ({r.solved}/{r.tasks}) | {r.mean_reward:.3f} "
        f"| {share(r.share_of_oracle)} | {money(r.usd_per_solved)} "
        f"| {r.mean_latency_ms:,.0f} ms | {r.compliance:.2f} | {r.oracle_route_share:.2f} |"
    )


def markdown_rows(rows: Sequence[Row]) -> str:
    return "\n".join([HEAD, *(markdown_line(r) for r in rows)])


def markdown_confusion(confusion: dict[str, dict[str, int]]) -> str:
    oracles = sorted({o for counts in confusion.values() for o in counts})
    head = "| chosen \\ oracle | " + " | ".join(oracles) + " |"
    rule = "|---|" + "---|" * len(oracles)
    body = [
        f"| {chosen} | " + " | ".join(str(counts.get(o, 0)) for o in oracles) + " |"
        for chosen, counts in confusion.items()
    ]
    return "\n".join([head, rule, *body])


def markdown_profile_shares(rows: Sequence[Row]) -> str:
    """One line per (row, profile): the share of each route class, largest first."""
    lines = ["| policy | profile | tasks | route shares |", "|---|---|---|---|"]
    for r in rows:
        for profile, counts in r.profile_routes.items():
            n = sum(counts.values())
            said = ", ".join(
                f"{c} {100 * k / n:.0f}%" for c, k in sorted(counts.items(), key=lambda x: -x[1])
            )
            lines.append(f"| {r.policy} | {profile or '?'} | {n} | {said} |")
    return "\n".join(lines)
