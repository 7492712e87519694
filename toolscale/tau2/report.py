"""What run.json and the data card say about a run's tau2 domains: which checks were applied.

tau2's reward for a task multiplies the components of its reward basis. toolscale applies DB
(the final database equals the gold one, compared as tau2 compares it) and COMMUNICATE (tau2's
substring check); a task whose basis also holds NL_ASSERTION with assertions to judge needs an
LLM judge. With one configured (`--judge-model`, toolscale.tau2.nl_assertions) NL_ASSERTION is
applied and the judge's model named; without, such tasks are listed, so a reader knows their
verdicts cover the database and the communicated facts only.
"""

from __future__ import annotations

from typing import Any


def tau2_checks(domains: list[str], judge_model: str | None = None) -> dict[str, Any]:
    """`{"tau2": {domain: checks}}` for the run's tau2 domains, `{}` when it has none."""
    from toolscale.core.registry import get_domain

    found = {}
    for name in domains:
        if name.startswith("tau2:"):
            found[name] = get_domain(name).checks(judge_model)  # type: ignore[attr-defined]
    return {"tau2": found} if found else {}


def _ids(ids: list[str]) -> str:
    return f"{', '.join(ids[:10])}{' ...' if len(ids) > 10 else ''}"


def card_lines(summary: dict[str, Any]) -> list[str]:
    """The data card's sentences on a run's tau2 domains (none without tau2 domains)."""
    lines = []
    for name, checks in summary.get("tau2", {}).items():
        unjudged = checks.get("not_applied", {}).get("NL_ASSERTION", [])
        judge = checks.get("judge")
        if judge:
            tail = (
                f" (NL_ASSERTION by the LLM judge `{judge['model']}` on {len(judge['tasks'])} "
                f"tasks: {_ids(judge['tasks'])})"
            )
        elif unjudged:
            tail = (
                f"; NL_ASSERTION (an LLM judge) not applied to {len(unjudged)} tasks "
                f"({_ids(unjudged)})"
            )
        else:
            tail = "; every task judged exactly as tau2 judges it"
        lines.append(
            f"`{name}`: {checks['tasks']} tasks from `{checks['task_source']}`; checks applied: "
            f"{', '.join(checks['applied'])}{tail}"
        )
    return lines
