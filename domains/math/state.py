"""Build a math task's initial state: empty, since every math tool is stateless."""

from __future__ import annotations

from typing import Any


def initial_state() -> dict[str, Any]:
    """The state of one task: `{}`. The calculator and the code executor keep nothing, and the
    simulated experts work from the question they are asked (`domains.math.solver`), so the
    state holds no answer key."""
    return {}
