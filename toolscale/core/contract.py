"""The domain contract: everything a domain plugin provides, in one file.

A domain is one folder (`domains/<name>/`, or any installed package) whose `__init__.py` holds the
`Domain` subclass tying it together: a seeded initial state, a `Toolkit` subclass whose `@tool`
methods are the tools, a sampler, and a policy (the system prompt). A stateful domain declares
them on the kit (toolscale.kit) in the same files every time, which docs/kit.md lists (the
seeded world, the policy's rules, the tools, the invariants, policy.md, and `__init__.py` with
the entities and goals; `toolscale new-domain NAME` writes one). An orchestration
domain (`domains/math/`) writes its own sampler. It registers under the `toolscale.domains`
group:

    [project.entry-points."toolscale.domains"]
    railway = "domains.railway:RailwayDomain"

State is plain JSON (dicts, lists, strings, numbers), so a fresh copy is one `json.loads` and its
hash is the hash of its canonical JSON. Tools mutate `self.state`; READ tools must not.
This module does not execute anything: the sandbox runs toolkits, the verifier judges traces;
what a domain tells the verifier (its judging hooks and formulas) is `toolscale.core.judging`.
The tool side (`Toolkit`, `@tool`, `ToolPrice`, `ToolError`) is `toolscale.core.tool_contract`,
re-exported here with everything else a domain imports.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from toolscale.core.answers import answer_matches as answer_matches
from toolscale.core.answers import committed_answer as committed_answer
from toolscale.core.answers import fact_stated as fact_stated
from toolscale.core.answers import normalize_text as normalize_text
from toolscale.core.ids import content_id as content_id
from toolscale.core.ids import item_rng as item_rng
from toolscale.core.ids import state_hash as state_hash
from toolscale.core.ids import template_rng as template_rng
from toolscale.core.judging import Formula as Formula
from toolscale.core.judging import JudgingHooks
from toolscale.core.scenario import BEHAVIOURS as BEHAVIOURS
from toolscale.core.scenario import Behaviour as Behaviour
from toolscale.core.scenario import UserScenario as UserScenario
from toolscale.core.state_text import canonical_json as canonical_json
from toolscale.core.state_text import canonical_state as canonical_state
from toolscale.core.tool_contract import PRICE_FIELDS as PRICE_FIELDS
from toolscale.core.tool_contract import ModelUsage as ModelUsage
from toolscale.core.tool_contract import ToolError as ToolError
from toolscale.core.tool_contract import ToolKind as ToolKind
from toolscale.core.tool_contract import Toolkit as Toolkit
from toolscale.core.tool_contract import ToolPrice as ToolPrice
from toolscale.core.tool_contract import ToolSpec as ToolSpec
from toolscale.core.tool_contract import derived_schemas as derived_schemas
from toolscale.core.tool_contract import prime_schemas as prime_schemas
from toolscale.core.tool_contract import tool as tool
from toolscale.core.tool_contract import tool_text as tool_text

Family = Literal["stateful", "orchestration"]
Difficulty = Literal["easy", "medium", "hard"]


@dataclass(frozen=True)
class Action:
    """One tool call: the tool's name and its keyword arguments."""

    name: str
    arguments: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "arguments": self.arguments}


@dataclass(frozen=True)
class Route:
    """One way to solve a task that the reference teacher can play, named for what it does
    ("calculator", "code_executor", "expert-2", "search+calculator"). `final_message` is what the
    agent ends with; None relays the answer of the route's last call (an expert's reply).
    A `detour` is a route a careful agent would not choose, and one that is never the best: a
    mistake it then corrects or a dearer way (another route's calls and more), or a cheap route
    that gets the answer wrong by construction. The oracle scores it like the others, and the
    reference teacher plays it, with `--detours` (`toolscale.oracle.played`).
    A route that asks an expert rests on its last expert's answer (its chance of being right is
    that expert's, `toolscale.sample.odds`) unless it is `checked`: it then works the answer out
    with other tools, whatever the expert said."""

    name: str
    actions: list[Action]
    final_message: str | None = None
    detour: bool = False
    checked: bool = False


@dataclass(frozen=True)
class TaskSpec:
    """The domain-specific part of one task, as a sampler returns it.

    `gold_actions` solve the task when run in order on `initial_state`; `final_message` is what a
    correct agent says at the end (it must contain every entry of `required_facts`, and `answer`
    when there is one). `alternatives` are other correct action lists (costlier or redundant
    routes) that the reference teacher plays with `--detours`. `prices` overrides the tools'
    default prices for this task. `scenario` makes the task a conversation: `instruction` is
    then the scenario's opening, and the agent asks the user for the rest. `routes` are every
    other route the task admits, each named and with its own final message (an orchestration
    domain's tools, experts and their combinations); `gold_route` names the gold actions among
    them. The pipeline plays them all and makes the best one the gold route (the oracle).
    `refused` is the call a refusal task's caller asks for, which the policy refuses for one
    reason (check-domain checks that it breaks exactly one rule); None on other tasks.
    """

    template: str
    difficulty: Difficulty
    instruction: str
    initial_state: dict[str, Any]
    gold_actions: list[Action]
    final_message: str
    answer: str | None = None
    required_facts: list[str] = field(default_factory=list)
    alternatives: list[list[Action]] = field(default_factory=list)
    prices: dict[str, ToolPrice] = field(default_factory=dict)
    scenario: UserScenario | None = None
    routes: list[Route] = field(default_factory=list)
    gold_route: str = "gold"
    refused: Action | None = None


class Domain(JudgingHooks, ABC):
    """One domain plugin. Subclasses set the class attributes and implement `sample`; the judge's
    hooks (`JudgingHooks`: required facts, evidence, consent, refusal reasons, figures and
    formulas) have defaults a domain overrides where it judges its own way.

    `synthetic` says whether the domain's data (people, entities, documents) is generated rather
    than real (the data card says so). A domain whose tasks share one database per run seed
    returns it from `world(seed)`; each task's `initial_state` is then that world plus the
    task's own changes, and the dataset stores the world once per run (a `worlds` config) and
    each task as its difference from it.
    """

    name: ClassVar[str]
    version: ClassVar[str]
    family: ClassVar[Family]
    toolkit: ClassVar[type[Toolkit]]
    policy: ClassVar[str]
    templates: ClassVar[tuple[str, ...]]
    synthetic: ClassVar[bool] = True
    # Whether a gold call may be answered with a tool error: tau2's gold routes hold such calls,
    # which its evaluator runs and ignores; the expected state is what the others leave.
    gold_errors_allowed: ClassVar[bool] = False
    # The preference profiles its tasks may be drawn with (`toolscale.economics.preferences`);
    # None: every configured one. A domain whose answer is written by a model it hands the
    # question to leaves out a format the policy would have to write itself.
    profiles: ClassVar[tuple[str, ...] | None] = None

    def world(self, seed: int) -> dict[str, Any] | None:
        """The run's shared database for run seed `seed` (derived from `seed` alone), or None
        when every task builds its own state. Callers must not mutate it."""
        return None

    @abstractmethod
    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        """Return task `index` of run seed `seed`, drawing every random choice from `rng` only
        (`rng` is `item_rng(name, seed, index)`; `seed` is given for run-wide resources such as a
        shared corpus, which must themselves be derived from `seed` alone)."""

    def sample_named(self, rng: random.Random, seed: int, index: int, name: str) -> TaskSpec:
        """A task of template `name` (one of `templates`) however rarely `sample` draws it, every
        choice drawn from `rng` (`template_rng`): check-domain checks each template of a domain
        that has it (a domain on the kit does). Without it the domain is sampled by weight only."""
        raise NotImplementedError(f"domain {self.name} samples no template by name")
