"""The railway domain (stateful, tau2-style): book, cancel, change and upgrade train tickets.

Each task has its own small seeded database of stations, trains, customers and bookings, a fixed
clock (see `state.TODAY`), and a policy (policy.md) whose fees and refunds the tools compute.
"""

from __future__ import annotations

import random
from pathlib import Path

from domains.railway.tasks import TEMPLATES, sample_task
from domains.railway.tools import RailwayTools
from toolscale.contract import Domain, TaskSpec


class RailwayDomain(Domain):
    name = "railway"
    version = "2.0"
    family = "stateful"
    toolkit = RailwayTools
    policy = (Path(__file__).parent / "policy.md").read_text(encoding="utf-8")
    templates = tuple(TEMPLATES)

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        return sample_task(rng)
