"""The domain contract: everything a domain plugin provides, in one file.

A domain is one folder (`domains/<name>/`, or any installed package) with the same few files:
`state.py` (builds the seeded initial state), `tools.py` (a `Toolkit` subclass whose `@tool` methods
are the tools), `tasks.py` (the sampler), `policy.md` (the system prompt) and `__init__.py` (the
`Domain` subclass tying them together). It registers under the `toolscale.domains` group:

    [project.entry-points."toolscale.domains"]
    railway = "domains.railway:RailwayDomain"

State is plain JSON (dicts, lists, strings, numbers), so a fresh copy is one `json.loads` and its
hash is the hash of its canonical JSON. Tools mutate `self.state`; READ tools must not.
This module does not execute anything: the sandbox runs toolkits, the verifier judges traces.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar, Literal

from toolscale.schema import function_schema

Family = Literal["stateful", "orchestration"]
Difficulty = Literal["easy", "medium", "hard"]


class ToolKind(StrEnum):
    """How a tool relates to the state: READ never changes it, WRITE may, GENERIC ignores it,
    MODEL calls a language model (an expert) and is priced per token."""

    READ = "read"
    WRITE = "write"
    GENERIC = "generic"
    MODEL = "model"


@dataclass(frozen=True)
class ToolPrice:
    """What one call costs: `cost` units per call plus, for MODEL tools, $ per 1M tokens."""

    cost: float = 0.0
    latency_ms: float = 0.0
    input_per_m: float = 0.0
    output_per_m: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {
            "cost": self.cost,
            "latency_ms": self.latency_ms,
            "input_per_m": self.input_per_m,
            "output_per_m": self.output_per_m,
        }


@dataclass(frozen=True)
class ToolSpec:
    name: str
    kind: ToolKind
    price: ToolPrice


def tool(
    kind: ToolKind,
    *,
    cost: float = 0.0,
    latency_ms: float = 0.0,
    input_per_m: float = 0.0,
    output_per_m: float = 0.0,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a Toolkit method as a tool. Its type hints and Google docstring become its schema,
    so write the docstring for the model that will read it."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__toolscale_tool__ = (kind, ToolPrice(cost, latency_ms, input_per_m, output_per_m))  # type: ignore[attr-defined]
        return fn

    return mark


class ToolError(Exception):
    """An error the model caused (unknown id, a policy the call breaks, bad input).

    The sandbox returns it to the model as the tool's output and the episode goes on.
    Any other exception raised by a tool is a bug in the tool and makes the call a crashed call.
    """


@dataclass
class ModelUsage:
    """Token usage of one MODEL tool call, reported by the tool through `Toolkit.record_usage`."""

    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    simulated: bool


class Toolkit:
    """Base class of a domain's tools. `self.state` is the episode's own mutable JSON state."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.usage: ModelUsage | None = None

    def record_usage(self, usage: ModelUsage) -> None:
        """Called by MODEL tools so that the call is priced from its real (or simulated) tokens."""
        self.usage = usage

    @classmethod
    def model_prices(cls) -> dict[str, ToolPrice]:
        """Price-table entries of the models that MODEL tools call (per-token prices)."""
        return {}

    @classmethod
    @cache
    def specs(cls) -> dict[str, ToolSpec]:
        found: dict[str, ToolSpec] = {}
        for name, member in inspect.getmembers(cls, inspect.isfunction):
            mark = getattr(member, "__toolscale_tool__", None)
            if mark is not None and not name.startswith("_"):
                found[name] = ToolSpec(name, mark[0], mark[1])
        return found

    @classmethod
    @cache
    def _schemas(cls) -> tuple[str, ...]:
        return tuple(
            json.dumps(function_schema(getattr(cls, name), name=name)) for name in cls.specs()
        )

    @classmethod
    def schemas(cls) -> list[dict[str, Any]]:
        """OpenAI function schemas of every tool, derived from hints and docstrings."""
        return [json.loads(s) for s in cls._schemas()]


@dataclass(frozen=True)
class Action:
    """One tool call: the tool's name and its keyword arguments."""

    name: str
    arguments: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "arguments": self.arguments}


@dataclass(frozen=True)
class TaskSpec:
    """The domain-specific part of one task, as a sampler returns it.

    `gold_actions` solve the task when run in order on `initial_state`; `final_message` is what a
    correct agent says at the end (it must contain every entry of `required_facts`, and `answer`
    when there is one). `alternatives` are other correct action lists (costlier or redundant
    routes) that the reference teacher plays with `--detours`. `prices` overrides the tools'
    default prices for this task.
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


class Domain(ABC):
    """One domain plugin. Subclasses set the class attributes and implement `sample`."""

    name: ClassVar[str]
    version: ClassVar[str]
    family: ClassVar[Family]
    toolkit: ClassVar[type[Toolkit]]
    policy: ClassVar[str]
    templates: ClassVar[tuple[str, ...]]

    @abstractmethod
    def sample(self, rng: random.Random, seed: int, index: int) -> TaskSpec:
        """Return task `index` of run seed `seed`, drawing every random choice from `rng` only
        (`rng` is `item_rng(name, seed, index)`; `seed` is given for run-wide resources such as a
        shared corpus, which must themselves be derived from `seed` alone)."""

    def check_answer(self, expected: str, final_message: str) -> bool:
        """Whether `final_message` states the expected answer (orchestration domains)."""
        return answer_matches(expected, final_message)

    @classmethod
    def price_table(cls, overrides: dict[str, ToolPrice] | None = None) -> dict[str, ToolPrice]:
        """Every tool's price, the models' per-token prices, then the task's overrides."""
        table = {name: spec.price for name, spec in cls.toolkit.specs().items()}
        table.update(cls.toolkit.model_prices())
        table.update(overrides or {})
        return table


def item_rng(domain: str, seed: int, index: int) -> random.Random:
    """The one RNG of item (domain, seed, index): reproducible from those three values alone."""
    return random.Random(f"{domain}:{seed}:{index}")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


def content_id(value: Any) -> str:
    """A deterministic id: the first 16 hex digits of the SHA-256 of the canonical JSON."""
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()[:16]


_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*\d)")


def normalize_text(text: str) -> str:
    return " ".join(text.casefold().replace(",", "").split())


def _numbers(text: str) -> list[float]:
    return [float(m) for m in _NUMBER.findall(text.replace(",", ""))]


def answer_matches(expected: str, final_message: str) -> bool:
    """Numeric answers match the last number stated (relative tolerance 1e-6); text answers
    match when the normalised expected text appears in the normalised message."""
    try:
        target = float(expected.replace(",", ""))
    except ValueError:
        return normalize_text(expected) in normalize_text(final_message)
    stated = _numbers(final_message)
    return bool(stated) and abs(stated[-1] - target) <= 1e-6 * max(1.0, abs(target))


def fact_stated(fact: str, final_message: str) -> bool:
    """Whether a required fact appears in the final message. A numeric fact ("45.0") must equal
    one of the numbers stated ("45.00" counts, "145.0" does not); any other fact (a name, a
    date, an id) must appear as text, ignoring case, commas and spacing."""
    try:
        value = float(fact.replace(",", ""))
    except ValueError:
        return normalize_text(fact) in normalize_text(final_message)
    return any(abs(n - value) <= 1e-9 * max(1.0, abs(value)) for n in _numbers(final_message))
