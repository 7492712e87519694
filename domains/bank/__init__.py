"""The bank domain (stateful, tau2-style): customers, accounts, cards, transfers, fees, disputes."""

from __future__ import annotations

import random
from pathlib import Path

from domains.bank.tasks import TEMPLATES, sample_task
from domains.bank.tools import BankTools
from toolscale.contract import Domain, TaskSpec


class BankDomain(Domain):
    """A retail bank's customer service: one small seeded bank per task."""

    name = "bank"
    version = "2.0"
    family = "stateful"
    toolkit = BankTools
    policy = (Path(__file__).parent / "policy.md").read_text(encoding="utf-8")
    templates = tuple(TEMPLATES)

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        return sample_task(rng)
