"""A toolscale Toolkit over a tau2 environment: tau2's tools, schemas, tags and error rules.

Each tool of the tau2 toolkit becomes a method of a generated `Toolkit` subclass. A call runs as
tau2's `Environment.get_response` runs it: the tool, then `sync_tools`, then tau2's
`to_json_str` of the result; any exception the tool raises is returned to the model as
`Error: <message>` (a ToolError here, so the episode goes on), exactly tau2's text. Schemas are
tau2's own (`Tool.openai_schema`, `$defs` included). Kinds: a tool that mutates the state
(tau2's `mutates_state`, else its WRITE tag) is WRITE, a READ-tagged one READ, the rest GENERIC.

The episode's state is the database itself: `state` is `db.model_dump(mode="json")`, so
toolscale's state hash compares exactly what tau2's `get_db_hash` compares.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

from toolscale.core.contract import ToolError, ToolKind, Toolkit, ToolPrice
from toolscale.core.errors import ConfigError
from toolscale.tau2.loader import LoadedDomain, dump

_RESERVED = set(dir(Toolkit)) | {"env", "state", "usage"}


class Tau2Toolkit(Toolkit):
    """Base of the generated toolkits; `loaded` is set on each generated subclass."""

    loaded: LoadedDomain
    tool_schemas: tuple[str, ...] = ()

    def __init__(self, state: dict[str, Any] | str) -> None:
        self.usage = None
        self.env = type(self).loaded.make_env(state)

    @classmethod
    def opened(cls, state_json: str, parse: Callable[[str], dict[str, Any]]) -> Tau2Toolkit:
        """The database validated from the JSON itself: one step instead of parsing a copy and
        validating that (retail: ~70 ms instead of ~95 ms per fresh state)."""
        return cls(state_json)

    @property
    def state(self) -> dict[str, Any]:
        return dump(self.env.tools.db)

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        self.env = type(self).loaded.make_env(value)

    def fingerprint(self) -> str:
        """The database's JSON as pydantic writes it: ~4x cheaper than dumping it to a dict and
        hashing that (READ calls of a gold route are checked with it)."""
        return self.env.tools.db.model_dump_json(by_alias=True)

    @classmethod
    # The base's is a functools.cache wrapper, which mypy does not take for a classmethod.
    def _schemas(cls) -> tuple[str, ...]:  # type: ignore[override]
        return cls.tool_schemas

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        try:
            result = self.env.make_tool_call(name, requestor="assistant", **arguments)
            self.env.sync_tools()
        except Exception as exc:  # tau2 turns every tool exception into an error message
            raise ToolError(str(exc)) from exc
        return self.env.to_json_str(result)


def _kind(tools: Any, name: str) -> ToolKind:
    tag = str(getattr(tools.tool_type(name), "value", tools.tool_type(name)))
    mutates = getattr(tools, "tool_mutates_state", None)
    if mutates(name) if mutates is not None else tag == "write":
        return ToolKind.WRITE
    return ToolKind.READ if tag == "read" else ToolKind.GENERIC


_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "object": dict,
}


def _annotation(schema: dict[str, Any]) -> Any:
    """A Python type for a JSON schema, as plain as the trainer's schema derivation reads."""
    if "anyOf" in schema:  # tau2's Optional[X]: the non-null branch
        branches = [b for b in schema["anyOf"] if b.get("type") != "null"]
        return _annotation(branches[0]) if len(branches) == 1 else Any
    if schema.get("type") == "array":
        item = _annotation(schema.get("items", {}))
        return list if item is Any else list[item]  # type: ignore[valid-type]
    return _TYPES.get(schema.get("type", ""), Any)


def _method(name: str, schema: dict[str, Any]) -> Any:
    """The tool as a method with tau2's parameters as its signature and a Google docstring from
    tau2's schema (what the trainer's TRL environment derives its tool prompt from)."""

    def method(self: Tau2Toolkit, **arguments: Any) -> str:
        return self._call(name, arguments)

    function = schema["function"]
    parameters = function.get("parameters", {})
    required = set(parameters.get("required", []))
    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    lines = []
    for key, spec in parameters.get("properties", {}).items():
        annotation = _annotation(spec)
        optional = key not in required
        signature.append(
            inspect.Parameter(
                key,
                inspect.Parameter.KEYWORD_ONLY,
                default=None if optional else inspect.Parameter.empty,
                annotation=annotation | None if optional and annotation is not Any else annotation,
            )
        )
        text = " ".join(str(spec.get("description") or spec.get("title") or key).split())
        lines.append(f"    {key}: {text}")
    method.__name__ = method.__qualname__ = name
    method.__signature__ = inspect.Signature(signature, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = {p.name: p.annotation for p in signature[1:]} | {"return": str}
    description = function.get("description", "") or name
    method.__doc__ = description + ("\n\nArgs:\n" + "\n".join(lines) if lines else "")
    return method


def toolkit_class(loaded: LoadedDomain, class_name: str) -> type[Tau2Toolkit]:
    """The generated Toolkit subclass of a loaded tau2 domain."""
    tools = loaded.env.tools
    members: dict[str, Any] = {"loaded": loaded}
    schemas = []
    for name, tool in tools.get_tools().items():
        if name in _RESERVED:
            raise ConfigError(f"tau2 domain {loaded.short}: tool name {name!r} is reserved")
        schema = tool.openai_schema
        method = _method(name, schema)
        method.__toolscale_tool__ = (_kind(tools, name), ToolPrice())
        members[name] = method
        schemas.append((name, json.dumps(schema)))
    if not schemas:
        raise ConfigError(f"tau2 domain {loaded.short} offers no tools")
    # Toolkit.specs() lists tools in name order; the schemas follow the same order.
    members["tool_schemas"] = tuple(s for _, s in sorted(schemas))
    return type(class_name, (Tau2Toolkit,), members)
