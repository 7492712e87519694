"""The bank domain (stateful, kit v2): customers, accounts, cards, transfers, fees, disputes.

Declared, not templated: the world (`world.build_world`: one bank of about 1,700 records per run
seed), the tool graph (`tools`, with `@finds` / `@lists` / `@raises`), the policy (`rules`,
rendered into policy.md) and the goals (`questions`, `changes`, over `entities` and `draws`); the
kit composes the tasks from them (toolscale.kit.compose). Every goal starts from the caller
(their email or customer id), as the policy asks. Two tasks are hand-written (`handmade`:
`close_savings`, `dispute_or_block`).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from domains.bank import rules
from domains.bank.changes import CHANGES
from domains.bank.entities import ENTITIES
from domains.bank.handmade import close_savings, dispute_or_block
from domains.bank.invariants import INVARIANTS
from domains.bank.questions import QUESTIONS
from domains.bank.tools import BankTools
from domains.bank.world import build_world
from toolscale.kit import StatefulDomain, Template
from toolscale.kit.identify import Identification

GOALS = (*QUESTIONS, *CHANGES)


class BankDomain(StatefulDomain):
    """A retail bank's customer service: one bank of about 1,700 records per run seed."""

    name = "bank"
    version = "4.8"
    invariants = INVARIANTS
    identification = Identification("customer", ("email", "customer_id"))
    toolkit = BankTools
    rules = rules
    formulas = rules.FORMULAS
    entities = ENTITIES
    goals = GOALS
    handmade: ClassVar[dict[str, tuple[Template, int]]] = {
        "close_savings": (close_savings, 2),
        "dispute_or_block": (dispute_or_block, 3),
    }

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return build_world(rng)
