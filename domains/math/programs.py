"""Math problems only a program solves: counting, iteration and search over a range.

Each template draws a problem (its text, the Python program that solves it, the answer) and the
naive shortcut a hurried agent might type into the calculator instead (a cheap route that gets it
wrong). `solve_program` is the simulated expert's reading of the same texts: it finds the
template's key phrase, reads the numbers and computes the answer (what a model that can reason
about the problem would work out), with the difficulty the sizes suggest.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from toolscale.core.contract import Difficulty


@dataclass(frozen=True)
class ProgramProblem:
    text: str
    program: str
    answer: str
    shortcut: str  # a calculator expression that looks plausible and is wrong


def _primes(a: int, b: int) -> int:
    sieve = bytearray([1]) * (b + 1)
    sieve[0:2] = b"\x00\x00"[: min(2, b + 1)]
    for i in range(2, int(b**0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytearray(len(sieve[i * i :: i]))
    return sum(sieve[a : b + 1])


def _digit_sums(n: int, s: int) -> int:
    """How many of 1..n have digit sum `s` (s >= 1), digit by digit: below each digit of n, any
    smaller digit there and any digits after it; then n itself."""
    digits = [int(d) for d in str(n)]
    ways = [[1] + [0] * s]  # ways[r][t]: strings of r digits with digit sum t
    for _ in digits:
        last = ways[-1]
        ways.append([sum(last[t - d] for d in range(min(9, t) + 1)) for t in range(s + 1)])
    count, before = 0, 0
    for i, digit in enumerate(digits):
        rest = len(digits) - i - 1
        count += sum(ways[rest][s - before - d] for d in range(digit) if s - before - d >= 0)
        before += digit
    return count + (before == s)


def _collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def _coin_ways(n: int, coins: tuple[int, ...]) -> int:
    ways = [1] + [0] * n
    for c in coins:
        for v in range(c, n + 1):
            ways[v] += ways[v - c]
    return ways[n]


def _fib_mod(n: int, m: int) -> int:
    """Fibonacci number n (F1 = F2 = 1) modulo m, by fast doubling: F(2k) = F(k)(2F(k+1) -
    F(k)), F(2k+1) = F(k)^2 + F(k+1)^2."""
    a, b = 0, 1  # F(k), F(k+1) for k = the bits of n read so far
    for bit in bin(n)[2:]:
        a, b = a * (2 * b - a) % m, (a * a + b * b) % m
        if bit == "1":
            a, b = b, (a + b) % m
    return a


_SIZES: dict[Difficulty, tuple[int, int]] = {
    "easy": (100, 400),
    "medium": (1000, 9000),
    "hard": (20000, 90000),
}


def level_of(size: int) -> Difficulty:
    """The difficulty a problem's size suggests (the expert's reading as well as the sampler's)."""
    return "easy" if size < 1000 else "medium" if size < 20000 else "hard"


def primes_between(rng: random.Random, level: Difficulty) -> ProgramProblem:
    b = rng.randint(*_SIZES[level])
    a = rng.randint(2, b // 3)
    text = f"How many prime numbers are there between {a} and {b}, both included?"
    program = (
        f"a, b = {a}, {b}\n"
        "sieve = [True] * (b + 1)\nsieve[0] = sieve[1] = False\n"
        "for i in range(2, int(b ** 0.5) + 1):\n"
        "    if sieve[i]:\n        for j in range(i * i, b + 1, i):\n            sieve[j] = False\n"
        "print(sum(sieve[a:b + 1]))"
    )
    return ProgramProblem(text, program, str(_primes(a, b)), f"({b} - {a} + 1) // 2")


def digit_sum_count(rng: random.Random, level: Difficulty) -> ProgramProblem:
    n = rng.randint(*_SIZES[level])
    s = rng.randint(5, 20)
    text = f"How many whole numbers from 1 to {n} have a digit sum of exactly {s}?"
    program = f"print(sum(1 for i in range(1, {n} + 1) if sum(map(int, str(i))) == {s}))"
    return ProgramProblem(text, program, str(_digit_sums(n, s)), f"{n} // {s}")


def collatz_steps(rng: random.Random, level: Difficulty) -> ProgramProblem:
    n = rng.randint(*_SIZES[level])
    text = (
        f"Start from {n}. Repeatedly halve the number when it is even, and otherwise triple it "
        "and add 1. How many steps does it take to reach 1?"
    )
    program = (
        f"n, steps = {n}, 0\nwhile n != 1:\n    n = n // 2 if n % 2 == 0 else 3 * n + 1\n"
        "    steps += 1\nprint(steps)"
    )
    return ProgramProblem(text, program, str(_collatz(n)), f"{n} // 2")


def coin_ways(rng: random.Random, level: Difficulty) -> ProgramProblem:
    n = rng.randint(*_SIZES[level]) // 10
    coins = tuple(sorted(rng.sample([1, 2, 5, 10, 20, 25, 50], 4)))
    listed = ", ".join(str(c) for c in coins[:-1]) + f" and {coins[-1]}"
    text = (
        f"In how many ways can you make {n} cents from coins worth {listed} cents, if the order "
        "of the coins does not matter?"
    )
    program = (
        f"n, coins = {n}, {list(coins)}\nways = [1] + [0] * n\nfor c in coins:\n"
        "    for v in range(c, n + 1):\n        ways[v] += ways[v - c]\nprint(ways[n])"
    )
    shortcut = " + ".join(f"{n} // {c}" for c in coins)
    return ProgramProblem(text, program, str(_coin_ways(n, coins)), shortcut)


def fibonacci_mod(rng: random.Random, level: Difficulty) -> ProgramProblem:
    n = rng.randint(*_SIZES[level])
    m = rng.choice([97, 101, 997, 1000, 1009, 10007])
    text = (
        f"The Fibonacci numbers start 1, 1, 2, 3, 5, each the sum of the two before. What is the "
        f"remainder when Fibonacci number {n} is divided by {m}?"
    )
    program = f"a, b = 1, 1\nfor _ in range({n} - 1):\n    a, b = b, (a + b) % {m}\nprint(a % {m})"
    return ProgramProblem(text, program, str(_fib_mod(n, m)), f"{n} % {m}")


PROGRAMS: dict[str, Callable[[random.Random, Difficulty], ProgramProblem]] = {
    "primes_between": primes_between,
    "digit_sum_count": digit_sum_count,
    "collatz_steps": collatz_steps,
    "coin_ways": coin_ways,
    "fibonacci_mod": fibonacci_mod,
}

_N = r"(\d+)"
_READERS: tuple[tuple[re.Pattern[str], Callable[..., tuple[int, int]] | None], ...] = (
    (
        re.compile(rf"how many prime numbers are there between {_N} and {_N}"),
        lambda a, b: (_primes(a, b), b),
    ),
    (
        re.compile(rf"from 1 to {_N} have a digit sum of exactly {_N}"),
        lambda n, s: (_digit_sums(n, s), n),
    ),
    (
        re.compile(
            rf"start from {_N}\. repeatedly halve the number when it is even.*how many steps"
        ),
        lambda n: (_collatz(n), n),
    ),
    (
        # the coin list as the sampler writes it, "1, 5, 10 and 25": a list with a gap in it
        # ("1, , 10 and 25") is not read as fewer coins
        re.compile(rf"make {_N} cents from coins worth ((?:\d+, )*\d+ and \d+) cents"),
        None,  # read below: the coin list
    ),
    (
        re.compile(rf"remainder when fibonacci number {_N} is divided by {_N}"),
        lambda n, m: (_fib_mod(n, m), n),
    ),
)
_MAX_SIZE = 200_000  # beyond this even the expert does not work it out


def solve_program(question: str) -> tuple[str, Difficulty] | None:
    """The answer to one of these problems stated in `question`, and its difficulty, or None."""
    text = " ".join(question.lower().split())
    found = []
    for pattern, read in _READERS:
        match = pattern.search(text)
        if match is None:
            continue
        if read is None:
            n = int(match.group(1))
            coins = tuple(int(c) for c in re.findall(r"\d+", match.group(2)))
            if not coins or n > _MAX_SIZE:
                return None
            found.append((_coin_ways(n, coins), n * 10))
            continue
        numbers = [int(g) for g in match.groups()]
        if max(numbers) > _MAX_SIZE:
            return None
        found.append(read(*numbers))
    if len(found) != 1:
        return None
    value, size = found[0]
    return str(value), level_of(size)
