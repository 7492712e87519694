"""Derive OpenAI function schemas from a tool's type hints and Google docstring.

The derivation itself is transformers' `get_json_schema`; this module only normalises its output
into strict JSON Schema (nullable -> a "null" type, no extra properties, no "return" entry) so that
the same schema is shown to the model and enforced by the verifier with jsonschema.

transformers is imported on first use, and kept from importing torch: `get_json_schema` imports
torch (a second of start-up, half a second at exit, in every sandbox worker) only to map a
`torch.Tensor` hint, and a hint can only name `torch.Tensor` once torch is imported. So while
deriving, transformers is told torch is available exactly when it is already loaded: the same
schemas, without the import. Without torch installed (the plain `pip install toolscale`),
importing transformers prints "PyTorch was not found..." in every process that derives a schema
(the CLI and each sandbox worker): advice about models, which are not used here, so it is
silenced for that import only (`chat_template_utils()`).
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any
from unittest import mock


class SchemaError(ValueError):
    """A tool's signature or docstring cannot be turned into a schema."""


def _strict(node: dict[str, Any]) -> dict[str, Any]:
    node = dict(node)
    if node.pop("nullable", False):
        kind = node.get("type")
        if isinstance(kind, list):
            node["type"] = [*kind, "null"] if "null" not in kind else kind
        elif kind is not None:
            node["type"] = [kind, "null"]
    if "items" in node and isinstance(node["items"], dict):
        node["items"] = _strict(node["items"])
    if node.get("type") == "object" and "properties" in node:
        node["properties"] = {k: _strict(v) for k, v in node["properties"].items()}
        node["additionalProperties"] = False
    return node


def chat_template_utils() -> ModuleType:
    """transformers' schema derivation module, imported with transformers' advisory warnings
    off (the variable is read when the advice is logged, so it is restored right after)."""
    if "transformers" in sys.modules:
        from transformers.utils import chat_template_utils as derive

        return derive
    variable = "TRANSFORMERS_NO_ADVISORY_WARNINGS"
    previous = os.environ.get(variable)
    os.environ[variable] = "1"
    try:
        from transformers.utils import chat_template_utils as derive
    finally:
        if previous is None:
            del os.environ[variable]
        else:
            os.environ[variable] = previous
    return derive


def function_schema(fn: Callable[..., Any], name: str | None = None) -> dict[str, Any]:
    """Return `{"type": "function", "function": {name, description, parameters}}` for `fn`.

    Raises SchemaError naming the tool when a parameter lacks a type hint or a docstring entry.
    """
    derive = chat_template_utils()
    loaded = derive.is_torch_available() and "torch" in sys.modules
    try:
        with mock.patch.object(derive, "is_torch_available", lambda: loaded):
            raw = derive.get_json_schema(fn)
    except (derive.DocstringParsingException, derive.TypeHintParsingException, ValueError) as exc:
        raise SchemaError(f"tool {fn.__qualname__}: {exc}") from None
    function = raw["function"]
    parameters = function.get("parameters") or {"type": "object", "properties": {}}
    parameters.setdefault("properties", {})
    return {
        "type": "function",
        "function": {
            "name": name or function["name"],
            "description": function.get("description", ""),
            "parameters": _strict(parameters),
        },
    }


def with_arg_docs(doc: str | None, params: list[str], docs: Mapping[str, str]) -> str | None:
    """`doc` (a Google docstring) with an `Args:` entry for each of `params` that it does not
    describe and `docs` does: a parameter many tools share is described once, on the Toolkit
    (`Toolkit.param_docs`). `doc` is returned as it is when nothing is missing.

    >>> print(with_arg_docs("Get a table.", ["table_id"], {"table_id": "The id, e.g. T1."}))
    Get a table.
    <BLANKLINE>
    Args:
        table_id: The id, e.g. T1.
    """
    lines = inspect.cleandoc(doc or "").splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "Args:"), None)
    end = len(lines)
    if start is not None:
        after = (i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace())
        end = next(after, len(lines))
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
    section = lines[start + 1 : end] if start is not None else []
    described = {line.strip().split(":")[0].split(" ")[0] for line in section}
    missing = [p for p in params if p not in described and p in docs]
    if not missing:
        return doc
    entries = [f"    {p}: {docs[p]}" for p in missing]
    if start is None:
        return "\n".join([*lines, "", "Args:", *entries])
    return "\n".join([*lines[:end], *entries, *lines[end:]])
