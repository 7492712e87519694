"""The math toolkit: the shared calculator, code executor and simulated experts, nothing else."""

from __future__ import annotations

from domains.math.solver import solve
from toolscale.tools.experts import ExpertTool
from toolscale.tools.orchestration import CalculatorTool, CodeExecutorTool


class MathTools(CalculatorTool, CodeExecutorTool, ExpertTool):
    """calculator, code_executor and ask_expert (priced by the task's schedule)."""

    def expert_knowledge(self, question: str) -> tuple[str, list[str]] | None:
        """A simulated expert solves the word problem or arithmetic stated in the question."""
        answer = solve(question)
        return None if answer is None else (answer, [])
