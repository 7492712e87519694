"""Word-problem templates about measures: work and time, averages, area and volume, and unit
conversion.

Same shape as `money_problems`: each template draws its numbers from `rng`, writes one calculator
step per line of reasoning (easy 1 step, medium 2, hard 3; a few medium ones need only 1) and
returns a `Problem`; `Steps.add` rejects draws whose values would not print exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations

from domains.math.steps import Problem, Reject, Steps, fmt, money, places
from toolscale.core.contract import Difficulty

# (sentence with {x}, unit asked for, conversion rule, factor)
CONVERSIONS = (
    ("A hallway is {x} feet long.", "meters", "1 foot = 0.3048 meters", "0.3048"),
    ("A television screen is {x} inches wide.", "centimeters", "1 inch = 2.54 centimeters", "2.54"),
    ("A suitcase weighs {x} pounds.", "kilograms", "1 pound = 0.4536 kilograms", "0.4536"),
    ("A fish tank holds {x} gallons.", "liters", "1 gallon = 3.785 liters", "3.785"),
    ("A hiking trail is {x} miles long.", "kilometers", "1 mile = 1.609 kilometers", "1.609"),
)
CIRCLES = (
    ("A circular pond", "meters"),
    ("A round rug", "feet"),
    ("A circular flower bed", "meters"),
    ("A round tabletop", "inches"),
    ("A circular skating rink", "meters"),
)
JOBS = (
    ("paint the fence", "painting"),
    ("clean the whole house", "cleaning"),
    ("pick all the apples in the orchard", "picking"),
)


def _halves(rng: random.Random, low: int, high: int) -> Fraction:
    return Fraction(rng.randint(low * 2, high * 2), 2)


def _within(value: Fraction, decimals: int) -> bool:
    digits = places(value)
    return digits is not None and digits <= decimals


@cache
def _crews(size: int) -> tuple[tuple[int, ...], ...]:
    """Solo times (2 to 24 hours, all different) whose joint time has at most 2 decimals."""
    return tuple(
        crew
        for crew in combinations(range(2, 25), size)
        if _within(Fraction(1) / sum((Fraction(1, hours) for hours in crew), Fraction(0)), 2)
    )


@cache
def _relays() -> tuple[tuple[int, int, int], ...]:
    """(first's hours, second's hours, head start) where the share left after the head start
    and the joint time for it are exact; drawing from these beats rejecting most random draws."""
    return tuple(
        (first, second, start)
        for first, second in permutations(range(2, 25), 2)
        for start in range(1, first)
        if _within(Fraction(first - start, first), 6)
        and _within(Fraction((first - start) * second, first + second), 2)
    )


def work_time(rng: random.Random, level: Difficulty, names: tuple[str, ...]) -> Problem:
    """People working together at fixed rates; hard has one start alone before the other joins."""
    steps = Steps()
    job, doing = rng.choice(JOBS)
    if level == "hard":
        first, second, head_start = rng.choice(_relays())
        steps.add("left", f"1 - {head_start} / {first}")
        steps.add("together", f"{{left}} / (1 / {first} + 1 / {second})", decimals=2)
        steps.add("total", f"{head_start} + {{together}}", decimals=2)
        text = (
            f"{names[0]} can {job} alone in {first} hours, and {names[1]} can do it alone in "
            f"{second} hours. {names[0]} works alone for {head_start} hours, then {names[1]} joins "
            f"and they finish together. How many hours after {names[0]} started is the job done?"
        )
        return Problem(text, tuple(steps.steps), "number", "hours")
    workers = 2 if level == "easy" else 3
    hours = list(rng.choice(_crews(workers)))
    rng.shuffle(hours)
    rates = " + ".join(f"1 / {h}" for h in hours[:workers])
    steps.add("hours", f"1 / ({rates})", decimals=2)
    others = [f"{name} in {h} hours" for name, h in zip(names[1:], hours[1:workers], strict=False)]
    rest = f" and {others[0]}" if workers == 2 else f", {others[0]} and {others[1]}"
    text = (
        f"Alone, {names[0]} can {job} in {hours[0]} hours{rest}. Working together at these "
        f"rates, how many hours does the {doing} take?"
    )
    return Problem(text, tuple(steps.steps), "number", "hours")


def average(rng: random.Random, level: Difficulty, names: tuple[str, ...]) -> Problem:
    """A mean of scores; medium the next score needed for a target mean; hard two groups merged."""
    steps, person = Steps(), names[0]
    if level == "easy":
        scores = [rng.randint(55, 100) for _ in range(rng.randint(4, 6))]
        steps.add("mean", f"({' + '.join(map(str, scores))}) / {len(scores)}", decimals=2)
        listed = ", ".join(map(str, scores[:-1])) + f" and {scores[-1]}"
        text = f"{person} scored {listed} on {len(scores)} tests. What is the average score?"
        return Problem(text, tuple(steps.steps), "number", "points")
    if level == "medium":
        tests, mean = rng.randint(3, 7), _halves(rng, 60, 88)
        target = rng.randint(int(mean) + 1, int(mean) + 5)
        steps.add("so_far", f"{tests} * {fmt(mean)}", decimals=1)
        steps.add("needed", f"{target} * {tests + 1} - {{so_far}}", decimals=0)
        if steps.steps[-1].value > 100:
            raise Reject
        text = (
            f"After {tests} tests, {person}'s average score is {fmt(mean)}. What score does "
            f"{person} need on the next test to raise the average to exactly {target}?"
        )
        return Problem(text, tuple(steps.steps), "number", "points")
    size = rng.choice((25, 32, 40, 50, 64))  # the mean divides by it: keep it to factors 2 and 5
    size_a = rng.randint(10, size - 10)
    size_b = size - size_a
    mean_a, mean_b = _halves(rng, 60, 92), _halves(rng, 60, 92)
    steps.add("total_a", f"{size_a} * {fmt(mean_a)}", decimals=1)
    steps.add("total_b", f"{size_b} * {fmt(mean_b)}", decimals=1)
    steps.add("mean", f"({{total_a}} + {{total_b}}) / ({size_a} + {size_b})", decimals=2)
    text = (
        f"Class A has {size_a} students with an average test score of {fmt(mean_a)}, and class B "
        f"has {size_b} students with an average of {fmt(mean_b)}. What is the average score of "
        "all the students in both classes together?"
    )
    return Problem(text, tuple(steps.steps), "number", "points")


def area_volume(rng: random.Random, level: Difficulty, names: tuple[str, ...]) -> Problem:
    """Easy: a rectangle's or circle's area; medium: flooring cost; hard: time to fill a pool."""
    steps = Steps()
    if level == "easy" and rng.random() < 0.5:
        shape, unit = rng.choice(CIRCLES)
        radius = rng.randint(2, 60)
        steps.add("area", f"3.14 * {radius} ** 2", decimals=2)
        text = (
            f"{shape} has a radius of {radius} {unit}. Using pi = 3.14, what is its area in "
            f"square {unit}?"
        )
        return Problem(text, tuple(steps.steps), "number", f"square {unit}")
    length, width = _halves(rng, 3, 40), _halves(rng, 2, 25)
    if level == "easy":
        steps.add("area", f"{fmt(length)} * {fmt(width)}", decimals=2)
        text = (
            f"A rectangular garden is {fmt(length)} meters long and {fmt(width)} meters wide. "
            "What is its area in square meters?"
        )
        return Problem(text, tuple(steps.steps), "number", "square meters")
    if level == "medium":
        price = Fraction(rng.randint(8, 60) * 4 + rng.choice((0, 2)), 4)
        steps.add("area", f"{fmt(length)} * {fmt(width)}", decimals=2)
        steps.add("cost", f"{{area}} * {fmt(price)}", decimals=2)
        text = (
            f"{names[0]} is putting new flooring in a room {fmt(length)} meters long and "
            f"{fmt(width)} meters wide. The flooring costs {money(price)} per square meter. What "
            "does the flooring for the whole room cost? Give the amount in dollars, to the cent."
        )
        return Problem(text, tuple(steps.steps), "dollars")
    depth, flow = (
        Fraction(rng.randint(3, 6), 2),
        rng.choice((20, 25, 40, 50, 60, 75, 80, 100, 120, 150)),
    )
    steps.add("volume", f"{fmt(length)} * {fmt(width)} * {fmt(depth)}", decimals=3)
    steps.add("liters", "{volume} * 1000", decimals=0)
    steps.add("minutes", f"{{liters}} / {flow}", decimals=2)
    text = (
        f"A rectangular pool is {fmt(length)} meters long, {fmt(width)} meters wide and "
        f"{fmt(depth)} meters deep. One cubic meter holds 1000 liters, and a hose fills the pool "
        f"at {flow} liters per minute. How many minutes does it take to fill the empty pool?"
    )
    return Problem(text, tuple(steps.steps), "number", "minutes")


def unit_conversion(rng: random.Random, level: Difficulty, names: tuple[str, ...]) -> Problem:
    """Easy: one stated factor; medium: meters per second to km/h; hard: a trip's fuel cost."""
    steps, person = Steps(), names[0]
    if level == "easy":
        sentence, unit, rule, factor = rng.choice(CONVERSIONS)
        amount = _halves(rng, 2, 120)
        steps.add("converted", f"{fmt(amount)} * {factor}")
        text = f"{sentence.format(x=fmt(amount))} Using {rule}, how many {unit} is that exactly?"
        return Problem(text, tuple(steps.steps), "number", unit)
    if level == "medium":
        seconds = rng.choice((20, 25, 40, 50, 60, 80, 100, 120, 125, 160, 200, 250))
        meters = rng.randint(2, 60) * 10
        steps.add("per_second", f"{meters} / {seconds}", decimals=4)
        steps.add("km_per_hour", "{per_second} * 3.6", decimals=2)
        text = (
            f"{person} cycles {meters} meters in {seconds} seconds at a steady speed. What is the "
            "speed in kilometers per hour? (1 meter per second = 3.6 kilometers per hour.)"
        )
        return Problem(text, tuple(steps.steps), "number", "kilometers per hour")
    miles, use = rng.randint(4, 80) * 5, _halves(rng, 5, 11)
    price = Fraction(rng.randint(24, 44), 20)
    steps.add("kilometers", f"{miles} * 1.6", decimals=1)
    steps.add("liters", f"{{kilometers}} / 100 * {fmt(use)}", decimals=4)
    steps.add("cost", f"{{liters}} * {fmt(price)}", decimals=2)
    text = (
        f"{person} drives {miles} miles. The car uses {fmt(use)} liters of fuel per 100 "
        f"kilometers, fuel costs {money(price)} per liter, and 1 mile = 1.6 kilometers. What "
        "does the fuel for the trip cost? Give the amount in dollars, to the cent."
    )
    return Problem(text, tuple(steps.steps), "dollars")
