"""Word-problem templates about money and counts: shopping, unit rates, percentages, compound
growth and a multi-step paycheck or sharing problem.

Each template draws its numbers from `rng`, writes one calculator step per line of reasoning
(easy 1 step, medium 2, hard 3; multi_step one more) and returns a `Problem`; `Steps.add` rejects
draws whose values would not print exactly, and the caller draws again.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from domains.math.steps import Problem, Reject, Steps, fmt, money
from toolscale.core.contract import Difficulty

TO_THE_CENT = " Give the amount in dollars, to the cent."

# (item, lowest price, highest price) in whole dollars; prices are drawn in quarters.
ITEMS = (
    ("notebook", 2, 8),
    ("pen set", 3, 9),
    ("T-shirt", 8, 25),
    ("mug", 5, 15),
    ("book", 9, 30),
    ("candle", 4, 14),
    ("towel", 6, 20),
    ("desk lamp", 18, 45),
)
# (one item, many items, what they come in)
PACKS = (
    ("granola bar", "granola bars", "box"),
    ("battery", "batteries", "pack"),
    ("egg", "eggs", "carton"),
    ("pencil", "pencils", "box"),
    ("bottle of water", "bottles of water", "case"),
    ("tea bag", "tea bags", "box"),
)
SHARES = (
    "A school has {total} students, and {pct}% of them walk to school. "
    "How many students walk to school?",
    "A company has {total} employees, and {pct}% of them work from home. "
    "How many employees work from home?",
    "A survey asked {total} people, and {pct}% of them answered yes. How many people answered yes?",
    "An orchard has {total} trees, and {pct}% of them are apple trees. "
    "How many apple trees are there?",
)
GOODS = ("A bicycle", "A laptop", "A sofa", "A concert ticket", "A winter coat", "A tent")
# (March and April counts, the question about May, the answer's unit word)
GROWTHS = (
    (
        "A bakery sold {march} loaves of bread in March and {april} in April.",
        "how many loaves will it sell in May?",
        "loaves",
    ),
    (
        "A game app was downloaded {march} times in March and {april} times in April.",
        "how many times will it be downloaded in May?",
        "downloads",
    ),
    (
        "A museum had {march} visitors in March and {april} in April.",
        "how many visitors will it have in May?",
        "visitors",
    ),
    (
        "A bike-share station rented out {march} bikes in March and {april} in April.",
        "how many bikes will it rent out in May?",
        "bikes",
    ),
)
RATES = (2, 4, 5, 6, 8, 10, 12, 15, 20, 25)


def _quarters(rng: random.Random, low: int, high: int) -> Fraction:
    return Fraction(rng.randint(low * 4, high * 4), 4)


def _listing(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def shopping_discount(rng: random.Random, level: Difficulty, names: tuple[str, ...]) -> Problem:
    """Items times prices; medium takes a store-wide discount off; hard then adds sales tax."""
    person, steps = names[0], Steps()
    lines, terms = [], []
    for item, low, high in rng.sample(ITEMS, 3 if level == "hard" else 2):
        qty, price = rng.randint(1, 6), _quarters(rng, low, high)
        each = f"{qty} {item}s at {money(price)} each" if qty > 1 else f"1 {item} at {money(price)}"
        lines.append(each)
        terms.append(f"{qty} * {fmt(price)}")
    steps.add("subtotal", " + ".join(terms), decimals=2)
    text = f"{person} buys {_listing(lines)}."
    if level == "easy":
        return Problem(
            f"{text} What is the total cost?{TO_THE_CENT}", tuple(steps.steps), "dollars"
        )
    off = rng.choice((10, 15, 20, 25, 30, 40))
    steps.add("discounted", f"{{subtotal}} * (1 - {off} / 100)", decimals=2)
    text += f" The store takes {off}% off the whole purchase."
    if level == "hard":
        tax = rng.choice((5, 6, 8, 10))
        steps.add("total", f"{{discounted}} * (1 + {tax} / 100)", decimals=2)
        text += f" Then {tax}% sales tax is added to the discounted amount."
    return Problem(
        f"{text} How much does {person} pay?{TO_THE_CENT}", tuple(steps.steps), "dollars"
    )


def unit_rate(rng: random.Random, level: Difficulty, names: tuple[str, ...]) -> Problem:
    """Price per item; medium scales it to another count; hard compares two stores' unit prices."""
    one, many, box = rng.choice(PACKS)
    steps = Steps()
    count = rng.randint(4, 30)
    total = Fraction(rng.randint(10, 120) * count, 100)  # a whole number of cents per item
    if level != "hard":
        steps.add("unit_price", f"{fmt(total)} / {count}", decimals=2)
        text = f"A {box} of {count} {many} costs {money(total)}."
        if level == "easy":
            question = f" What is the price of one {one}?"
        else:
            want = rng.randint(2, 60)
            steps.add("cost", f"{{unit_price}} * {want}", decimals=2)
            question = f" At the same price per {one}, how much would {want} {many} cost?"
        return Problem(text + question + TO_THE_CENT, tuple(steps.steps), "dollars")
    other = rng.randint(4, 30)
    other_total = Fraction(rng.randint(10, 120) * other, 100)
    a = steps.add("price_a", f"{fmt(total)} / {count}", decimals=2)
    b = steps.add("price_b", f"{fmt(other_total)} / {other}", decimals=2)
    want = rng.randint(10, 90)
    high, low = ("price_a", "price_b") if a > b else ("price_b", "price_a")
    steps.add("saving", f"({{{high}}} - {{{low}}}) * {want}", decimals=2)
    text = (
        f"Store A sells a {box} of {count} {many} for {money(total)}, and store B sells a {box} of "
        f"{other} {many} for {money(other_total)}. {names[0]} needs {want} {many} and pays the "
        f"lower price per {one}. How much does {names[0]} save compared with paying the higher "
        f"price per {one} for all {want}?"
    )
    return Problem(text + TO_THE_CENT, tuple(steps.steps), "dollars")


def percentage(rng: random.Random, level: Difficulty, names: tuple[str, ...]) -> Problem:
    """A percentage of a count; medium a rise then a cut; hard repeats a month-on-month growth."""
    steps = Steps()
    if level == "easy":
        total, pct = rng.randint(4, 80) * 25, rng.choice((8, 12, 15, 20, 35, 40, 45, 60, 65, 85))
        steps.add("part", f"{total} * {pct} / 100", decimals=0)
        text = rng.choice(SHARES).format(total=total, pct=pct)
        return Problem(text, tuple(steps.steps), "number")
    if level == "medium":
        price = _quarters(rng, 20, 400)
        up, down = rng.choice((10, 20, 25, 30, 50)), rng.choice((10, 15, 20, 25, 40))
        steps.add("raised", f"{fmt(price)} * (1 + {up} / 100)", decimals=2)
        steps.add("final", f"{{raised}} * (1 - {down} / 100)", decimals=2)
        text = (
            f"{rng.choice(GOODS)} costs {money(price)}. Its price goes up by {up}%, and later the "
            f"new price is cut by {down}%. What is the final price?"
        )
        return Problem(text + TO_THE_CENT, tuple(steps.steps), "dollars")
    pct = rng.choice((5, 10, 15, 20, 25, 30, 40, 50, 60, 75))
    den = Fraction(100 + pct, 100).denominator
    march = _multiple(rng, den * den, 40, 6000)  # so that May's count is a whole number too
    april = march * (100 + pct) // 100
    steps.add("change", f"{april} - {march}", decimals=0)
    steps.add("percent", f"{{change}} / {march} * 100", decimals=2)
    steps.add("may", f"{april} * (1 + {{percent}} / 100)", decimals=0)
    counts, question, noun = rng.choice(GROWTHS)
    text = (
        f"{counts.format(march=march, april=april)} If the number grows from April to May by the "
        f"same percentage as from March to April, {question}"
    )
    return Problem(text, tuple(steps.steps), "number", noun)


def _multiple(rng: random.Random, unit: int, low: int, high: int) -> int:
    """A random multiple of `unit` between `low` and `high`; reject the draw when there is none."""
    first, last = -(-low // unit), high // unit
    if first > last:
        raise Reject
    return unit * rng.randint(first, last)


def compound_growth(rng: random.Random, level: Difficulty, names: tuple[str, ...]) -> Problem:
    """Savings (or a town) growing r% a year for N years; hard compares two banks' rates."""
    steps, person = Steps(), names[0]
    years = 2 if level == "easy" else rng.randint(3, 4) if level == "medium" else 3
    if level == "hard":
        rate_a, rate_b = rng.sample(RATES, 2)
        dens = [Fraction(100 + r, 100).denominator ** years for r in (rate_a, rate_b)]
        deposit = Fraction(_multiple(rng, math.lcm(*dens), 50_000, 10_000_000), 100)
        grow_a, grow_b = fmt(1 + Fraction(rate_a, 100)), fmt(1 + Fraction(rate_b, 100))
        a = steps.add("bank_a", f"{fmt(deposit)} * {grow_a} ** {years}", decimals=2)
        b = steps.add("bank_b", f"{fmt(deposit)} * {grow_b} ** {years}", decimals=2)
        high, low = ("bank_a", "bank_b") if a > b else ("bank_b", "bank_a")
        steps.add("difference", f"{{{high}}} - {{{low}}}", decimals=2)
        text = (
            f"Bank A pays {rate_a}% interest per year and bank B pays {rate_b}% per year, both "
            f"compounded once a year. {person} deposits {money(deposit)} for {years} years and "
            "adds or withdraws nothing. How much more money does the better bank give after "
            f"{years} years?"
        )
        return Problem(text + TO_THE_CENT, tuple(steps.steps), "dollars")
    rate = rng.choice(RATES)
    growth = 1 + Fraction(rate, 100)
    unit = growth.denominator**years
    if rng.random() < 0.5:
        people = _multiple(rng, unit, 1_000, 200_000)
        steps.add("population", f"{people} * {fmt(growth)} ** {years}", decimals=0)
        text = (
            f"A town has {people} residents, and its population grows by {rate}% every year. "
            f"How many residents will it have after {years} years?"
        )
        return Problem(text, tuple(steps.steps), "number", "residents")
    deposit = Fraction(_multiple(rng, unit, 50_000, 6_000_000), 100)
    steps.add("balance", f"{fmt(deposit)} * {fmt(growth)} ** {years}", decimals=2)
    text = (
        f"{person} deposits {money(deposit)} in a savings account that pays {rate}% interest, "
        f"compounded once a year, and adds or withdraws nothing. How much is in the account "
        f"after {years} years?"
    )
    return Problem(text + TO_THE_CENT, tuple(steps.steps), "dollars")


def multi_step(rng: random.Random, level: Difficulty, names: tuple[str, ...]) -> Problem:
    """Easy: share out boxes of pencils (2 steps); medium: pay with overtime (3); hard: take-home
    pay after tax (4)."""
    steps, person = Steps(), names[0]
    if level == "easy":
        boxes, per_box, friends = (
            rng.randint(2, 12),
            rng.choice((6, 8, 10, 12, 24)),
            rng.randint(3, 9),
        )
        spare = boxes * per_box % friends  # keeping `spare` plus whole rounds leaves an even share
        kept = rng.choice([n for n in range(spare, 13, friends) if n >= 2] or [0])
        if not kept or kept >= boxes * per_box:
            raise Reject
        steps.add("pencils", f"{boxes} * {per_box}", decimals=0)
        if steps.add("each", f"({{pencils}} - {kept}) / {friends}", decimals=0) < 2:
            raise Reject
        text = (
            f"{person} buys {boxes} boxes of {per_box} pencils, keeps {kept} pencils and shares "
            f"the rest equally among {friends} classmates. How many pencils does each classmate "
            "get?"
        )
        return Problem(text, tuple(steps.steps), "number", "pencils")
    wage, hours = _quarters(rng, 12, 40), rng.randint(41, 58)
    steps.add("regular", f"40 * {fmt(wage)}", decimals=2)
    steps.add("overtime", f"{hours - 40} * 1.5 * {fmt(wage)}", decimals=2)
    steps.add("gross", "{regular} + {overtime}", decimals=2)
    text = (
        f"{person} earns {money(wage)} per hour for the first 40 hours of a week and 1.5 times "
        f"that rate for every hour beyond 40. Last week {person} worked {hours} hours."
    )
    if level == "medium":
        return Problem(
            f"{text} What was the pay before tax?{TO_THE_CENT}", tuple(steps.steps), "dollars"
        )
    tax = rng.choice((10, 12, 15, 20, 22, 25))
    steps.add("net", f"{{gross}} * (1 - {tax} / 100)", decimals=2)
    text += f" {tax}% of the pay is withheld for taxes. How much does {person} take home?"
    return Problem(text + TO_THE_CENT, tuple(steps.steps), "dollars")
