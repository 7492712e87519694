"""Answer a math word problem from its text alone: find the key phrases of a known problem shape,
read their numbers and compute the exact answer as the calculator prints it.

This is the reasoning of the simulated math expert behind `ask_expert`: it answers the question it
is asked, never a hidden task answer (no RNG, no task id, no lookup). It knows the shapes written
by `money_problems` and `measure_problems` through their distinctive phrases, so light rewording
around those phrases and appended requests ("Don't run any code.") still parse, and it answers
plain arithmetic ("What is 12.5 * 3?") with the calculator. It does not understand paraphrase
beyond those phrases: when the text does not state one complete problem it knows (no question, a
needed number missing, two shapes at once), it returns None rather than guessing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from domains.math.reading import (
    _FILLER,
    _MAX_YEARS,
    _NAME,
    _WORD,
    _line_cost,
    _maybe,
    _need,
    _num,
    _numbers,
    _percent_of,
    _regex,
    _same_unit,
    _Unreadable,
)
from domains.math.steps import fmt
from toolscale.core.contract import ToolError
from toolscale.tools.arith import evaluate


def shopping(text: str) -> Fraction:
    """Items times prices, less an optional store-wide discount, plus an optional sales tax."""
    _need(text, r"what is the total cost\?|how much does [^.?!]+ pay\?")
    (listing,) = _need(text, r"\bbuys (.+?)\.(?!\d)")
    total = sum((_line_cost(line) for line in re.split(r", | and ", listing)), Fraction(0))
    off = _maybe(text, "% off", r"takes #% off")
    if off is not None:
        total = _percent_of(total, -off)
    tax = _maybe(text, "sales tax", r"#% sales tax")
    if tax is not None:
        if off is None and "discounted" in text:
            raise _Unreadable("tax on a discounted amount, but no discount")
        total = _percent_of(total, tax)
    return total


def unit_price(text: str) -> Fraction:
    """A pack's price per item, or that price times another count."""
    _, count, items, price = _need(text, rf"\ban? {_WORD} of # ({_FILLER}?) costs \$#")
    each = _num(price) / _num(count)
    if "how much would" in text:
        want, wanted = _need(text, rf"how much would # ({_FILLER}?) cost\?")
        _same_unit(items, wanted)
        return each * _num(want)
    (one,) = _need(text, rf"what is the price of (?:one|a single|an?) ({_FILLER}?)\?")
    _same_unit(items, one)
    return each


def store_saving(text: str) -> Fraction:
    """What buying at the lower of two stores' unit prices saves over the higher."""
    count_a, items_a, price_a = _need(text, rf"store a sells an? [a-z]+ of # ({_FILLER}?) for \$#")
    count_b, items_b, price_b = _need(text, rf"store b sells an? [a-z]+ of # ({_FILLER}?) for \$#")
    want, wanted = _need(text, rf"needs # ({_FILLER}?) and pays the lower price")
    (again,) = _numbers(text, r"how much does [^.?!]+ save [^?]*? for all #\?")
    _same_unit(items_a, items_b, wanted)
    if _num(want) != again:
        raise _Unreadable("two different counts wanted")
    gap = abs(_num(price_a) / _num(count_a) - _num(price_b) / _num(count_b))
    return gap * again


def share(text: str) -> Fraction:
    """A percentage of a count: "400 students, and 15% of them walk"."""
    total, pct = _numbers(text, r"# [^.?!,]+?, and #% of them")
    _need(text, r"how many [^.?!]+\?")
    return total * pct / 100


def rise_and_cut(text: str) -> Fraction:
    """A price raised by one percentage and then cut by another."""
    (price,) = _numbers(text, r"costs \$#")
    (up,) = _numbers(text, r"goes up by #%")
    (down,) = _numbers(text, r"cut by #%")
    _need(text, r"what is the final price\?")
    return _percent_of(_percent_of(price, up), -down)


def monthly_growth(text: str) -> Fraction:
    """May's count when April grows over March by the same percentage as March grew to April."""
    march, april = _numbers(text, r"# (?:[a-z -]+ )?in march and # (?:[a-z -]+ )?in april")
    _need(text, r"same percentage as from march to april")
    _need(text, r"how many [^.?!]+ in may\?")
    return april * april / march


def _compound(start: Fraction, rate: Fraction, years: Fraction) -> Fraction:
    if years.denominator != 1 or not 0 < years <= _MAX_YEARS:
        raise _Unreadable(f"{years} years")
    return start * (1 + rate / 100) ** int(years)


def town_growth(text: str) -> Fraction:
    """A town's residents growing a fixed percentage every year."""
    (people,) = _numbers(text, r"has # residents")
    (rate,) = _numbers(text, r"grows by #% (?:every|each|per|a) year")
    (years,) = _numbers(text, r"how many residents will it have after # years\?")
    return _compound(people, rate, years)


def savings(text: str) -> Fraction:
    """A deposit earning a fixed percentage, compounded once a year."""
    deposit, rate = _numbers(text, r"deposits \$# in a savings account that pays #% interest")
    _need(text, r"compounded once a year")
    (years,) = _numbers(text, r"how much is in the account after # years\?")
    return _compound(deposit, rate, years)


def better_bank(text: str) -> Fraction:
    """How much more one deposit grows at the better of two banks' yearly rates."""
    (rate_a,) = _numbers(text, r"bank a pays #%")
    (rate_b,) = _numbers(text, r"bank b pays #%")
    _need(text, r"compounded once a year")
    deposit, years = _numbers(text, r"deposits \$# for # years")
    (asked,) = _numbers(text, r"how much more [^.?!]+ after # years\?")
    if asked != years:
        raise _Unreadable("two different numbers of years")
    return abs(_compound(deposit, rate_a, years) - _compound(deposit, rate_b, years))


def together(text: str) -> Fraction:
    """Hours for two or three people working together, each with a solo time."""
    (crew,) = _need(text, r"\balone, ([^.?!]+)\.")
    _need(text, r"working together at these rates, how many hours does the [a-z]+ take\?")
    job = r"[^,\d]+?"  # within its clause, so a missing time is never read from the next one
    others = rf"(?:(?:,| and) {_NAME} in # hours)+"
    if _regex(rf"{_NAME} can {job} in # hours{others}").fullmatch(crew) is None:
        raise _Unreadable(crew)
    hours = [_num(found) for found in _regex(r"in # hours").findall(crew)]
    if 0 in hours:
        raise _Unreadable("a solo time of zero hours")
    return Fraction(1) / sum((1 / h for h in hours), Fraction(0))


def head_start(text: str) -> Fraction:
    """Hours until a job is done when one person starts alone and the other joins later."""
    name_a, hours_a, name_b, hours_b = _need(
        text, rf"{_NAME} can {_FILLER}? alone in # hours, and {_NAME} can do it alone in # hours"
    )
    starter, alone, joiner = _need(text, rf"{_NAME} works alone for # hours, then {_NAME} joins")
    _need(text, r"how many hours after [^.?!]+ started is the job done\?")
    solo = {name_a: _num(hours_a), name_b: _num(hours_b)}
    if name_a == name_b or {starter, joiner} != set(solo) or 0 in solo.values():
        raise _Unreadable("who starts and who joins is unclear")
    start = _num(alone)
    if start >= solo[starter]:
        raise _Unreadable("the starter finishes alone")
    left = 1 - start / solo[starter]
    return start + left / (1 / solo[starter] + 1 / solo[joiner])


def mean_score(text: str) -> Fraction:
    """The mean of listed test scores: "scored 70, 85 and 91 on 3 tests"."""
    listing, tests = _need(text, r"scored ([^.?!]+?) on # tests")
    _need(text, r"what is the average score\?")
    scores = re.split(r", | and ", listing)
    if len(scores) != _num(tests) or not all(_regex("#").fullmatch(s) for s in scores):
        raise _Unreadable(listing)
    return sum((_num(s) for s in scores), Fraction(0)) / len(scores)


def next_score(text: str) -> Fraction:
    """The next test score that lifts an average to a target."""
    tests, mean = _numbers(text, r"after # tests, [^.?!]+? average score is #")
    (target,) = _numbers(text, r"need on the next test to raise the average to (?:exactly )?#\?")
    needed = target * (tests + 1) - tests * mean
    if needed < 0:
        raise _Unreadable("no score lowers the average to the target")
    return needed


def merged_mean(text: str) -> Fraction:
    """The mean score of two classes together, from each class's size and mean."""
    size_a, mean_a = _numbers(text, r"class a has # students with an average (?:test score )?of #")
    size_b, mean_b = _numbers(text, r"class b has # students with an average (?:test score )?of #")
    _need(text, r"what is the average score of all the students")
    return (size_a * mean_a + size_b * mean_b) / (size_a + size_b)


def circle_area(text: str) -> Fraction:
    """A circle's area with the value of pi the text states (never the true pi)."""
    radius, unit = _need(text, rf"radius of # {_WORD}")
    (pi,) = _numbers(text, r"\bpi (?:=|≈|as|of) #")
    (asked,) = _need(text, rf"what is its area in square {_WORD}\?")
    _same_unit(unit, asked)
    return pi * _num(radius) ** 2


def rectangle_area(text: str) -> Fraction:
    """A rectangle's area: "is 12.5 meters long and 4 meters wide"."""
    length, unit_l, width, unit_w = _need(text, rf"\bis # {_WORD} long and # {_WORD} wide")
    (asked,) = _need(text, rf"what is its area in square {_WORD}\?")
    _same_unit(unit_l, unit_w, asked)
    return _num(length) * _num(width)


def flooring(text: str) -> Fraction:
    """A room's floor area times a price per square unit."""
    length, unit_l, width, unit_w = _need(text, rf"# {_WORD} long and # {_WORD} wide")
    price, unit_p = _need(text, rf"costs \$# per square {_WORD}")
    _need(text, r"what does the flooring [^.?!]*cost\?")
    _same_unit(unit_l, unit_w, unit_p)
    return _num(length) * _num(width) * _num(price)


def pool_fill(text: str) -> Fraction:
    """Minutes to fill a box-shaped pool at a hose's flow in liters per minute."""
    sizes = _need(text, rf"# {_WORD} long, # {_WORD} wide and # {_WORD} deep")
    _same_unit("meters", *sizes[1::2])
    (per_cubic,) = _numbers(text, r"(?:one|1|a) cubic meter holds # liters")
    (flow,) = _numbers(text, r"at # liters per minute")
    _need(text, r"how many minutes does it take to fill [^.?!]*\?")
    if flow == 0:
        raise _Unreadable("a hose that does not flow")
    length, width, depth = (_num(size) for size in sizes[0::2])
    return length * width * depth * per_cubic / flow


def convert(text: str) -> Fraction:
    """An amount times a conversion factor the text states: "Using 1 foot = 0.3048 meters"."""
    amount, unit = _need(text, rf"\b(?:is|weighs|holds|measures) # {_WORD}")
    source, factor, target, asked = _need(
        text, rf"using 1 {_WORD} = # {_WORD}, how many {_WORD} is that(?: exactly)?\?"
    )
    _same_unit(unit, source)
    _same_unit(target, asked)
    return _num(amount) * _num(factor)


def speed(text: str) -> Fraction:
    """Meters in seconds as kilometers per hour, with the factor the text states."""
    meters, seconds = _numbers(text, r"# meters in # seconds")
    (factor,) = _numbers(text, r"1 meter per second = # kilometers per hour")
    _need(text, r"what is the speed in kilometers per hour\?")
    if seconds == 0:
        raise _Unreadable("no time taken")
    return meters / seconds * factor


def fuel_cost(text: str) -> Fraction:
    """A trip's fuel cost from miles, a mile in kilometers, use per distance and price per liter."""
    (miles,) = _numbers(text, r"(?:drives|travels) # miles")
    (km_per_mile,) = _numbers(text, r"1 mile = # kilometers")
    use, per = _numbers(text, r"uses # liters of fuel per # kilometers")
    (price,) = _numbers(text, r"fuel costs \$# per liter")
    _need(text, r"what does the fuel for the trip cost\?")
    if per == 0:
        raise _Unreadable("fuel use per zero kilometers")
    return miles * km_per_mile / per * use * price


def pencils_each(text: str) -> Fraction:
    """Boxes of pencils, some kept, the rest shared equally: how many each gets."""
    boxes, _, per_box, things = _need(text, rf"buys # {_WORD} of # {_WORD}")
    kept, kept_things = _need(text, rf"keeps # {_WORD}")
    friends, _ = _need(text, rf"shares the rest equally among # {_WORD}")
    (asked,) = _need(text, rf"how many {_WORD} does each [a-z]+ get\?")
    _same_unit(things, kept_things, asked)
    rest = _num(boxes) * _num(per_box) - _num(kept)
    if _num(friends) == 0 or rest < 0 or rest % _num(friends):
        raise _Unreadable("the rest does not share out evenly")
    return rest / _num(friends)


def _gross_pay(text: str) -> Fraction:
    wage, first = _numbers(text, r"earns \$# per hour for the first # hours")
    factor, beyond = _numbers(text, r"# times that rate for every hour beyond #")
    (hours,) = _numbers(text, r"worked # hours")
    if first != beyond:
        raise _Unreadable("overtime starts at two different hours")
    within, beyond_first = (hours, 0) if hours < first else (first, hours - first)
    return within * wage + beyond_first * factor * wage


def pay_before_tax(text: str) -> Fraction:
    """A week's pay with overtime at a multiple of the hourly wage."""
    _need(text, r"what was the pay before tax\?")
    return _gross_pay(text)


def take_home(text: str) -> Fraction:
    """A week's pay with overtime, less a percentage withheld for taxes."""
    (tax,) = _numbers(text, r"#% of the pay is withheld")
    _need(text, r"how much does [^.?!]+ take home\?")
    return _percent_of(_gross_pay(text), -tax)


SHAPES: tuple[Callable[[str], Fraction], ...] = (
    shopping,
    unit_price,
    store_saving,
    share,
    rise_and_cut,
    monthly_growth,
    town_growth,
    savings,
    better_bank,
    together,
    head_start,
    mean_score,
    next_score,
    merged_mean,
    circle_area,
    rectangle_area,
    flooring,
    pool_fill,
    convert,
    speed,
    fuel_cost,
    pencils_each,
    pay_before_tax,
    take_home,
)

_OPERATOR = re.compile(r"[-+*/×÷^]")
_ARITHMETIC = re.compile(
    r"(?:[a-z ]+: )?(?:please )?(?P<ask>what is|what's|compute|calculate|evaluate)?"
    r"\s*(?P<expression>[\d\s.+\-*/()×÷^]+?)\s*=?\s*[?.!]?"
)


def _arithmetic(text: str) -> str | None:
    """The calculator's value of the one sentence that is a bare expression or asks for one."""
    asked = [
        found["expression"]
        for sentence in re.split(r"(?<=[.?!])\s+", text)
        if (found := _ARITHMETIC.fullmatch(sentence))
        and re.search(r"\d", found["expression"])
        and _OPERATOR.search(found["expression"])
    ]
    if len(asked) != 1:
        return None
    expression = asked[0].replace("×", "*").replace("÷", "/").replace("^", "**")
    try:
        return evaluate(expression)
    except ToolError:
        return None


def _normalize(question: str) -> str:
    """Lower case, straight apostrophes, single spaces: case and spacing never matter."""
    return " ".join(question.replace("\u2019", "'").lower().split())


def solve(question: str) -> str | None:
    """The exact answer to `question` as the calculator prints it, or None when the text does not
    state one complete problem this solver understands.

    >>> solve("A mug costs $4.00. Its price goes up by 25%, and later the new price is cut by 10%. "
    ...       "What is the final price?")
    '4.5'
    >>> solve("What is 12.5 * 3?"), solve("?")
    ('37.5', None)
    """
    text = _normalize(question)
    answers: set[Fraction] = set()
    for shape in SHAPES:
        try:
            answers.add(shape(text))
        except _Unreadable:
            continue
    if len(answers) > 1:
        return None  # two shapes read two different problems: ambiguous
    if not answers:
        return _arithmetic(text)
    try:
        return fmt(answers.pop())
    except ValueError:  # no exact decimal form: not a problem this solver states exactly
        return None
