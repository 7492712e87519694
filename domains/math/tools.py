"""The math toolkit: the shared calculator, code executor and simulated experts, nothing else."""

from __future__ import annotations

from domains.math.expertise import known, missing
from toolscale.tools.experts import ExpertTool
from toolscale.tools.orchestration import CalculatorTool, CodeExecutorTool
from toolscale.tools.skills import Known


class MathTools(CalculatorTool, CodeExecutorTool, ExpertTool):
    """calculator, code_executor and ask_expert (priced by the task's schedule)."""

    def expert_knowledge(self, question: str) -> Known | None:
        """A simulated expert solves the problem stated in the question (domains.math.expertise)."""
        return known(question)

    def expert_missing(self, question: str) -> str:
        """What the problem lacks: a question, or the numbers it depends on."""
        return missing(question)
