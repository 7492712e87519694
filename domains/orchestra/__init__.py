"""The `orchestra` domain: math problems and world questions asked through ToolOrchestra's
interface, where every call names a model and the environment hands it the question.

Orchestration family. The problems are the math and knowledge domains' own; the one tool is
`answer(expert)` (`toolscale.tools.delegate`), so what a policy learns here is the choice of
model under each task's prices and preference, never how to write a model's input.
"""

from __future__ import annotations

import random
from functools import cached_property
from pathlib import Path

from faker import Faker

from domains.knowledge.tasks import TEMPLATES as KNOWLEDGE_TEMPLATES
from domains.math.tasks import TEMPLATES as MATH_TEMPLATES
from domains.orchestra.tasks import build_task
from domains.orchestra.tools import OrchestraTools
from toolscale.core.contract import Domain, TaskSpec


class OrchestraDomain(Domain):
    name = "orchestra"
    version = "1.0"
    family = "orchestration"
    toolkit = OrchestraTools
    policy = (Path(__file__).parent / "policy.md").read_text()
    templates = (*MATH_TEMPLATES, *KNOWLEDGE_TEMPLATES)
    # Not `json_confidence`: the answer is the expert's reply, and a format of the user's own
    # would be a message the policy writes, stating the reply's answer, which this interface
    # leaves to the model it names. Not `avoid_tool`: there is one tool.
    profiles = ("none", "hurry", "cheap")

    @cached_property
    def _fake(self) -> Faker:
        """This domain's name source: building a Faker takes ~10 ms, so one is kept per domain."""
        return Faker()

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        return build_task(rng, seed, self._fake)
