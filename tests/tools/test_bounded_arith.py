"""The calculator's bounds: hand-picked arithmetic bombs (nested powers, long multiplications,
huge literals, non-finite and complex results, deep nesting) are each answered with a ToolError
that says what is allowed, in under 50 ms; ordinary expressions keep their exact values."""

from __future__ import annotations

import time

import pytest

from toolscale.core.contract import ToolError
from toolscale.tools.arith import evaluate
from toolscale.tools.bounded_arith import depth

BOMBS = {
    "(((9**64)**64)**64)**64": "exceeds 1e100",  # each exponent passes the cap of 64
    "((9**64)**64)": "exceeds 1e100",
    "2**64**64": "exceeds 1e100",
    "99999999**64": "exceeds 1e100",  # refused before it is computed (~512 digits)
    "9**64*9**64*9**64*9**64": "exceeds 1e100",  # a long multiplication
    "*".join(["99999999"] * 55): "exceeds 1e100",
    "9" * 400: "exceeds 1e100",  # a huge literal
    "1e999": "infinite or not a number",  # Python reads it as inf
    "1e308*1e308": "exceeds 1e100",
    "1/5e-324": "infinite or not a number",
    "1e-90**-64": "exceeds 1e100",  # a tiny base to a negative power
    "(-8)**0.5": "no real value",  # Python would return a complex number
    "2**65": "exponent too large",
    "-" * 400 + "1": "nested too deeply",
    "0**-1": "division by zero",
    "\x00": "invalid expression",
    "1" + "+1" * 300: "too long",
}


@pytest.mark.parametrize("expression", list(BOMBS))
def test_each_bomb_is_a_tool_error_within_50_ms(expression):
    elapsed = []
    for _ in range(3):  # the best of 3: the bomb's own cost, not a busy machine's pause
        started = time.perf_counter()
        with pytest.raises(ToolError) as raised:
            evaluate(expression)
        elapsed.append(time.perf_counter() - started)
    assert BOMBS[expression] in str(raised.value)
    assert min(elapsed) < 0.05, f"{expression[:40]!r} took {min(elapsed) * 1000:.1f} ms"


def test_the_error_says_what_is_allowed():
    with pytest.raises(ToolError, match="works with finite numbers below 1e100 in magnitude"):
        evaluate("(((9**64)**64)**64)**64")


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("(17 * 4) + 3", "71"),
        ("9**64", str(9**64)),  # 61 digits: below the bound, exact
        ("2**0.5", "1.414214"),
        ("1000 * (1 + 5/100)**2", "1102.5"),
        ("-2**2", "-4"),
        ("(-8)**(1/1)", "-8"),
        ("7 // 2 + 7 % 2", "4"),
        ("+".join(["1"] * 200), "200"),  # 200 terms nest 200 deep: still allowed
    ],
)
def test_ordinary_expressions_keep_their_values(expression, value):
    assert evaluate(expression) == value


@pytest.mark.parametrize("expression", ["1or 2", "2if 1 else 3", "3in (3,)", "0x1Fand 1"])
def test_a_number_run_into_a_word_is_invalid_and_prints_no_warning(expression, capfd):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ToolError, match="invalid expression"):
            evaluate(expression)
    assert caught == [] and capfd.readouterr().err == ""
    assert evaluate("1e5+0x1F") == "100031"  # literals that only look like one: still numbers


def test_depth_counts_nesting_without_recursing():
    import ast

    assert depth(ast.parse("1", mode="eval").body) == 1
    assert depth(ast.parse("1 + 2", mode="eval").body) == 2  # operators do not count
    assert depth(ast.parse("-" * 450 + "1", mode="eval").body) == 451
