"""The knowledge domain: questions over a generated corpus of documents about fictional entities.

Orchestration family (ToolOrchestra-style): the agent answers one question with BM25 search over
the run's corpus, a calculator and priced experts; the answer is a name or a number that only the
documents give. The corpus is shared by all tasks of a run seed (`corpus.py`); a task's state only
names it, plus the hidden answer key of the simulated experts.
"""

from __future__ import annotations

import random
from pathlib import Path

from domains.knowledge.tasks import TEMPLATES, sample_task
from domains.knowledge.tools import KnowledgeTools
from toolscale.core.contract import Domain, TaskSpec


class KnowledgeDomain(Domain):
    name = "knowledge"
    version = "3.3"
    family = "orchestration"
    toolkit = KnowledgeTools
    policy = (Path(__file__).parent / "policy.md").read_text()
    templates = TEMPLATES

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        return sample_task(rng, seed)
