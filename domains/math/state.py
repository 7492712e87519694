"""Build a math task's initial state: only the hidden answer key the simulated experts read."""

from __future__ import annotations

from typing import Any


def initial_state(answer: str) -> dict[str, Any]:
    """The state of one task: `{"expert": {"answer": ..., "distractors": []}}`.

    The tools are stateless (calculator, code execution); `ask_expert` reads the key to answer
    correctly with its accuracy, and otherwise offsets the number (no distractors needed).
    """
    return {"expert": {"answer": answer, "distractors": []}}
