"""Finder, lister and search tools written once: `finder` / `lister` / `searcher` make the READ
tool a domain would otherwise write again for every entity (get a record by id, find one by
email, list an owner's, list those whose fields equal the arguments).

    class ShopTools(StatefulGenericTools):
        get_customer = finder("customer", "customer_id", "Get a customer's profile.")
        find_customer_by_email = finder("customer", "email")
        list_customer_orders = lister("order", "customer")
        search_products = searcher("product", ("category", "brand"), "List products of ...")

Each is a real method with a one-parameter signature (its name: the field), the `@finds` /
`@lists` link and the READ mark. Its docstring is `doc` (by default a sentence naming the
entity and the field) and an `Args:` entry: `arg`, else the Toolkit's `param_docs` entry, else
"The <entity>'s <field>."; `view(state, record)` may add fields to what it returns (a
restaurant's name). Tables and keys follow the entity defaults (`toolscale.kit.declare.Entity`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from toolscale.core.contract import ToolKind, tool
from toolscale.kit.declare import finds, lists
from toolscale.kit.lookups import find_by, lookup
from toolscale.tools.bounds import text

Record = dict[str, Any]
View = Callable[[Record, Record], Record]


def _method(
    name: str,
    params: tuple[str, ...],
    doc: str,
    args: dict[str, str],
    fallback: dict[str, str],
    body: Callable[..., Any],
    returns: Any,
) -> Callable[..., Any]:
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature(
        [
            inspect.Parameter("self", kind),
            *(inspect.Parameter(p, kind, annotation=str) for p in params),
        ],
        return_annotation=returns,
    )

    def method(*given: Any, **named: Any) -> Any:
        bound = signature.bind(*given, **named).arguments
        return body(bound["self"], *(bound[p] for p in params))

    method.__signature__ = signature  # type: ignore[attr-defined]
    method.__annotations__ = {**dict.fromkeys(params, str), "return": returns}
    method.__name__ = method.__qualname__ = name
    entries = "".join(f"\n    {p}: {text}" for p, text in args.items() if text)
    method.__doc__ = f"{doc}\n\nArgs:{entries}" if entries else doc
    method.__toolscale_param_defaults__ = fallback  # type: ignore[attr-defined]
    return method


def _words(name: str) -> str:
    return name.replace("_", " ")


def finder(
    entity: str,
    by: str,
    doc: str = "",
    *,
    arg: str = "",
    table: str = "",
    view: View | None = None,
) -> Callable[..., Any]:
    """A READ tool returning the `entity` record whose field `by` equals its one argument (by
    dict key when `by` is the entity's key, `{entity}_id`; else ignoring case)."""
    table, noun, field = table or f"{entity}s", _words(entity), _words(by)
    doc = doc or f"Find a {noun} by {field} and return its record."
    fallback = f"The {noun}'s {field}."

    def body(kit: Any, value: str) -> Record:
        if by == f"{entity}_id":
            record = lookup(kit.state, table, value, entity)
        else:
            record = find_by(kit.state, table, by, value, entity)
        return view(kit.state, record) if view else record

    method = _method(f"find_{entity}_by_{by}", (by,), doc, {by: arg}, {by: fallback}, body, Record)
    return tool(ToolKind.READ)(finds(entity, by=by)(method))


def lister(
    entity: str,
    of: str,
    doc: str = "",
    *,
    arg: str = "",
    table: str = "",
    view: View | None = None,
) -> Callable[..., Any]:
    """A READ tool listing the `entity` records whose `{of}_id` is its one argument (the owner's
    id, checked to exist)."""
    table, key = table or f"{entity}s", f"{of}_id"
    doc = doc or f"List a {_words(of)}'s {_words(entity)}s, each with all its fields."
    fallback = f"The {_words(of)}'s id."

    def body(kit: Any, value: str) -> list[Record]:
        owner = lookup(kit.state, f"{of}s", value, of)[key]
        found = [r for r in kit.state[table].values() if r[key] == owner]
        return [view(kit.state, r) for r in found] if view else found

    method = _method(
        f"list_{of}_{entity}s", (key,), doc, {key: arg}, {key: fallback}, body, list[Record]
    )
    return tool(ToolKind.READ)(lists(entity, of=of)(method))


def searcher(
    entity: str,
    fields: tuple[str, ...],
    doc: str,
    *,
    table: str = "",
    view: View | None = None,
) -> Callable[..., Any]:
    """A READ tool listing the `entity` records whose `fields` equal its arguments of the same
    names (ignoring case and surrounding spaces); an argument's description comes from the
    Toolkit's `param_docs`, else "The <field>, as the records write it."."""
    table = table or f"{entity}s"

    def body(kit: Any, *values: str) -> list[Record]:
        wanted = [
            text(v, f, max_chars=80).strip().casefold() for f, v in zip(fields, values, strict=True)
        ]
        return [
            view(kit.state, r) if view else r
            for r in kit.state[table].values()
            if [str(r[f]).casefold() for f in fields] == wanted
        ]

    fallback = {f: f"The {_words(f)}, as the records write it." for f in fields}
    method = _method(f"search_{table}", fields, doc, {}, fallback, body, list[Record])
    return tool(ToolKind.READ)(method)
