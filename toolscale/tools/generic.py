"""The GENERIC tools every stateful (tau2-style) domain offers, as a Toolkit mixin."""

from __future__ import annotations

from toolscale.core.contract import ToolKind, Toolkit, tool
from toolscale.tools.arith import evaluate
from toolscale.tools.bounds import text


class StatefulGenericTools(Toolkit):
    """Mix into a stateful domain's Toolkit: `calculate` and `transfer_to_human_agents`."""

    @tool(ToolKind.GENERIC)
    def calculate(self, expression: str) -> str:
        """Calculate the result of an arithmetic expression.

        Args:
            expression: Numbers with + - * / and parentheses, e.g. "(12.5 * 3) - 4".
        """
        return evaluate(expression)

    @tool(ToolKind.GENERIC, fee=1.5, latency_ms=180_000)  # minutes of a paid human agent
    def transfer_to_human_agents(self, summary: str) -> str:
        """Transfer the user to a human agent. Use only when the request cannot be handled
        within the policy with the available tools.

        Args:
            summary: A short summary of the user's issue for the human agent.
        """
        text(summary, "summary")
        return "Transfer successful"
