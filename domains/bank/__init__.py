"""The bank domain (stateful, tau2-style): customers, accounts, cards, transfers, fees, disputes."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from domains.bank.state import build_world
from domains.bank.tasks import TEMPLATES
from domains.bank.tools import BankTools
from toolscale.core.contract import TaskSpec
from toolscale.kit import KitDomain, sample_task


@cache
def _world(seed: int) -> dict[str, Any]:
    return build_world(random.Random(f"bank:{seed}:world"))


class BankDomain(KitDomain):
    """A retail bank's customer service: one bank of about 1,700 records per run seed, and
    callers who give their email or customer id when asked."""

    name = "bank"
    version = "3.2"
    family = "stateful"
    toolkit = BankTools
    policy = (Path(__file__).parent / "policy.md").read_text(encoding="utf-8")
    templates = tuple(TEMPLATES)
    template_table = TEMPLATES

    def world(self, seed: int) -> dict[str, Any]:
        """The run's bank, drawn from `seed` alone and cached; callers must not mutate it."""
        return _world(seed)

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        return sample_task(rng, self.world(seed), TEMPLATES, BankTools, self.policy)
