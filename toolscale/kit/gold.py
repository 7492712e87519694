"""`GoldRunner`: play a template's gold actions through the real toolkit, recording each one.

The runner works on a private copy of the state, so a template can read the world freely; a
gold action that breaks the domain's policy raises its ToolError while sampling (a bug in the
template, reported with its traceback), never later in the pipeline. An action is recorded only
once it has run.
"""

from __future__ import annotations

import json
from typing import Any

from toolscale.core.contract import Action, Toolkit, tool_text
from toolscale.sample import worlds


class GoldRunner:
    def __init__(self, toolkit: type[Toolkit], state: dict[str, Any]) -> None:
        self.kit = toolkit(worlds.MEMO.copy(state))
        self.actions: list[Action] = []

    def __call__(self, name: str, /, **arguments: Any) -> Any:
        """Run tool `name`; return its output, parsed when it is JSON text. A tool may return
        any JSON value (the sandbox writes it as canonical JSON); it comes back as a copy, so a
        template cannot change the runner's state through it."""
        output = getattr(self.kit, name)(**arguments)
        self.actions.append(Action(name, arguments))
        if not isinstance(output, str):
            return json.loads(tool_text(output))
        try:
            return json.loads(output)
        except json.JSONDecodeError:
            return output

    @property
    def state(self) -> dict[str, Any]:
        """The scratch state after the actions so far."""
        return self.kit.state
