"""`KitDomain`: a stateful domain on the kit, whose verifier requires look-up evidence and whose
templates can be sampled one by one (`sample_named`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from toolscale.core.contract import Domain, TaskSpec, ToolKind, UserScenario
from toolscale.core.judging import Looked
from toolscale.kit import sampling
from toolscale.kit.cited import cited_rules, rule_of
from toolscale.kit.consent import consent_problems
from toolscale.kit.evidence import established, missing_evidence
from toolscale.kit.sampling import KitError, Template

NAMED_DRAWS = 20  # draws of one template that found nothing before sample_named gives up


class KitDomain(Domain):
    """A stateful domain on the kit: its verifier requires the evidence of `missing_evidence`.
    `template_table` maps each template name to (template, weight); `sample_named` samples one
    (check-domain draws every template through it)."""

    template_table: ClassVar[dict[str, tuple[Template, int]]] = {}
    checks_figures: ClassVar[bool] = True

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        """Task `index` of run seed `seed`: a template drawn by weight (`sampling.sample_task`)."""
        world = self.world(seed)
        if world is None:
            raise KitError(f"{self.name} draws no world: a kit domain needs one")
        return sampling.sample_task(rng, world, self.template_table, self.toolkit, self.policy)

    def template_weights(self) -> dict[str, float]:
        """Each template's share of the draws by weight (check-domain names the rare ones)."""
        total = sum(weight for _, weight in self.template_table.values()) or 1
        return {name: weight / total for name, (_, weight) in self.template_table.items()}

    def sample_named(self, rng: random.Random, seed: int, index: int, name: str) -> TaskSpec:
        """Task `index` of run seed `seed` from template `name` alone (a KitError when the
        name is unknown, or the template found nothing to work on in NAMED_DRAWS draws)."""
        if name not in self.template_table:
            raise KitError(
                f"{self.name} has no template {name!r}; it has {list(self.template_table)}"
            )
        world = self.world(seed)
        if world is None:
            raise KitError(f"{self.name} draws no world: a kit domain needs one")
        table, template = self.template_table, self.template_table[name][0]
        opener = sampling.opener_of(rng, world, table, name) if len(table) > 1 else None
        for _ in range(NAMED_DRAWS):
            spec = sampling.sample_named(
                rng, world, name, template, self.toolkit, self.policy, opener
            )
            if spec is not None:
                return spec
        why = self.why_nothing(name, world, f"{self.name}:{seed}:{name}")  # one per template
        raise KitError(
            f"template {name} found nothing to work on in {NAMED_DRAWS} draws"
            + (f": {why}" if why else "")
        )

    def why_nothing(self, name: str, world: dict[str, Any], seed: str) -> str:
        """Why template `name` found nothing in `world`, in a sentence ("" when unknown); a
        domain that composes its templates says (`toolscale.kit.misses`). `seed` names the
        template and the world, not the draw: every draw gets the same sentence, so the
        report makes them one line."""
        return ""

    def _own(
        self, looked: list[Looked], gold: list[dict[str, Any]]
    ) -> tuple[list[Looked], list[tuple[str, Any]]]:
        """The calls of `looked` that may give evidence, and the gold route's READ calls."""
        specs = self.toolkit.specs()
        reads = [
            (a["name"], a["arguments"])
            for a in gold
            if a["name"] in specs and specs[a["name"]].kind is ToolKind.READ
        ]
        # Only the domain's own tools give evidence (a look-up, or a write's receipt): `calculate`
        # shows a sum of the numbers it was given, which an agent that never looked them up
        # could only have made up.
        own = (ToolKind.READ, ToolKind.WRITE)
        return [c for c in looked if c[0] in specs and specs[c[0]].kind in own], reads

    def evidence_problems(
        self,
        facts: list[str],
        scenario: UserScenario | None,
        looked: list[Looked],
        gold: list[dict[str, Any]],
    ) -> list[str]:
        return missing_evidence(facts, scenario, *self._own(looked, gold))

    def established(
        self,
        fact: str,
        scenario: UserScenario | None,
        looked: list[Looked],
        gold: list[dict[str, Any]],
    ) -> bool:
        return established(fact, scenario, *self._own(looked, gold))

    def consent_problems(
        self, scenario: UserScenario | None, turns: Sequence[tuple[str, str, Sequence[str]]]
    ) -> list[str]:
        return consent_problems(self.toolkit.specs(), scenario, turns)

    def refusal_problems(self, template: str, final_answer: str, records: list[str]) -> list[str]:
        rules = [rule for rule in map(rule_of, self.template_table) if rule]
        cited = cited_rules(rule_of(template), rules, final_answer, records)
        return [f"the refusal gives a reason that does not apply: {rule!r}" for rule in cited]
