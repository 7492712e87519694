"""The tool side of the domain contract: tool kinds, prices, the `@tool` mark and `Toolkit`.

A domain's tools are the `@tool` methods of its `Toolkit` subclass; their type hints and Google
docstrings become the JSON schemas the model reads (`toolscale.core.schema`), derived once per
process or handed in by a parent process that derived them (`prime_schemas`). `ToolError` is a
mistake the model made, returned to it as the tool's output. `toolscale.core.contract` re-exports
everything here: domains import it from there.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar

from toolscale.core.ids import state_hash
from toolscale.core.schema import function_schema, with_arg_docs


class ToolKind(StrEnum):
    """How a tool relates to the state: READ never changes it, WRITE may, GENERIC ignores it,
    MODEL calls a language model (an expert) and is priced per token."""

    READ = "read"
    WRITE = "write"
    GENERIC = "generic"
    MODEL = "model"


PRICE_FIELDS = ("fee", "latency_ms", "ms_per_token", "per_second", "input_per_m", "output_per_m")


@dataclass(frozen=True)
class ToolPrice:
    """What one call costs, in US dollars, and how long it takes (`toolscale.economics.prices`
    prices a call from it; docs/rewards.md has worked examples).

    `fee` is $ per call; `per_second` $ per modelled second (compute-priced tools such as
    `code_executor`); `input_per_m` / `output_per_m` $ per 1M prompt / completion tokens (model
    tools and the orchestrator itself). Latency is modelled, never measured, so a row can be
    rebuilt: `latency_ms` per call plus `ms_per_token` per token the tool (or model) outputs.
    """

    fee: float = 0.0
    latency_ms: float = 0.0
    ms_per_token: float = 0.0
    per_second: float = 0.0
    input_per_m: float = 0.0
    output_per_m: float = 0.0

    def __post_init__(self) -> None:
        for name in PRICE_FIELDS:
            value = getattr(self, name)
            if not (isinstance(value, int | float) and value >= 0 and value != float("inf")):
                raise ValueError(f"price field {name} must be a finite number >= 0, not {value!r}")

    def as_dict(self) -> dict[str, float]:
        return {name: float(getattr(self, name)) for name in PRICE_FIELDS}

    def is_free(self) -> bool:
        return not any(getattr(self, name) for name in PRICE_FIELDS)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    kind: ToolKind
    price: ToolPrice


def tool(
    kind: ToolKind,
    *,
    fee: float = 0.0,
    latency_ms: float = 0.0,
    ms_per_token: float = 0.0,
    per_second: float = 0.0,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a Toolkit method as a tool. Its type hints and Google docstring become its schema,
    so write the docstring for the model that will read it. The price is the tool's price in the
    `standard` schedule ($ per call, modelled latency); a tool that gives none gets its kind's
    default there (a READ or WRITE of a stateful domain is never free)."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        price = ToolPrice(fee, latency_ms, ms_per_token, per_second)
        fn.__toolscale_tool__ = (kind, price)  # type: ignore[attr-defined]
        return fn

    return mark


class ToolError(Exception):
    """An error the model caused (unknown id, a policy the call breaks, bad input).

    The sandbox returns it to the model as the tool's output and the episode goes on.
    Any other exception raised by a tool is a bug in the tool and makes the call a crashed call.
    """


def tool_text(output: Any) -> str:
    """What the model reads of a tool's output: text as it is, any other JSON value (a dict, a
    list, a number) as its JSON text (`json.dumps`, keys in the tool's order), so a tool may
    return either. A value JSON cannot hold is a bug in the tool (TypeError)."""
    return output if isinstance(output, str) else json.dumps(output)


@dataclass
class ModelUsage:
    """Token usage of one MODEL tool call, reported by the tool through `Toolkit.record_usage`."""

    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    simulated: bool


class Toolkit:
    """Base class of a domain's tools. `self.state` is the episode's own mutable JSON state.
    `param_docs` describes parameters many tools share ({"reservation_id": 'The reservation id,
    such as "RS12345".'}); a tool's docstring may leave those out of its `Args:`."""

    param_docs: ClassVar[dict[str, str]] = {}
    # Tools that run code their caller wrote (through `toolscale.sandbox.run_code`): a model may
    # write such code only where the sandbox holds (`toolscale.sandbox.guard`).
    code_tools: ClassVar[tuple[str, ...]] = ()
    # Tools that hand the answer to a model (ToolOrchestra's `answer`): the reply of such a call,
    # when it is the attempt's last and the policy adds no message, is the final answer.
    answer_tools: ClassVar[tuple[str, ...]] = ()
    # Whether its code tools get the domain's own code (a route its sampler wrote), which they
    # may run outside the sandbox where that gives the sandbox's bytes (`toolscale.sandbox.own`);
    # False for every call a model makes. Set on the instance by whoever opens it.
    own_programs: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for member in vars(cls).values():
            if hasattr(member, "__toolscale_tool__"):  # a made tool may bring defaults
                docs = {**getattr(member, "__toolscale_param_defaults__", {}), **cls.param_docs}
                params = [p for p in inspect.signature(member).parameters if p != "self"]
                member.__doc__ = with_arg_docs(member.__doc__, params, docs)

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.usage: ModelUsage | None = None

    def record_usage(self, usage: ModelUsage) -> None:
        """Called by MODEL tools so that the call is priced from its real (or simulated) tokens."""
        self.usage = usage

    @classmethod
    def opened(cls, state_json: str, parse: Callable[[str], dict[str, Any]]) -> Toolkit:
        """A toolkit on a fresh state given as its JSON; `parse` makes that state (a new object
        the toolkit may change). A toolkit that validates its state into objects of its own may
        read the JSON itself instead."""
        return cls(parse(state_json))

    def fingerprint(self) -> str:
        """A value that changes whenever the state does, for checking that a READ call left it
        as it was: the state's hash. A toolkit whose state is costly to turn into canonical JSON
        may return its state's JSON text in any key order instead; two such texts that differ
        are then compared by the state hash."""
        return state_hash(self.state)

    @classmethod
    def models(cls) -> tuple[str, ...]:
        """The model aliases MODEL tools call; the price schedule prices each per token."""
        return ()

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
        key, mark = _toolkit_key(cls), _tools_mark(cls)
        primed = _PRIMED.get(key)
        if primed is not None and primed[0] == mark:
            return primed[1]
        derived = tuple(
            json.dumps(function_schema(getattr(cls, name), name=name)) for name in cls.specs()
        )
        _DERIVED[key] = (mark, derived)
        return derived

    @classmethod
    def schemas(cls) -> list[dict[str, Any]]:
        """OpenAI function schemas of every tool, derived from hints and docstrings."""
        return [json.loads(s) for s in cls._schemas()]


# Tool schemas derived in this process, and those handed in by a parent process that derived
# them (`prime_schemas`), by toolkit: deriving imports transformers (~1 s), which a sandbox worker
# need not pay. A primed entry is used only while its mark (every tool's name, signature and
# docstring) equals the toolkit's own, so a schema can never outlive the code it describes.
_DERIVED: dict[str, tuple[str, tuple[str, ...]]] = {}
_PRIMED: dict[str, tuple[str, tuple[str, ...]]] = {}


def _toolkit_key(toolkit: type[Toolkit]) -> str:
    return f"{toolkit.__module__}.{toolkit.__qualname__}"


def _tools_mark(toolkit: type[Toolkit]) -> str:
    parts = []
    for name in toolkit.specs():
        fn = getattr(toolkit, name)
        parts.append(f"{name}{inspect.signature(fn)}\n{fn.__doc__}")
    return hashlib.sha256("\n\0".join(parts).encode()).hexdigest()


def derived_schemas() -> dict[str, tuple[str, tuple[str, ...]]]:
    """The tool schemas derived in this process so far, for `prime_schemas` in another."""
    return dict(_DERIVED)


def prime_schemas(schemas: dict[str, tuple[str, tuple[str, ...]]]) -> None:
    """Use schemas another process derived (`derived_schemas`) for toolkits whose tools match."""
    _PRIMED.update(schemas)
