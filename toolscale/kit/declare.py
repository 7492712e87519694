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
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toolscale.core.contract import ToolError

Record = dict[str, Any]
# The rules broken inside `collecting()`, in the order checked; None outside it (raise_if raises).
_BROKEN: ContextVar[list[PolicyError] | None] = ContextVar("broken_rules", default=None)


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

    @classmethod
    def raise_if(cls, broken: bool, message: str, *shows: Any) -> None:
        """Raise this rule's error, with `message` and the values `shows`, when `broken`:
        `TooLate.raise_if(hours < 24, f"changes need a day's notice ...", reservation["time"])`.
        Inside `collecting()` the error is recorded and the check goes on, so that every rule a
        request breaks is found (`toolscale.kit.broken_rules`), not only the first."""
        if broken:
            error = cls(message, shows=shows)
            found = _BROKEN.get()
            if found is None:
                raise error
            found.append(error)

    def __init_subclass__(cls, handoff: bool | None = None, **kwargs: Any) -> None:
        """`class LargeParty(PolicyError, handoff=True): ...` declares a rule in one line."""
        super().__init_subclass__(**kwargs)
        if handoff is not None:
            cls.handoff = handoff
        if "rule" not in cls.__dict__:
            cls.rule = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


@contextmanager
def collecting() -> Iterator[list[PolicyError]]:
    """Within it, `raise_if` records a broken rule in the list it yields instead of raising."""
    found: list[PolicyError] = []
    token = _BROKEN.set(found)
    try:
        yield found
    finally:
        _BROKEN.reset(token)


def rule(name: str, *, handoff: bool = False) -> type[PolicyError]:
    """A `PolicyError` subclass declared in one line, in the calling module:
    `TooSoon = rule("TooSoon")` is `class TooSoon(PolicyError): ...` (`handoff=True` likewise)."""
    module = sys._getframe(1).f_globals.get("__name__", __name__)
    return type(name, (PolicyError,), {"__module__": module, "__qualname__": name}, handoff=handoff)


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
    the two a clarification must choose between. `noun` is the record in a caller's words.

    Defaults: `table` is the name plus "s", `key` the name plus "_id", `owner_key` the owner's
    name plus "_id"; an entity with `said` fields and no `describe` is described by the first of
    them (a restaurant by its name)."""

    name: str
    table: str = ""
    key: str = ""
    owner: str = ""
    owner_key: str = ""
    said: tuple[str, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)
    describe: Callable[[Record, Record, bool], str] | None = None
    alike: Callable[[Record], Any] | None = None
    tell: str = ""
    noun: str = ""

    def __post_init__(self) -> None:
        fill = object.__setattr__  # frozen: the defaults are set once, here
        fill(self, "table", self.table or f"{self.name}s")
        fill(self, "key", self.key or f"{self.name}_id")
        if self.owner and not self.owner_key:
            fill(self, "owner_key", f"{self.owner}_id")
        if self.describe is None and self.said:
            first = self.said[0]
            fill(self, "describe", lambda record, world, precise: str(record[first]))

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


Arguments = Callable[[Draw], dict[str, Any]]
Step = tuple[str, Arguments]


@dataclass(frozen=True)
class Goal:
    """Something a caller wants done (or to know) about records of the world.

    `tool` does it (a WRITE; a READ or `calculate` for a question; `transfer_to_human_agents`
    for a case only people handle), on the records of `needs` (entity names; an owner of one is
    implied) with `args(draw)`. `before` are READ calls (tool, args) made once the records are
    identified (a quote, a menu), and `price` a field of the last one's result that a caller may
    set a limit on ("only if the fee is under $20"; `price_noun` says it). `check(world, **args)`
    is the policy check the tool applies, raising its `PolicyError`s (the tool calls the same
    function); `when(draw)` says whether the drawn records fit the goal at all. Without a
    `check`, the composer tries the tool itself (on the task's scratch copy) and keeps the draws
    it accepts, or, for a refusal, the draws it refuses with that rule; a check only makes the
    drawing cheaper.

    `words`: how a caller says it, several wordings with the same placeholders: `{entity}`
    (that record's description) and `{argument}` (its value in words). A question's wordings are
    indirect questions ("what time {reservation} starts"). `done`: the agent's final message,
    with placeholders from the tool's result (and the last `before` result), `{entity}` and
    `{argument}` too. `report`: the required facts: fields of those results, or "entity.field".
    `extra(draw)`: more values for the wordings and the final message than the arguments hold
    (drawn first; `args` may read `draw.extra`). `derive(result)`: fields computed from the
    tool's result (the vegan dishes of a menu), which `done` and `report` may name; a list
    value is one fact per item. `motives`: reasons a caller gives; `motives_for(draw)` the ones
    that fit a draw, drawn from `motives` (a stolen card's block: not "my kids were playing with
    it"; default: all). `weight`: how often its intents are drawn.

    Defaults (`toolscale.kit.graph.ToolGraph`): `tool` is the goal's name (a goal named after
    its tool); `words` and `motives` may be one string, its items separated by "|"; without
    `needs`, the entities whose key is a
    parameter of the tool, in its order (`book_table(customer_id, restaurant_id, ...)` needs a
    customer and a restaurant); `price_noun` is the `price` field in words; without `args`, each
    parameter of the
    tool takes the value of that name from `extra`, else from the first drawn record holding a
    field of that name (`reservation_id` from the reservation); a `before` entry may be a tool
    name alone, its arguments filled the same way, from the goal's arguments first; a hand-off
    goal's summary names the goal and its records. Without `report`, the required facts are the
    placeholders of `done` that name result fields (not arguments, extras or entities) and its
    `{entity[field]}` fields. `refuses`: the rules of its tool this goal's records can break
    (None: all the tool raises), when the tool serves goals that meet different rules."""

    name: str
    tool: str = ""
    needs: tuple[str, ...] | None = None
    args: Arguments | None = None
    words: tuple[str, ...] | str = ()  # a str is split on "|" (__post_init__)
    done: str = ""
    report: tuple[str, ...] | None = None
    before: tuple[Step | str, ...] = ()
    check: Callable[..., Any] | None = None
    when: Callable[[Draw], bool] | None = None
    price: str = ""
    price_noun: str = ""
    extra: Callable[[Draw], dict[str, Any]] | None = None
    derive: Callable[[Any], dict[str, Any]] | None = None
    motives: tuple[str, ...] | str = ()  # likewise
    motives_for: Callable[[Draw], tuple[str, ...]] | None = None
    weight: int = 3
    refuses: tuple[type[PolicyError], ...] | None = None

    def __post_init__(self) -> None:
        fill = object.__setattr__  # frozen: the defaults are set once, here
        fill(self, "tool", self.tool or self.name)
        for name in ("words", "motives"):
            value = getattr(self, name)
            if isinstance(value, str):
                fill(self, name, tuple(part.strip() for part in value.split("|") if part.strip()))

    @property
    def needed(self) -> tuple[str, ...]:
        """`needs` once `ToolGraph.filled` has given it its default (what the composer reads)."""
        if self.needs is None:
            raise RuntimeError(f"goal {self.name}: needs read before ToolGraph.filled set it")
        return self.needs


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
