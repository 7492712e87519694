"""Which verified traces SFT imitates (`--variants`): one module read by the trainer's SFT
(`toolscale-train sft`) and `toolscale export --format sft`, so both take the same traces.

`best` (the default) keeps one trace per task. A task with routes keeps the verified trace of its
`expected_route` (the gold trace when that is the oracle route too, else the variant of that name;
none when it answered wrong on this draw: the ex-post `oracle_route`, which knows which expert
happened to be right, would teach that luck). Any other task keeps its verified `gold` trace (the
reference teacher's oracle route), else its best verified trace by the oracle's own order
(`toolscale.oracle.played.best`: preference kept, then reward_total, fewer calls, lower cost; then
the trace id), never a deliberate detour or format slip (`toolscale.stats.variants.kind`), which are
there as GRPO contrast and the worse side of preference pairs. `all` keeps every trace; a list of
names keeps the traces of those variants.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.stats.variants import kind

NOT_IMITATED = ("detour", "format")  # the kinds `best` never picks
# The trace columns `chosen` reads.
CHOICE_COLUMNS = (
    "id",
    "task_id",
    "variant",
    "verified",
    "preference_compliant",
    "reward_total",
    "num_tool_calls",
    "total_cost",
)


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


def chosen(
    traces: Sequence[Mapping[str, Any]], tasks: Mapping[str, Mapping[str, Any]], spec: str
) -> list[int]:
    """The indices (ascending) of the `traces` rows `--variants spec` keeps; `tasks` maps a task
    id to its `tasks` row (its `route_table`, `expected_route` and `oracle_route` are read).

    Example: traces [gold of t1, guessed_id of t1] (both verified, t1 without routes):
    spec "best" -> [0]; "all" -> [0, 1]; "guessed_id" -> [1].
    """
    wanted = variant_filter(spec)
    if wanted == "all":
        return list(range(len(traces)))
    if wanted == "best":
        tables = {
            i: {s["name"]: bool(s["detour"]) for s in t.get("route_table") or []}
            for i, t in tasks.items()
        }
        labels = {i: label for i, t in tasks.items() if (label := label_variant(t)) is not None}
        return best_traces(traces, tables, labels)
    return [i for i, trace in enumerate(traces) if trace["variant"] in wanted]


def described(variants: Sequence[str], spec: str) -> str:
    """One line saying what a selection holds, e.g. `--variants best: 12 traces (gold 10,
    expert-1 2)`, the most frequent variant first."""
    count = sorted(Counter(variants).items(), key=lambda x: (-x[1], x[0]))
    parts = ", ".join(f"{name} {n}" for name, n in count)
    return f"--variants {spec}: {len(variants)} traces" + (f" ({parts})" if parts else "")
