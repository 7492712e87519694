"""The math toolkit: the shared calculator, code executor and simulated experts, nothing else."""

from __future__ import annotations

from toolscale.tools.experts import ExpertTool
from toolscale.tools.orchestration import CalculatorTool, CodeExecutorTool


class MathTools(CalculatorTool, CodeExecutorTool, ExpertTool):
    """calculator (0.1 / 10 ms), code_executor (0.5 / 100 ms) and ask_expert (per token)."""
