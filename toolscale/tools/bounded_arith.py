"""Arithmetic whose every intermediate result is bounded: the calculator's operations, checked
before and after each step, so no expression costs more than a few microseconds per operator.

Python's integers grow without limit: `(((9**64)**64)**64)**64` passes an exponent cap at every
step, yet builds a number of millions of digits (~13 s of CPU, then a ValueError when printed).
Here each operand and result must stay below MAX_MAGNITUDE (1e100) in absolute value; a power is
estimated from its operands' logarithms before it is computed; results that are not finite
real numbers (an overflow, a negative base to a fractional power) are ToolErrors; nesting is
bounded too. With the calculator's 500-character limit that bounds the work (a few hundred
operations on numbers below 1e100: well under a millisecond) without a clock, so a result never
depends on how loaded the machine is (a wall-clock limit made a loaded sampler's legitimate
expression a ToolError, and a replay could disagree with its recording). The bounds are far
above what a tool task needs (the largest calculator value of the bundled domains' tasks is
below 1e12).
This module only checks and applies single operations; `toolscale.tools.arith` parses.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

from toolscale.core.contract import ToolError

MAX_MAGNITUDE = 1e100
MAX_EXPONENT = 64
MAX_DEPTH = 200  # nested operations: a sum of 200 terms nests 200 deep (recursion stays safe)

Number = int | float
_BINARY: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
ALLOWED = "the calculator works with finite numbers below 1e100 in magnitude"
TOO_LARGE = f"a value exceeds 1e100 in magnitude; {ALLOWED}"


def bounded(value: object) -> Number:
    """`value` when it is a finite real number below MAX_MAGNITUDE in magnitude, else a
    ToolError saying why (a complex result, an overflow, a value too large)."""
    if isinstance(value, complex):
        raise ToolError("a negative number to a fractional power has no real value")
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise ToolError(f"not a number: {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ToolError(f"a value is infinite or not a number; {ALLOWED}")
    if abs(value) >= MAX_MAGNITUDE:
        raise ToolError(TOO_LARGE)
    return value


def _log10(value: Number) -> float:
    return math.log10(abs(value)) if value else -math.inf


def power(base: Number, exponent: Number) -> Number:
    """`base ** exponent`, refused before it is computed when its magnitude would reach 1e100."""
    if abs(exponent) > MAX_EXPONENT:
        raise ToolError(f"exponent too large (at most {MAX_EXPONENT} in magnitude)")
    if base < 0 and exponent != int(exponent):
        raise ToolError("a negative number to a fractional power has no real value")
    if base == 0 and exponent < 0:
        raise ZeroDivisionError
    if base and exponent * _log10(base) >= math.log10(MAX_MAGNITUDE):
        raise ToolError(TOO_LARGE)
    return bounded(base**exponent)


def apply(op: ast.operator, left: Number, right: Number) -> Number:
    """One binary operation of the calculator on bounded operands, its result bounded; a
    ZeroDivisionError is left to the caller (it says "division by zero")."""
    if isinstance(op, ast.Pow):
        return power(left, right)
    try:
        return bounded(_BINARY[type(op)](left, right))
    except OverflowError:
        raise ToolError(TOO_LARGE) from None


def supported(op: ast.operator) -> bool:
    return isinstance(op, ast.Pow) or type(op) in _BINARY


def literal(value: Number) -> Number:
    """A number written in the expression: finite and below 1e100 (a literal such as 1e999 is
    infinity in Python, and a 300-digit one is 300 digits of work)."""
    return bounded(value)


def depth(tree: ast.AST) -> int:
    """How many expression nodes nest in `tree` at most ("1 + 2": 2), counted iteratively: a
    deep tree must not recurse here."""
    deepest, stack = 0, [(tree, int(isinstance(tree, ast.expr)))]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        for child in ast.iter_child_nodes(node):
            stack.append((child, level + isinstance(child, ast.expr)))
    return deepest


def check_shape(tree: ast.AST) -> None:
    if depth(tree) > MAX_DEPTH:
        raise ToolError(f"expression nested too deeply (at most {MAX_DEPTH} levels)")
