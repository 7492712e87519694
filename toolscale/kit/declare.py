"""The declared form of a stateful domain on kit v2: entities, tool links, policy errors, goals.

A domain is data plus small functions (docs/kit.md has every field):

- `Entity`: a kind of record in the world (`state[table][id]`), who owns it, the fields a caller
  says unasked, how a caller describes one, and which field tells two alike records apart;
- tool links, on the Toolkit's `@tool` methods: `@finds("customer", by="email")` (a READ that
  returns the one record whose field equals its argument), `@lists("reservation",
  of="customer")` (a READ that lists an owner's records), `@raises(TooLate, ...)` (the
  `PolicyError`s a tool can raise). They make the tool graph the composer walks;
- `PolicyError`: one branch of the policy that refuses a request (`handoff = True`: a case for a
  human agent); its `shows` are the record values that prove the rule applies;
- `Goal`: what a caller wants done with records (the tool that does it, its arguments, the READ
  calls before it, the policy check it applies, how a caller words it and how the agent reports
  it). The composer (`toolscale.kit.compose`) turns each goal into intent kinds.

Nothing here runs tools or draws records; `toolscale.kit.graph` reads the links.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toolscale.core.contract import ToolError

Record = dict[str, Any]


class PolicyError(ToolError):
    """A request the policy refuses: raise it from a tool (and from the check its goal names).

    `shows` are values from the records that prove the rule applies (a date, a status, an amount,
    an id a look-up found); a refusal task makes them its required facts, so an agent must have
    looked them up. A subclass is one rule; `rule` defaults to its name in snake case
    (`TooLate` -> "too_late"). `handoff = True` marks a rule whose cases go to a human agent."""

    handoff: ClassVar[bool] = False
    rule: ClassVar[str] = ""

    def __init__(self, message: str, *, shows: tuple[Any, ...] = ()) -> None:
        super().__init__(message)
        self.shows = tuple(str(value) for value in shows)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "rule" not in cls.__dict__:
            cls.rule = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


@dataclass(frozen=True)
class Link:
    """What a tool is in the tool graph: a finder of `gives` by its field `by`, a lister of the
    `gives` records of an owner entity `of`, and the policy errors it `raises`."""

    gives: str = ""
    by: str = ""
    of: str = ""
    raises: tuple[type[PolicyError], ...] = ()


def _link(fn: Callable[..., Any], **changes: Any) -> Callable[..., Any]:
    current: Link = getattr(fn, "__toolscale_link__", Link())
    fn.__toolscale_link__ = Link(**{**current.__dict__, **changes})  # type: ignore[attr-defined]
    return fn


def finds(entity: str, *, by: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a READ tool whose one parameter is field `by` of an `entity` record, and which
    returns that record (`get_reservation(reservation_id)`, `find_customer_by_email(email)`)."""
    return lambda fn: _link(fn, gives=entity, by=by)


def lists(entity: str, *, of: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a READ tool whose one parameter is the id of an `of` record, and which lists the
    `entity` records it owns (`list_customer_reservations(customer_id)`)."""
    return lambda fn: _link(fn, gives=entity, of=of)


def raises(*errors: type[PolicyError]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a tool with the policy errors it can raise: each becomes a refusal (or hand-off)
    intent of the goals the tool serves."""
    return lambda fn: _link(fn, raises=errors)


@dataclass(frozen=True)
class Entity:
    """A kind of record: `state[table]` maps each id (its field `key`) to a record.

    `owner` / `owner_key`: the entity whose record owns this one and the field holding its id (a
    reservation's "customer_id"). `said`: fields a caller says unasked (a restaurant's name);
    any other field a finder takes is given only when the agent asks. `labels`: how a caller
    names a field ("phone" -> "phone number"; default: the field with spaces). `describe(record,
    world, precise)`: the caller's words for a record ("my dinner at Basil & Vine on Friday 20
    June"), without the `tell` detail when not `precise`; `alike(record)` is what an imprecise
    description names, so two records of one owner with equal `alike` and different `tell` are
    the two a clarification must choose between. `noun` is the record in a caller's words."""

    name: str
    table: str
    key: str
    owner: str = ""
    owner_key: str = ""
    said: tuple[str, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)
    describe: Callable[[Record, Record, bool], str] | None = None
    alike: Callable[[Record], Any] | None = None
    tell: str = ""
    noun: str = ""

    def label(self, field_name: str) -> str:
        return self.labels.get(field_name, field_name.replace("_", " "))

    @property
    def words(self) -> str:
        return self.noun or self.name.replace("_", " ")


@dataclass
class Draw:
    """The records (by entity name) and arguments one intent drew from the world."""

    rng: random.Random
    world: Record
    records: dict[str, Record]
    args: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, entity: str) -> Record:
        return self.records[entity]


Step = tuple[str, Callable[[Draw], dict[str, Any]]]


@dataclass(frozen=True)
class Goal:
    """Something a caller wants done (or to know) about records of the world.

    `tool` does it (a WRITE; a READ or `calculate` for a question; `transfer_to_human_agents`
    for a case only people handle), on the records of `needs` (entity names; an owner of one is
    implied) with `args(draw)`. `before` are READ calls (tool, args) made once the records are
    identified (a quote, a menu), and `price` a field of the last one's result that a caller may
    set a limit on ("only if the fee is under $20"; `price_noun` says it). `check(world, **args)`
    is the policy check the tool applies, raising its `PolicyError`s (the tool calls the same
    function); `when(draw)` says whether the drawn records fit the goal at all.

    `words`: how a caller says it, several wordings with the same placeholders: `{entity}`
    (that record's description) and `{argument}` (its value in words). A question's wordings are
    indirect questions ("what time {reservation} starts"). `done`: the agent's final message,
    with placeholders from the tool's result (and the last `before` result), `{entity}` and
    `{argument}` too. `report`: the required facts: fields of those results, or "entity.field".
    `extra(draw)`: more values for the wordings and the final message than the arguments hold
    (drawn first; `args` may read `draw.extra`). `derive(result)`: fields computed from the
    tool's result (the vegan dishes of a menu), which `done` and `report` may name; a list
    value is one fact per item. `motives`: reasons a caller gives. `weight`: how often its
    intents are drawn."""

    name: str
    tool: str
    needs: tuple[str, ...]
    args: Callable[[Draw], dict[str, Any]]
    words: tuple[str, ...]
    done: str
    report: tuple[str, ...] = ()
    before: tuple[Step, ...] = ()
    check: Callable[..., Any] | None = None
    when: Callable[[Draw], bool] | None = None
    price: str = ""
    price_noun: str = "fee"
    extra: Callable[[Draw], dict[str, Any]] | None = None
    derive: Callable[[Any], dict[str, Any]] | None = None
    motives: tuple[str, ...] = ()
    weight: int = 3


class Constants(dict[str, Any]):
    """The upper-case names of a rules module, for `render_policy`."""

    def __init__(self, rules: object) -> None:
        super().__init__({k: getattr(rules, k) for k in dir(rules) if k.isupper()})

    def __missing__(self, key: str) -> Any:
        raise KeyError(f"policy.md names {{{key}}}, which the rules module does not define")


def render_policy(template: str, rules: object | None) -> str:
    """`template` (a domain's policy.md) with each `{NAME}` replaced by the rules module's
    constant of that name (`{NAME:.2f}`, `{TABLE[key]}` work as in `str.format`); write a literal
    brace twice. Without a rules module the text is returned as it is."""
    return template if rules is None else template.format_map(Constants(rules))
