"""Price schedules: one cost model in US dollars for every tool, model and the orchestrator.

A schedule turns the tools a domain declares (`@tool(kind, fee=..., latency_ms=...)`, which are
the `standard` schedule's prices) into a task's price table: `{tool: price, model alias: price,
"orchestrator": price}`, each price a `ToolPrice` in dollars with a modelled latency. A task draws
its schedule, and optionally a random subset of its tools (`tool_dropout`), from its own RNG
(`prices_rng`), so a run is deterministic and `validate` rebuilds the table from the row's
(domain, seed, index) and the run's settings. The table a task shows the model is the one its
reward uses. How one call is priced from the table is `price_call` (docs/rewards.md has worked
examples). This module does not decide what a route is worth: `toolscale.judge.rewards` does.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from toolscale.core.contract import PRICE_FIELDS, Domain, ToolKind, ToolPrice
from toolscale.core.errors import ConfigError

ORCHESTRATOR = "orchestrator"  # the price-table entry of the policy's own tokens
FREE = ToolPrice()


def text_tokens(text: str) -> int:
    """Tokens of a text, estimated as ceil(characters / 4): no tokenizer is assumed, since the
    policy that will read the data is not known when it is made (about right for English and
    JSON with the common BPE vocabularies)."""
    return -(-len(text) // 4)


def _price(values: Mapping[str, float]) -> ToolPrice:
    unknown = set(values) - set(PRICE_FIELDS)
    if unknown:
        raise ValueError(f"unknown price fields {sorted(unknown)}; use {list(PRICE_FIELDS)}")
    return ToolPrice(**values)


class Schedule(BaseModel):
    """One provider-like price schedule. Tool prices: `tools[name]` when given, else the tool's
    declared (standard) price with its fee and latency scaled by its kind, where a tool that
    declares no price takes `kind_defaults[kind]`. Models and the orchestrator are priced here."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str
    fee_scale: dict[str, float] = {}
    latency_scale: dict[str, float] = {}
    kind_defaults: dict[str, dict[str, float]] = {}
    tools: dict[str, dict[str, float]] = {}
    models: dict[str, dict[str, float]]
    orchestrator: dict[str, float]

    @field_validator("kind_defaults", "tools", "models")
    @classmethod
    def _prices(cls, value: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
        for entry in value.values():
            _price(entry)
        return value

    @field_validator("orchestrator")
    @classmethod
    def _orchestrator(cls, value: dict[str, float]) -> dict[str, float]:
        _price(value)
        return value

    @field_validator("fee_scale", "latency_scale")
    @classmethod
    def _scales(cls, value: dict[str, float]) -> dict[str, float]:
        for kind, factor in value.items():
            if kind not in {k.value for k in ToolKind}:
                raise ValueError(f"unknown tool kind {kind!r}; use {[k.value for k in ToolKind]}")
            if not factor >= 0:
                raise ValueError(f"scale of {kind} must be >= 0, not {factor}")
        return value

    def tool_price(self, name: str, kind: ToolKind, declared: ToolPrice) -> ToolPrice:
        if name in self.tools:
            return _price(self.tools[name])
        base = declared
        if declared.is_free() and kind.value in self.kind_defaults:
            base = _price(self.kind_defaults[kind.value])
        return replace(
            base,
            fee=base.fee * self.fee_scale.get(kind.value, 1.0),
            latency_ms=base.latency_ms * self.latency_scale.get(kind.value, 1.0),
        )


# The `standard` kind defaults: a database read or write behind a service, a local helper.
_STANDARD_KINDS = {
    "read": {"fee": 0.0002, "latency_ms": 120, "ms_per_token": 0.5},
    "write": {"fee": 0.001, "latency_ms": 400, "ms_per_token": 0.5},
    "generic": {"fee": 0.00001, "latency_ms": 10},
}

BUILTIN: dict[str, Schedule] = {
    s.name: s
    for s in (
        Schedule(
            name="standard",
            description="hosted APIs at 2025 list prices: a GPT-5-class expert-1, mini and nano "
            "experts, a $5/1000 search API, an 8B orchestrator at $0.10/$0.40 per 1M tokens",
            kind_defaults=_STANDARD_KINDS,
            models={
                "expert-1": {"input_per_m": 1.25, "output_per_m": 10.0, "latency_ms": 800,
                             "ms_per_token": 15},
                "expert-2": {"input_per_m": 0.25, "output_per_m": 2.0, "latency_ms": 500,
                             "ms_per_token": 8},
                "expert-3": {"input_per_m": 0.05, "output_per_m": 0.4, "latency_ms": 300,
                             "ms_per_token": 4},
            },
            orchestrator={"input_per_m": 0.10, "output_per_m": 0.40, "latency_ms": 150,
                          "ms_per_token": 12},
        ),
        Schedule(
            name="open_weights",
            description="self-hosted open-weight experts (cheaper tokens, slower), a "
            "self-hosted search index, slower shared infrastructure",
            fee_scale={"read": 0.25, "write": 0.5, "generic": 0.5},
            latency_scale={"read": 1.5, "write": 1.5, "generic": 1.5},
            kind_defaults=_STANDARD_KINDS,
            tools={"search": {"fee": 0.001, "latency_ms": 700, "ms_per_token": 0.3}},
            models={
                "expert-1": {"input_per_m": 0.60, "output_per_m": 2.40, "latency_ms": 1200,
                             "ms_per_token": 25},
                "expert-2": {"input_per_m": 0.20, "output_per_m": 0.80, "latency_ms": 700,
                             "ms_per_token": 12},
                "expert-3": {"input_per_m": 0.05, "output_per_m": 0.20, "latency_ms": 400,
                             "ms_per_token": 6},
            },
            orchestrator={"input_per_m": 0.05, "output_per_m": 0.20, "latency_ms": 250,
                          "ms_per_token": 20},
        ),
        Schedule(
            name="premium",
            description="premium hosted services: a dearer, faster search and database, "
            "frontier experts at higher prices, a larger orchestrator",
            fee_scale={"read": 2.0, "write": 2.0, "generic": 2.0},
            latency_scale={"read": 0.6, "write": 0.6, "generic": 0.8},
            kind_defaults=_STANDARD_KINDS,
            tools={
                "search": {"fee": 0.01, "latency_ms": 250, "ms_per_token": 0.1},
                "code_executor": {"fee": 0.0002, "latency_ms": 200, "ms_per_token": 0.2,
                                  "per_second": 0.0005},
            },
            models={
                "expert-1": {"input_per_m": 2.50, "output_per_m": 20.0, "latency_ms": 600,
                             "ms_per_token": 10},
                "expert-2": {"input_per_m": 0.40, "output_per_m": 3.20, "latency_ms": 400,
                             "ms_per_token": 6},
                "expert-3": {"input_per_m": 0.10, "output_per_m": 0.80, "latency_ms": 200,
                             "ms_per_token": 3},
            },
            orchestrator={"input_per_m": 0.20, "output_per_m": 0.80, "latency_ms": 100,
                          "ms_per_token": 8},
        ),
        Schedule(
            name="seed",
            description="the seed's table read as dollars (calculator 0.1 / 10 ms, search 1.0 / "
            "500 ms, code_executor 0.5 / 100 ms), everything else priced on the same scale",
            kind_defaults={
                "read": {"fee": 0.2, "latency_ms": 100},
                "write": {"fee": 0.5, "latency_ms": 300},
                "generic": {"fee": 0.1, "latency_ms": 10},
            },
            tools={
                "calculator": {"fee": 0.1, "latency_ms": 10},
                "calculate": {"fee": 0.1, "latency_ms": 10},
                "search": {"fee": 1.0, "latency_ms": 500},
                "code_executor": {"fee": 0.5, "latency_ms": 100},
                "read_document": {"fee": 0.2, "latency_ms": 50},
                "transfer_to_human_agents": {"fee": 50.0, "latency_ms": 180000},
            },
            models={
                "expert-1": {"fee": 5.0, "latency_ms": 2000, "ms_per_token": 15},
                "expert-2": {"fee": 2.0, "latency_ms": 800, "ms_per_token": 8},
                "expert-3": {"fee": 1.0, "latency_ms": 300, "ms_per_token": 4},
            },
            orchestrator={"input_per_m": 100.0, "output_per_m": 400.0, "latency_ms": 150,
                          "ms_per_token": 12},
        ),
    )
}  # fmt: skip
DEFAULT_SCHEDULES = ("standard", "open_weights", "premium")


def load_schedule(name_or_path: str) -> Schedule:
    """A built-in schedule by name, or one from a YAML file (the fields of `Schedule`).

    Raises:
        ConfigError: an unknown name, an unreadable file, or an invalid (e.g. negative) price.
    """
    if name_or_path in BUILTIN:
        return BUILTIN[name_or_path]
    path = Path(name_or_path)
    if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
        raise ConfigError(
            f"unknown price schedule {name_or_path!r}; use one of {sorted(BUILTIN)} "
            "or the path of a schedule YAML file"
        )
    try:
        return Schedule.model_validate(yaml.safe_load(path.read_text()))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read price schedule {path}: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"price schedule {path}: {where}: {first['msg']}") from None


def parse_schedules(text: str) -> list[Schedule]:
    """`--price-schedules standard,premium,my.yaml` -> the schedules (no name twice)."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise ConfigError(f"--price-schedules needs at least one of {sorted(BUILTIN)}")
    schedules = [load_schedule(name) for name in names]
    seen = [s.name for s in schedules]
    if len(set(seen)) != len(seen):
        raise ConfigError(f"--price-schedules names a schedule twice: {seen}")
    return schedules


def check_dropout(value: float) -> None:
    if not 0.0 <= value < 1.0:
        raise ConfigError(f"--tool-dropout must be in [0, 1) (got {value}); 0 keeps every tool")


def prices_rng(domain: str, seed: int, index: int) -> random.Random:
    """The task's price RNG, apart from its item RNG so that the domain's tasks never change."""
    return random.Random(f"{domain}:{seed}:{index}:prices")


def price_table(
    domain: Domain,
    schedule: Schedule,
    overrides: Mapping[str, ToolPrice] | None = None,
    models: Mapping[str, ToolPrice] | None = None,
) -> dict[str, ToolPrice]:
    """Every tool's price under `schedule`, its models' and the orchestrator's, then the task's
    own `overrides` (a provider set-up). `models` holds the fee and token prices of models backed
    by a configured real endpoint: they replace the schedule's and the set-up's (what the
    endpoint bills is what the task shows), whose latency model still applies."""
    table = {
        name: schedule.tool_price(name, spec.kind, spec.price)
        for name, spec in domain.toolkit.specs().items()
    }
    for alias in domain.toolkit.models():
        if alias not in schedule.models:
            raise ConfigError(f"price schedule {schedule.name!r} has no price for model {alias!r}")
        table[alias] = _price(schedule.models[alias])
    table[ORCHESTRATOR] = _price(schedule.orchestrator)
    table.update(overrides or {})
    for alias, real in (models or {}).items():
        if alias in table:  # a real endpoint's own prices win; latency stays modelled
            table[alias] = replace(
                table[alias], fee=real.fee, input_per_m=real.input_per_m,
                output_per_m=real.output_per_m,
            )  # fmt: skip
    return table


def kept_tools(
    rng: random.Random, tools: Sequence[str], needed: set[str], dropout: float
) -> list[str]:
    """The tools a task offers: each tool not in `needed` (the gold route's) is dropped with
    probability `dropout`, one draw per tool in the given order."""
    return [t for t in tools if rng.random() >= dropout or t in needed]


def draw(
    rng: random.Random, schedules: Sequence[Schedule], dropout: float, tools: Sequence[str],
    needed: set[str],
) -> tuple[Schedule, list[str]]:  # fmt: skip
    """The task's schedule (uniform over `schedules`) and the tools it keeps."""
    schedule = schedules[rng.randrange(len(schedules))]
    return schedule, kept_tools(rng, tools, needed, dropout)


def price_call(
    table: Mapping[str, Mapping[str, float]],
    name: str,
    output: str,
    model: str | None = None,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
) -> tuple[float, float]:
    """(cost in $, latency in ms) of one executed call.

    latency = latency_ms + ms_per_token * tokens of the output, plus for a model call the model's
    latency_ms + ms_per_token * completion tokens; cost = fee + per_second * latency in seconds
    + prompt and completion tokens at the model's $ per 1M. Example (standard): a calculator call
    printing "36" costs $0.00001 and takes 10 ms.
    """
    price = _as_price(table.get(name))
    latency = price.latency_ms + price.ms_per_token * text_tokens(output)
    cost = price.fee
    if model is not None:
        m = _as_price(table.get(model))
        latency += m.latency_ms + m.ms_per_token * completion_tokens
        cost += m.fee + (prompt_tokens * m.input_per_m + completion_tokens * m.output_per_m) / 1e6
    cost += price.per_second * latency / 1000.0
    return round(cost, 12), round(latency, 6)


def price_orchestrator(
    table: Mapping[str, Mapping[str, float]], input_tokens: int, output_tokens: int, turns: int
) -> tuple[float, float]:
    """(cost, latency_ms) of the orchestrator's own work: tokens read and written at its $ per
    1M, `latency_ms` per turn plus `ms_per_token` per token written."""
    price = _as_price(table.get(ORCHESTRATOR))
    cost = (input_tokens * price.input_per_m + output_tokens * price.output_per_m) / 1e6
    latency = price.latency_ms * turns + price.ms_per_token * output_tokens
    return round(cost, 12), round(latency, 6)


def _as_price(entry: Mapping[str, float] | None) -> ToolPrice:
    if entry is None:
        return FREE
    return ToolPrice(**{k: entry.get(k, 0.0) for k in PRICE_FIELDS})


def schedule_dump(schedules: Sequence[Schedule]) -> list[dict[str, Any]]:
    """The schedules as saved in run.json (`config.price_schedules`): enough to rebuild."""
    return [s.model_dump() for s in schedules]


def _money(value: float) -> str:
    return f"${value:.6f}".rstrip("0").rstrip(".") if value else "$0"


def _latency(price: ToolPrice, per: str) -> str:
    parts = [f"{price.latency_ms:g} ms"] if price.latency_ms else []
    if price.ms_per_token:
        parts.append(f"{price.ms_per_token:g} ms per {per}")
    return " + ".join(parts) or "0 ms"


def describe(
    table: Mapping[str, Mapping[str, float]],
    tools: Sequence[str],
    model_tools: Collection[str] = ("ask_expert",),
) -> str:
    """The task's price table as the model reads it, appended to its system prompt: what each
    offered tool, each model and the orchestrator's own tokens cost, in US dollars, and how
    long each takes; a tool that calls a model (`model_tools`) costs that model's tokens. The
    reward prices the attempt from exactly this table."""
    lines = [
        "## Prices for this task",
        "",
        "Every call is charged in US dollars and adds to the user's wait; your own tokens are",
        "charged too (what you read from tool results and what you write). Prefer the cheapest",
        "and fastest route that reliably gives a correct answer.",
        "",
        "| tool or model | cost | latency |",
        "|---|---|---|",
    ]
    models = [n for n in table if n not in tools and n != ORCHESTRATOR]
    for name in tools:
        price = _as_price(table.get(name))
        cost = _money(price.fee) + " per call"
        if price.per_second:
            cost += f" + {_money(price.per_second)} per second of run time"
        if name in model_tools and models:
            cost = "the chosen model's tokens (below)"
        lines.append(f"| {name} | {cost} | {_latency(price, 'token of output')} |")
    for name in models:
        price = _as_price(table[name])
        cost = (
            f"{_money(price.input_per_m)} / {_money(price.output_per_m)} per 1M input / output "
            "tokens (reasoning included: an answer often takes thousands)"
        )
        if price.fee:
            cost = f"{_money(price.fee)} per call + {cost}"
        lines.append(f"| {name} | {cost} | {_latency(price, 'output token')} |")
    own = _as_price(table.get(ORCHESTRATOR))
    wait = f"{own.latency_ms:g} ms per turn + {own.ms_per_token:g} ms per token written"
    lines.append(
        f"| you (the orchestrator) | {_money(own.input_per_m)} / {_money(own.output_per_m)} per "
        f"1M tokens read / written | {wait} |"
    )
    return "\n".join(lines)


@dataclass(frozen=True)
class Economics:
    """A run's price settings: the schedules tasks draw from, the tool dropout probability, and
    model prices that replace the schedule's (experts backed by configured endpoints)."""

    schedules: tuple[Schedule, ...] = (BUILTIN["standard"],)
    tool_dropout: float = 0.0
    models: dict[str, ToolPrice] = field(default_factory=dict)
