"""Build a word problem's calculator steps, each with its exact value (fractions, never floats).

A template writes each step as a calculator expression whose `{names}` stand for earlier steps'
results; `Steps.add` substitutes the results as the calculator prints them, evaluates the
expression exactly and rejects the draw when a value would not print exactly (more decimals than
the step allows, or a non-terminating decimal). It does not run the calculator: `Problem.check`
does that once a draw is accepted.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from toolscale.tools.arith import evaluate

Unit = Literal["dollars", "number"]

_BINARY: dict[type[ast.operator], Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


class Reject(Exception):
    """This draw of a template gives an inexact or implausible problem; draw again."""


def _exact(node: ast.AST) -> Fraction:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return Fraction(repr(node.value))  # the literal as written: 2.54 is 254/100, not binary
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_exact(node.left), _exact(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_exact(node.operand)
    raise ValueError(f"template wrote an unsupported expression element: {ast.dump(node)[:60]}")


def exact_value(expression: str) -> Fraction:
    """The exact value of a calculator expression (numbers, + - * / **, parentheses)."""
    return _exact(ast.parse(expression, mode="eval").body)


def places(value: Fraction) -> int | None:
    """How many decimals `value` has written out exactly, or None when it never terminates."""
    den, count = value.denominator, 0
    while den % 10 == 0:
        den, count = den // 10, count + 1
    twos = fives = 0
    while den % 2 == 0:
        den, twos = den // 2, twos + 1
    while den % 5 == 0:
        den, fives = den // 5, fives + 1
    return count + max(twos, fives) if den == 1 else None


def fmt(value: Fraction) -> str:
    """`value` written exactly as the calculator prints it: 36, 4630.5, 0.25 (no trailing zeros)."""
    digits = places(value)
    if digits is None:
        raise ValueError(f"{value} has no exact decimal form")
    if digits == 0:
        return str(value.numerator)
    scaled = abs(value.numerator * 10**digits // value.denominator)
    whole, frac = divmod(scaled, 10**digits)
    sign = "-" if value < 0 else ""
    return f"{sign}{whole}.{frac:0{digits}d}".rstrip("0")


def money(value: Fraction) -> str:
    """A dollar amount for problem text: 4.5 -> "$4.50"."""
    cents = value * 100
    if cents.denominator != 1:
        raise ValueError(f"{value} is not a whole number of cents")
    return f"${cents.numerator // 100}.{cents.numerator % 100:02d}"


@dataclass(frozen=True)
class Step:
    """One calculator call: `expr` names earlier steps as `{name}`; `calc` has their printed
    values in their place."""

    name: str
    expr: str
    calc: str
    value: Fraction


class Steps:
    """The steps of one draw, added in order; each `add` returns the step's exact value."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self._printed: dict[str, str] = {}

    def add(self, name: str, expr: str, decimals: int = 6, positive: bool = True) -> Fraction:
        """Add a step; reject the draw when its value has more than `decimals` decimals (or is not
        positive, unless `positive` is False)."""
        calc = expr.format(**self._printed)
        value = exact_value(calc)
        digits = places(value)
        if digits is None or digits > decimals or (positive and value <= 0):
            raise Reject
        self.steps.append(Step(name, expr, calc, value))
        self._printed[name] = fmt(value)
        return value


@dataclass(frozen=True)
class Problem:
    """A finished word problem: its text, its calculator steps, and what kind of answer it has."""

    text: str
    steps: tuple[Step, ...]
    unit: Unit = "number"
    noun: str = ""  # the answer's unit word in the final message, e.g. "hours"

    @property
    def answer(self) -> str:
        return fmt(self.steps[-1].value)

    def check(self) -> None:
        """Reject a problem whose calculator output differs from the exact value at some step, or
        whose answer already appears among the numbers of its text or is 0 or 1."""
        for step in self.steps:
            if evaluate(step.calc) != fmt(step.value):
                raise Reject
        final = self.steps[-1].value
        if any(Fraction(n) == final for n in _NUMBER.findall(self.text.replace(",", ""))):
            raise Reject
        if final in (0, 1):  # the JSON-answer instruction a preference may append states 0 and 1
            raise Reject
