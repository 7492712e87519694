"""Sandbox workers take the tool schemas their pool's process derived instead of importing
transformers to derive them again, and only while the tools are the ones those schemas describe."""

from __future__ import annotations

import json
import subprocess
import sys

from toolscale.core.registry import get_domain
from toolscale.core.tool_contract import (
    ToolKind,
    Toolkit,
    _toolkit_key,
    _tools_mark,
    derived_schemas,
    prime_schemas,
    tool,
)


def _toolkit(doc: str) -> type[Toolkit]:
    class Echo(Toolkit):
        @tool(ToolKind.READ)
        def echo(self, text: str) -> str:
            return text

    Echo.echo.__doc__ = doc
    return Echo


DOC = """Say it back.

        Args:
            text: What to say.
        """


def test_a_primed_schema_is_used_only_while_the_tools_match() -> None:
    same, changed = _toolkit(DOC), _toolkit(DOC.replace("Say it back", "Repeat it"))
    fake = ('{"type": "function", "function": {"name": "echo", "primed": true}}',)
    prime_schemas({_toolkit_key(same): (_tools_mark(same), fake)})
    assert same.schemas() == [{"type": "function", "function": {"name": "echo", "primed": True}}]
    # Another docstring is another mark: the stale entry is ignored and the schema derived.
    prime_schemas({_toolkit_key(changed): (_tools_mark(same), fake)})
    assert changed.schemas()[0]["function"]["description"] == "Repeat it."


def test_a_worker_primed_by_its_pool_never_imports_transformers() -> None:
    expected = get_domain("bank").toolkit.schemas()  # derived here, so offered to the worker
    primed = {k: v for k, v in derived_schemas().items() if "bank" in k}
    assert primed
    probe = (
        "import json, sys; from toolscale.core.contract import prime_schemas; "
        "from toolscale.sandbox.worker import Worker; "
        "from toolscale.sample.in_worker import build_named; "
        f"prime_schemas({primed!r}); "
        "item = Worker(15.0).call(build_named, ('bank', 0, 0, None, None)); "
        "print('transformers' in sys.modules); print(json.dumps(item.task.tools))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True
    )
    imported, tools = done.stdout.splitlines()
    assert imported == "False"
    assert json.loads(tools) == expected
