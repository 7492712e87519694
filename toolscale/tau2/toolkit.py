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

import json
from typing import Any

from toolscale.contract import ToolError, ToolKind, Toolkit, ToolPrice
from toolscale.errors import ConfigError
from toolscale.tau2.loader import LoadedDomain, dump

_RESERVED = set(dir(Toolkit)) | {"env", "state", "usage"}


class Tau2Toolkit(Toolkit):
    """Base of the generated toolkits; `loaded` is set on each generated subclass."""

    loaded: LoadedDomain
    tool_schemas: tuple[str, ...] = ()

    def __init__(self, state: dict[str, Any]) -> None:
        self.usage = None
        self.env = type(self).loaded.make_env(state)

    @property  # type: ignore[override]
    def state(self) -> dict[str, Any]:
        return dump(self.env.tools.db)

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        self.env = type(self).loaded.make_env(value)

    @classmethod
    def _schemas(cls) -> tuple[str, ...]:
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


def _method(name: str, doc: str) -> Any:
    def method(self: Tau2Toolkit, **arguments: Any) -> str:
        return self._call(name, arguments)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc
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
        method = _method(name, schema["function"].get("description", ""))
        method.__toolscale_tool__ = (_kind(tools, name), ToolPrice())  # type: ignore[attr-defined]
        members[name] = method
        schemas.append((name, json.dumps(schema)))
    if not schemas:
        raise ConfigError(f"tau2 domain {loaded.short} offers no tools")
    # Toolkit.specs() lists tools in name order; the schemas follow the same order.
    members["tool_schemas"] = tuple(s for _, s in sorted(schemas))
    return type(class_name, (Tau2Toolkit,), members)
