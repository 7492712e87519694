"""User preference profiles: sampling one per task, its instruction, its vector P and its checks.

A profile is what a user asked for beyond the task itself, in two forms: a natural-language
sentence appended to the task's instruction ("I'm in a hurry ...") and its machine-readable form,
the ToolOrchestra preference vector P over [calls per tool..., outcome, cost, latency] plus the
constraints the verifier checks (forbidden tools, an answer format, a latency or cost budget).

Built-in profiles (instruction appended to the task, one of several wordings; P; what is
checked):

- `none`: no instruction; outcome 1, cost 0.2, latency 0.2; nothing.
- `hurry`: "I'm in a hurry ..."; outcome 1, latency 1, cost 0.2; budget: the gold route's latency
  (modelled milliseconds, not calls).
- `cheap`: "Keep it cheap ..."; outcome 1, cost 1, latency 0.2; budget: the gold route's cost
  (dollars, not calls).
- `avoid_tool`: "Don't use web search.", "Please don't look up the fee quote ..." (a tool off
  the gold route, said as what it does); tool -1 plus the base weights; never called.
- `json_confidence`: 'Answer as JSON {"answer", "confidence"}'; the base weights; format,
  confidence a number in [0, 1].

Every user prefers, other things equal, a cheaper and faster route: the base weights (cost 0.2,
latency 0.2) keep ToolOrchestra's group reward informative among correct attempts whatever the
profile. The budgets are the task's `reference_cost` / `reference_latency_ms`: its gold route
priced from its own table, the orchestrator's tokens included. An attempt within its budget is
quick; one over BUDGET_SLACK times it breaks a hard constraint, as a forbidden tool or a wrong
answer format does (`violations`; `toolscale.judge.rewards` scores such an attempt as a wrong one).
This module judges nothing about correctness; `toolscale.judge.verify` does that.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from toolscale.core.answers import answer_field
from toolscale.core.contract import ToolKind, canonical_json
from toolscale.core.errors import ConfigError
from toolscale.core.preference import Preference, PreferenceVector
from toolscale.core.registry import get_domain
from toolscale.economics.fit import plausible_avoid
from toolscale.economics.sayings import (
    CALM_HURRY,
    JSON_IN_CHAT,
    JSON_INSTRUCTION,
    PATIENT_MANNERS,
    SAYINGS,
    avoid_saying,
)

__all__ = ["JSON_INSTRUCTION", "SAYINGS", "avoid_saying"]  # re-exported: the sayings

PROFILES = ("none", "hurry", "cheap", "avoid_tool", "json_confidence")
DEFAULT_SPREAD: dict[str, float] = {name: 1.0 for name in PROFILES}

BASE = 0.2  # the cost and latency weight of every profile that does not stress one of them
# A budget is the gold route's cost or latency: within it an attempt is quick; a user who asked
# for speed (or thrift) does not accept more than twice it, so beyond that the attempt breaks the
# profile's hard constraint (an exact bound would fail every answer a few tokens wordier).
BUDGET_SLACK = 2.0
GOLD_TOOL_SHARE = 1.0  # how often `avoid_tool` forbids a gold tool of a routed task (when it can)
NO_PREFERENCE = Preference(
    profile="none", instruction="", vector=PreferenceVector(cost=BASE, latency=BASE)
)


def check_spread(spread: Mapping[str, float]) -> None:
    """Raises ConfigError unless every name is a profile, every weight >= 0 and one is > 0."""
    for name, weight in spread.items():
        if name not in PROFILES:
            raise ConfigError(f"unknown profile {name!r} in --profiles; available: {PROFILES}")
        if not weight >= 0:
            raise ConfigError(f"--profiles weight of {name} must be >= 0 (got {weight})")
    if not any(spread.values()):
        raise ConfigError('--profiles needs a positive weight, e.g. "none=1,hurry=1" or "all"')


def parse_spread(text: str) -> dict[str, float]:
    """`"hurry=2,none=1"` -> {"hurry": 2.0, "none": 1.0}; a bare name weighs 1; `"all"` gives
    every profile weight 1.

    Raises:
        ConfigError: an unknown profile, a weight that is not a number >= 0, or all weights 0.
    """
    if text.strip() == "all":
        return dict(DEFAULT_SPREAD)
    spread: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, weight = (s.strip() for s in part.partition("="))
        try:
            spread[name] = float(weight) if weight else 1.0
        except ValueError:
            raise ConfigError(f"--profiles weight of {name} is not a number: {weight!r}") from None
    check_spread(spread)
    return spread


def _avoidable_tool(
    rng: random.Random,
    domain: str,
    offered: list[str],
    gold: list[dict[str, Any]],
    alternatives: list[list[Any]],
    routed: bool = False,
) -> str | None:
    """An offered tool the gold route does not use and that changes nothing (READ, GENERIC or
    MODEL); preferably one an alternative route uses, so that the constraint separates attempts.
    In a stateful domain only one that fits the request (`plausible_avoid`).

    With `routed` (a task whose domain offers routes, all of them played by the oracle), any such
    tool that some route (the gold one or an alternative) uses and another does not: the gold
    route's with probability GOLD_TOOL_SHARE, since it is often the best one, so the best route
    is then forbidden and the oracle takes the best allowed one."""
    found = get_domain(domain)
    specs = found.toolkit.specs()
    used = {a["name"] for a in gold}
    if routed:  # every route is as good a way as gold: the best one's tool may be forbidden
        routes = [used, *({a.name for a in route} for route in alternatives)]
        spared = sorted(
            n
            for n in {t for r in routes for t in r} & set(offered)
            if n in specs
            and specs[n].kind is not ToolKind.WRITE
            and any(n not in r for r in routes)
        )
        on_gold = [n for n in spared if n in used]
        if on_gold and rng.random() < GOLD_TOOL_SHARE:
            return rng.choice(on_gold)
        if spared:
            return rng.choice(spared)
    allowed = sorted(
        n for n in offered if n in specs and n not in used and specs[n].kind is not ToolKind.WRITE
    )
    if found.family == "stateful":
        allowed = [n for n in allowed if plausible_avoid(n, found.toolkit, gold, alternatives)]
    on_detours = sorted({a.name for route in alternatives for a in route} & set(allowed))
    pool = on_detours or allowed
    return rng.choice(pool) if pool else None


def sample_preference(
    spread: Mapping[str, float],
    rng: random.Random,
    domain: str,
    offered: list[str],
    gold: list[dict[str, Any]],
    alternatives: list[list[Any]],
    budget: tuple[float, float],
    manner: str = "",
    routed: bool = False,
) -> Preference:
    """Draw one profile with probability proportional to `spread` and fill it in for the task.

    `rng` must be the task's own preference RNG (not the domain's item RNG, so that adding
    preferences never changes the domain's tasks); `offered` are the task's tools; `budget` is
    (reference_latency_ms, reference_cost) of its gold route; `manner` the caller's persona in a
    chat ("" for none): a patient one says a hurry in calm words, and a chat's JSON profile asks
    for the final summary in JSON; `routed` says the task's alternatives are routes the oracle
    plays (`_avoidable_tool`). Example: spread {"hurry": 1} and budget (1200.0, 0.0101) give
    max_latency_ms 1200.0.
    """
    names = [n for n in PROFILES if spread.get(n, 0.0) > 0]
    profile = rng.choices(names, weights=[spread[n] for n in names])[0]
    latency, cost = budget
    if profile == "hurry":
        return Preference(
            profile=profile,
            instruction=rng.choice(CALM_HURRY if manner in PATIENT_MANNERS else SAYINGS["hurry"]),
            vector=PreferenceVector(outcome=1.0, latency=1.0, cost=BASE),
            max_latency_ms=latency,
        )
    if profile == "cheap":
        return Preference(
            profile=profile,
            instruction=rng.choice(SAYINGS["cheap"]),
            vector=PreferenceVector(outcome=1.0, cost=1.0, latency=BASE),
            max_cost=cost,
        )
    if profile == "avoid_tool":
        tool = _avoidable_tool(rng, domain, offered, gold, alternatives, routed)
        if tool is not None:
            return Preference(
                profile=profile,
                instruction=avoid_saying(rng, tool),
                vector=PreferenceVector(tools={tool: -1.0}, cost=BASE, latency=BASE),
                forbidden_tools=[tool],
            )
        rest = {n: w for n, w in spread.items() if n != "avoid_tool" and w > 0}
        if rest:  # nothing to avoid here (a question judged on its look-ups): another of the
            # configured profiles, not a preference nobody asked for
            return sample_preference(rest, rng, domain, offered, gold, alternatives, budget, manner)
    if profile == "json_confidence":
        return Preference(
            profile=profile,
            instruction=rng.choice(JSON_IN_CHAT if manner else SAYINGS["json_confidence"]),
            vector=PreferenceVector(cost=BASE, latency=BASE),
            answer_format="json_confidence",
        )
    return NO_PREFERENCE


def as_json_answer(text: str, confidence: float) -> str:
    """`text` answered as `json_confidence` asks: `{"answer": text, "confidence": confidence}`."""
    return canonical_json({"answer": text, "confidence": confidence})


def json_answer(final_answer: str) -> dict[str, Any] | None:
    """The final answer as a JSON object, or None when it is not one."""
    try:
        value = json.loads(final_answer)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def answer_text(final_answer: str) -> str:
    """The text the outcome is judged on: the "answer" field of a JSON-object answer (so a stated
    confidence is never read as the answer; `toolscale.core.answers.answer_field`), else the
    whole message."""
    field = answer_field(final_answer)
    return final_answer if field is None else field


def answer_confidence(final_answer: str) -> float | None:
    """The "confidence" of a JSON-object answer when it is a number, else None."""
    value = json_answer(final_answer)
    confidence = None if value is None else value.get("confidence")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        return None
    return float(confidence)


def _over(value: float, budget: float, stated: bool) -> bool:
    """Over the budget's hard limit: the budget itself when the user stated it, else
    BUDGET_SLACK times it (1e-9 of slack for float sums)."""
    return value > (1.0 if stated else BUDGET_SLACK) * budget + 1e-9


def violations(
    preference: Preference,
    calls_per_tool: Mapping[str, int],
    final_answer: str,
    total_latency_ms: float | None = None,
    total_cost: float | None = None,
) -> list[str]:
    """The hard constraints of the profile that an attempt breaks (empty: compliant): a forbidden
    tool called, the answer format, and (when the attempt's totals are given) a latency or cost
    over BUDGET_SLACK times the profile's budget.

    Example: a profile forbidding `ask_expert` and calls {"calculator": 2, "ask_expert": 1}
    give ["called forbidden tool 'ask_expert' (1 time)"]. A call counts even if it failed.
    A `hurry` budget of 1200 ms and an attempt of 2500 ms give ["took 2500 ms, over 2x the 1200 ms
    budget of a user in a hurry"]; 2400 ms is still compliant (if slow). A budget the user stated
    ("within 2 seconds": 2000 ms, `budget_stated`) binds exactly: 2001 ms breaks it.
    """
    problems = []
    stated = preference.budget_stated
    over = "over the" if stated else f"over {BUDGET_SLACK:g}x the"
    budget = preference.max_latency_ms
    if (
        budget is not None
        and total_latency_ms is not None
        and _over(total_latency_ms, budget, stated)
    ):
        problems.append(
            f"took {total_latency_ms:.0f} ms, {over} {budget:.0f} ms budget of a user in a hurry"
        )
    budget = preference.max_cost
    if budget is not None and total_cost is not None and _over(total_cost, budget, stated):
        problems.append(
            f"cost ${total_cost:.6g}, {over} ${budget:.6g} budget of a user who asked for cheap"
        )
    for tool in preference.forbidden_tools:
        if (times := calls_per_tool.get(tool, 0)) > 0:
            problems.append(f"called forbidden tool {tool!r} ({times} time{'s' * (times > 1)})")
    if preference.answer_format == "json_confidence":
        value = json_answer(final_answer)
        if value is None or not isinstance(value.get("answer"), str):
            problems.append('the final answer is not JSON with a string "answer"')
        confidence = answer_confidence(final_answer)
        if confidence is None or not 0.0 <= confidence <= 1.0:
            problems.append('the final answer has no "confidence" between 0 and 1')
    return problems


def within_budget(
    preference: Preference,
    num_tool_calls: int,
    gold_calls: int,
    total_latency_ms: float,
    total_cost: float,
) -> bool:
    """Whether an attempt was quick: within the profile's latency and cost budgets when it has
    any (`hurry` is judged on modelled latency, `cheap` on dollars, whatever the number of calls;
    1e-9 slack for float sums), else no more calls than gold."""
    if preference.max_latency_ms is None and preference.max_cost is None:
        return num_tool_calls <= gold_calls
    budget = preference.max_latency_ms
    if budget is not None and total_latency_ms > budget + 1e-9:
        return False
    return preference.max_cost is None or total_cost <= preference.max_cost + 1e-9
