"""The railway domain (stateful, tau2-style): book, cancel, change and upgrade train tickets.

A run draws one railway world per seed (`state.build_world`: every station, hundreds of trains,
customers and bookings), a fixed clock (see `state.TODAY`), and a policy (policy.md) whose fees
and refunds the tools compute. Each task is that world, plus the task's own changes, and a caller
who must be asked for their booking id or email (the kit's user scenarios).
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from domains.railway.state import build_world
from domains.railway.tasks import TEMPLATES
from domains.railway.tools import RailwayTools
from toolscale.core.contract import TaskSpec
from toolscale.kit import KitDomain, sample_task


@cache
def _world(seed: int) -> dict[str, Any]:
    return build_world(random.Random(f"railway:{seed}:world"))


class RailwayDomain(KitDomain):
    name = "railway"
    version = "3.2"
    family = "stateful"
    toolkit = RailwayTools
    policy = (Path(__file__).parent / "policy.md").read_text(encoding="utf-8")
    templates = tuple(TEMPLATES)
    template_table = TEMPLATES

    def world(self, seed: int) -> dict[str, Any]:
        return _world(seed)

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        return sample_task(rng, self.world(seed), TEMPLATES, RailwayTools, self.policy)
