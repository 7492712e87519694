"""The chance that a route is right, as a policy can know it: from the experts' skill profiles.

A route without an expert call (a calculator, a program, searches) gives the same answer every time
it is played, so it is right or wrong as played. A route that asks an expert (or hands it the
question: `toolscale.tools.delegate`) rests on the answer of its last expert call (the one it
relays, or whose answer its later calls use), unless it is `checked`
(`toolscale.core.contract.Route`): its chance of being right is the probability that expert's skill
profile gives for the kind and difficulty of the question, as the expert reads them
(`toolscale.tools.skills`, `ExpertReading.known`); 0 for a question the expert cannot answer. An
expert backed by a real endpoint has no profile: its route is right or wrong as played. These odds
make the expected-reward oracle (`toolscale.oracle.played`); nothing here decides a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolscale.core.contract import Route, Toolkit
from toolscale.tools.expert_endpoints import configured
from toolscale.tools.experts import ExpertReading
from toolscale.tools.skills import PROFILES


def expert_odds(kit: ExpertReading, alias: str, question: str) -> float | None:
    """The chance that simulated expert `alias` answers `question` right (None: not simulated)."""
    if alias not in PROFILES or alias in configured():
        return None
    known = kit.known(question)
    return 0.0 if known is None else PROFILES[alias].p_correct(known.kind, known.difficulty)


def _asked(kit: ExpertReading, name: str, arguments: dict[str, object]) -> tuple[object, object]:
    """(alias, question) of an expert call: the question it writes (`ask_expert`), or the user's
    own that it hands over (an answer tool: `toolscale.tools.delegate`); (None, None) else."""
    if name == "ask_expert":
        return arguments.get("expert"), arguments.get("question")
    if name in kit.answer_tools:
        return arguments.get("expert"), kit.delegated_question()
    return None, None


def route_odds(kit: Toolkit, routes: Sequence[Route]) -> dict[str, float]:
    """Route name -> its chance of being right, for each route that rests on an expert."""
    if not isinstance(kit, ExpertReading):
        return {}
    found = {}
    for route in routes:
        asked = [_asked(kit, a.name, a.arguments) for a in route.actions]
        asked = [(alias, q) for alias, q in asked if alias is not None]
        if not asked or route.checked:
            continue
        alias, question = asked[-1]
        if isinstance(alias, str) and isinstance(question, str):
            odds = expert_odds(kit, alias, question)
            if odds is not None:
                found[route.name] = odds
    return found
