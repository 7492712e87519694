"""Is the SFT label already what GRPO's reward asks for? (issue 48, RESULTS "Why GRPO adds nothing
over SFT here").

GRPO climbs the played reward; the default SFT label is each task's `expected_route`, the best
route by expected reward. For a routed dataset, this groups the tasks by what a policy can see
(several choices of features), chooses each group's route on the even-numbered tasks twice (by
the routes' mean played `reward_total`, and by their mean `expected_reward`), and scores both
choices on the odd-numbered tasks by played reward. When the two are worth the same, GRPO's
optimum is the label's and it can only add what SFT failed to imitate.

    python benchmarks/label_headroom.py runs/nano/seed0/data
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

# What a policy can see, coarse to fine: the experts' odds are the question's kind and difficulty
# as each expert reads them; budget and deadline are the user's stated limits.
VIEWS = (
    ("template, difficulty, profile", ["template", "difficulty", "preference_profile"]),
    ("the experts' odds, profile", ["odds", "preference_profile"]),
    ("odds, price schedule, profile", ["odds", "price_schedule", "preference_profile"]),
    (
        "odds, price schedule, profile, budget, deadline",
        ["odds", "price_schedule", "preference_profile", "budget", "deadline"],
    ),
)


def route_rows(data: Path) -> pd.DataFrame:
    """One row per (task, route) of a dataset's routed tasks, with the task's features."""
    files = sorted((data / "data" / "tasks").glob("*.parquet"))
    if not files:
        raise SystemExit(
            f"error: no tasks under {data}/data/tasks; give a generated dataset folder"
        )
    tasks = pd.concat([pq.read_table(f).to_pandas() for f in files], ignore_index=True)
    rows = []
    for number, task in tasks.iterrows():
        if not task["expected_route"]:
            continue
        preference = json.loads(task["preference"])
        table = list(task["route_table"])
        odds = tuple(sorted((r["name"], round(r["p_right"], 2)) for r in table))
        for route in table:
            rows.append(
                {
                    "task": number,
                    "route": route["name"],
                    "played": route["reward_total"],
                    "expected": route["expected_reward"],
                    "label": task["expected_route"],
                    "template": task["template"],
                    "difficulty": task["difficulty"],
                    "preference_profile": task["preference_profile"],
                    "price_schedule": task["price_schedule"],
                    "odds": odds,
                    "budget": str(preference.get("max_cost")),
                    "deadline": str(preference.get("max_latency_ms")),
                }
            )
    if not rows:
        raise SystemExit(f"error: {data} has no routed task (no expected_route)")
    return pd.DataFrame(rows)


def scored(rows: pd.DataFrame, view: list[str], by: str) -> float:
    """Mean played reward on the odd tasks of choosing each group's route on the even ones by
    the mean of column `by` (a group unseen on the even side keeps the task's label)."""
    fit, held = rows[rows.task % 2 == 0], rows[rows.task % 2 == 1]
    means = fit.groupby([*view, "route"])[by].mean().reset_index()
    picks = means.loc[means.groupby(view)[by].idxmax(), [*view, "route"]]
    held = held.merge(picks.rename(columns={"route": "pick"}), on=view, how="left")
    held["pick"] = held["pick"].fillna(held["label"])
    return float(held[held.route == held.pick].played.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="a generated dataset folder (toolscale generate)")
    rows = route_rows(parser.parse_args().data)
    print("| a policy sees | choose by played reward | choose by expected reward |")
    print("|---|---|---|")
    for name, view in VIEWS:
        played, expected = scored(rows, view, "played"), scored(rows, view, "expected")
        print(f"| {name} | {played:.3f} | {expected:.3f} |")
    held = rows[(rows.task % 2 == 1) & (rows.route == rows.label)]
    print(f"\nEach task's own expected_route on the same tasks: {held.played.mean():.3f}")


if __name__ == "__main__":
    main()
