"""Evaluate an arithmetic expression safely: numbers, + - * / // % **, parentheses, nothing else."""

from __future__ import annotations

import ast
import operator
import warnings
from collections.abc import Callable

from toolscale.core.contract import ToolError
from toolscale.tools import bounded_arith

_UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}


def _eval(node: ast.AST) -> float:
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)  # True is an int, not a number here
    ):
        return bounded_arith.literal(node.value)
    if isinstance(node, ast.BinOp) and bounded_arith.supported(node.op):
        left, right = _eval(node.left), _eval(node.right)
        return bounded_arith.apply(node.op, left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand))
    raise ToolError(f"unsupported expression element: {ast.dump(node)[:60]}")


def evaluate(expression: str) -> str:
    """Return the value of `expression` as text; integers print without a decimal point,
    other results are rounded to 6 decimals. Raises ToolError on anything but arithmetic, and
    on values of 1e100 or more in magnitude (`toolscale.tools.bounded_arith`)."""
    if len(expression) > 500:
        raise ToolError("expression too long (at most 500 characters)")
    try:
        # A number run into a word ("1or 2", "2if x") is only a SyntaxWarning to Python, printed
        # on stderr as a bare "<unknown>:1" line; as an error it is the invalid expression it is.
        with warnings.catch_warnings():
            warnings.simplefilter("error", SyntaxWarning)
            tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):  # ValueError: a NUL byte
        raise ToolError(f"invalid expression: {expression!r}") from None
    bounded_arith.check_shape(tree)
    try:
        value = _eval(tree.body)
    except ZeroDivisionError:
        raise ToolError("division by zero") from None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, float):
        value = round(value, 6)
    return str(value)
