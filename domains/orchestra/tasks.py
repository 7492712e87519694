"""The orchestra sampler: a math or knowledge problem, asked through ToolOrchestra's interface.

The problem is drawn by its own domain's sampler (`domains.math.tasks`, `domains.knowledge.tasks`)
and redrawn until some expert answers it right; the routes are the three experts, each handed the
question (`answer(expert)`), so a policy chooses a model and never writes its input. The gold
route given here is the textbook one (the strongest expert that answers right); the pipeline
plays every route and makes the best the gold (`toolscale.oracle.played`). A task also draws a
provider set-up for the experts (`toolscale.tools.price_setups`: a self-hosted frontier expert
beside a hosted mid one, a cheap but slow small one), so the fast route and the cheap one differ.
"""

from __future__ import annotations

import random
from dataclasses import replace

from faker import Faker

from domains.knowledge.tasks import sample_task as knowledge_task
from domains.math.tasks import build_task as math_task
from domains.orchestra.tools import OrchestraTools
from toolscale.core.contract import Action, Route, TaskSpec, answer_matches
from toolscale.tools.experts import EXPERTS, simulated_answer
from toolscale.tools.price_setups import draw_setup

SOURCES = {"math": 1.0, "knowledge": 1.0}  # where a problem comes from, and how often
SETUPS = {"listed": 1.0, "self_hosted_frontier": 1.0, "premium_search": 1.0}
MAX_DRAWS = 50  # a problem no expert answers is redrawn; most draws have a solver


def _answer(alias: str) -> Action:
    return Action("answer", {"expert": alias})


def solvers(spec: TaskSpec, state: dict[str, object]) -> list[str]:
    """The experts that answer the problem right, strongest first."""
    kit = OrchestraTools(state)
    known = kit.known(spec.instruction)
    right = []
    for alias in EXPERTS:
        reply, _ = simulated_answer(alias, spec.instruction, known)
        if spec.answer is not None and answer_matches(spec.answer, reply):
            right.append(alias)
    return right


def build_task(rng: random.Random, seed: int, fake: Faker) -> TaskSpec:
    """One task, every choice drawn from `rng`: its source, its problem, its provider set-up."""
    source = rng.choices(tuple(SOURCES), weights=tuple(SOURCES.values()))[0]
    for _ in range(MAX_DRAWS):
        spec = math_task(rng, fake) if source == "math" else knowledge_task(rng, seed)
        state = {**spec.initial_state, "question": spec.instruction}
        right = solvers(spec, state)
        if right:
            break
    else:
        raise RuntimeError(f"no {source} problem that some expert answers in {MAX_DRAWS} draws")
    models = {k: v for k, v in draw_setup(rng, SETUPS).items() if k in EXPERTS}
    routes = [Route(alias, [_answer(alias)]) for alias in EXPERTS if alias != right[0]]
    return replace(
        spec,
        initial_state=state,
        gold_actions=[_answer(right[0])],
        alternatives=[],
        prices=models,
        routes=routes,
        gold_route=right[0],
        required_facts=[],
    )
