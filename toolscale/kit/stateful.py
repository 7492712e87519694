"""`StatefulDomain`: a stateful domain declared as data (kit v2), with no per-domain boilerplate.

A subclass sets `name`, `version`, `toolkit`, `entities`, `goals` (and optionally `rules`, the
module whose upper-case constants fill `policy.md`, and `handmade` templates) and writes
`build_world(rng)`; the base renders the policy from the `policy.md` beside the subclass's
module, builds the tool graph and the composed intents when the class is created (a bad
declaration fails at import), keeps the last few worlds it drew (one per run seed), and samples a
template by weight (`sample`) or by name (`sample_named`). docs/kit.md describes every field.
"""

from __future__ import annotations

import inspect
import random
import sys
from abc import abstractmethod
from collections import OrderedDict
from pathlib import Path
from typing import Any, ClassVar

from toolscale.core.contract import Family, TaskSpec
from toolscale.kit import misses, sampling
from toolscale.kit.compose import Composer
from toolscale.kit.declare import Entity, Goal, render_policy
from toolscale.kit.domain import KitDomain
from toolscale.kit.graph import ToolGraph
from toolscale.kit.identify import Identification
from toolscale.kit.invariants import Invariant
from toolscale.kit.sampling import Template

WORLDS_KEPT = 4  # run seeds whose world a domain object keeps


class StatefulDomain(KitDomain):
    """The base of a declared stateful domain (see the module docstring)."""

    family: ClassVar[Family] = "stateful"
    entities: ClassVar[tuple[Entity, ...]] = ()
    goals: ClassVar[tuple[Goal, ...]] = ()
    rules: object | None = None  # a module: set on the class, read as `cls.rules`
    handmade: ClassVar[dict[str, tuple[Template, int]]] = {}
    invariants: ClassVar[tuple[Invariant, ...]] = ()  # facts every world keeps (`invariants`)
    # whose profile the policy has the agent find first, and how (`kit.identify`)
    identification: ClassVar[Identification | None] = None
    composer: ClassVar[Composer]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not (cls.goals or cls.handmade):
            return  # an intermediate base, not a domain
        if getattr(cls, "policy", None) is None:
            folder = Path(inspect.getfile(sys.modules[cls.__module__])).parent
            text = (folder / "policy.md").read_text(encoding="utf-8")
            cls.policy = render_policy(text, cls.rules)
        graph = ToolGraph(cls.toolkit, cls.entities)
        cls.composer = Composer(graph, cls.goals, cls.policy, cls.identification)
        cls.goals = cls.composer.goals  # with their defaults filled in
        cls.template_table = {**cls.composer.templates(), **cls.handmade}
        cls.templates = tuple(cls.template_table)

    def __init__(self) -> None:
        self._worlds: OrderedDict[int, dict[str, Any]] = OrderedDict()

    @abstractmethod
    def build_world(self, rng: random.Random) -> dict[str, Any]:
        """The run's world, drawn from `rng` alone: every entity's table, hundreds of records."""

    def world(self, seed: int) -> dict[str, Any]:
        """The world of run seed `seed` (built once, kept for the last WORLDS_KEPT seeds);
        callers must not mutate it."""
        if seed not in self._worlds:
            self._worlds[seed] = self.build_world(random.Random(f"{self.name}:{seed}:world"))
            if len(self._worlds) > WORLDS_KEPT:
                self._worlds.popitem(last=False)
        self._worlds.move_to_end(seed)
        return self._worlds[seed]

    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        world = self.world(seed)
        return sampling.sample_task(rng, world, self.template_table, self.toolkit, self.policy)

    def why_nothing(self, name: str, world: dict[str, Any], seed: str) -> str:
        return misses.explain(self.composer, self.template_table[name][0], world, seed)
