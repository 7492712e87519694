"""The basic tools of the orchestration domains (calculator, code_executor), as a Toolkit mixin.

Their declared prices are the `standard` schedule's ($ per call, modelled latency; the seed's
table, calculator 0.1 / 10 ms and code_executor 0.5 / 100 ms, is the `seed` schedule).
code_executor runs the code in a separate, resource-limited process and is priced per modelled
second of compute on top of its fee; the domain's own programs (its routes', never a model's) run
in this process where that gives the same output (`toolscale.sandbox.own`).
"""

from __future__ import annotations

from typing import ClassVar

from toolscale.core.contract import ToolKind, Toolkit, tool
from toolscale.sandbox.code import run_code
from toolscale.sandbox.own import run_own
from toolscale.tools.arith import evaluate
from toolscale.tools.bounds import text

MAX_CODE_CHARS = 20_000
CODE_TIMEOUT_S = 10


class CalculatorTool(Toolkit):
    @tool(ToolKind.GENERIC, fee=0.00001, latency_ms=10)
    def calculator(self, expression: str) -> str:
        """Evaluate an arithmetic expression exactly. Cheap and fast.

        Args:
            expression: Numbers with + - * / // % ** and parentheses, e.g. "(17 * 4) + 3".
        """
        return evaluate(expression)


class CodeExecutorTool(Toolkit):
    # A program may run up to its own limit by design: the fuzzer's time bound for this tool.
    time_bounds: ClassVar[dict[str, float]] = {"code_executor": CODE_TIMEOUT_S + 2.0}
    # Its code comes from the caller: a model, in an LLM-teacher run (toolscale.sandbox.guard).
    code_tools: ClassVar[tuple[str, ...]] = ("code_executor",)

    @tool(ToolKind.GENERIC, fee=0.0001, latency_ms=300, ms_per_token=0.5, per_second=0.0002)
    def code_executor(self, code: str) -> str:
        """Run a Python 3 program in an isolated sandbox and return what it prints.
        No network, no files kept, 10 seconds at most. Print the result you need.

        Args:
            code: The complete Python program.
        """
        text(code, "code", max_chars=MAX_CODE_CHARS)
        result = run_own(code) if self.own_programs else None
        if result is None:
            result = run_code(code, timeout_s=CODE_TIMEOUT_S)
        return result.as_tool_output()
