"""The `math` domain: word problems with an exact numeric answer, solved by orchestrating a
calculator, a code executor and simulated experts (ToolOrchestra-style)."""

from __future__ import annotations

import random
from functools import cached_property
from pathlib import Path

from faker import Faker

from domains.math.tasks import TEMPLATES, build_task
from domains.math.tools import MathTools
from toolscale.core.contract import Domain, TaskSpec


class MathDomain(Domain):
    name = "math"
    version = "3.2"
    family = "orchestration"
    toolkit = MathTools
    policy = (Path(__file__).parent / "policy.md").read_text()
    templates = tuple(TEMPLATES)

    @cached_property
    def _fake(self) -> Faker:
        """This domain's name source: building a Faker takes ~10 ms, so one is kept per domain."""
        return Faker()

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        """A word problem drawn from `rng` alone (`seed` and `index` are not needed here)."""
        return build_task(rng, self._fake)
