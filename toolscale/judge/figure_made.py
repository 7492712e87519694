"""Figures an agent makes from the other figures of its message, which a careful grader checks
by doing the sum:

- `remainder`: the difference of two backed figures of the message ("at most 9 in total; with
  the 2 already on it, up to 7 more"; a margin, "won by 16 points" after "124 to 108");
- `summed`: the sum of two or more of them (a total of shown parts);
- `per_unit_product`: a figure the message says per unit, times a shown count ("each passenger
  gets 2 free bags", 2 passengers: "4 of your 5 bags are free");
- `duration_part`: the hours or minutes of a shown duration said again ("165 minutes (2 hours 45
  minutes)");
- `complement`: a whole bound said from the other side ("parties of 6 or more pay a deposit":
  "parties of 5 or fewer pay none").

`toolscale.judge.figures` asks these only of a figure nothing shown backs on its own. Nothing
here knows a domain.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import combinations

from toolscale.judge.figure_roles import per_unit
from toolscale.judge.shown import Shown
from toolscale.judge.stated import Figure

MAX_PARTS = 12  # the most backed figures of one message whose sums are read
_DURATION = re.compile(
    r"(\d+)\s*(?:hours?|hrs?|h)\b,?\s*(?:and\s+)?(\d+)\s*(?:minutes?|mins?)\b", re.IGNORECASE
)
# the side a whole bound is said from: "5 or fewer" is "6 or more" less one
_DOWN = re.compile(r"\s*(?:or (?:fewer|less|under|below)|and (?:under|below))\b")
_UP = re.compile(r"\s*(?:or (?:more|over|above)|and (?:over|above)|\+)")


def _backed_others(figure: Figure, numbers: list[Figure], seen: Shown) -> list[int]:
    """The sizes of the message's other backed figures of `figure`'s kind, the first
    MAX_PARTS."""
    others = [f for f in numbers if f is not figure and f.money == figure.money]
    return [abs(f.cents) for f in others if seen.backs(f)][:MAX_PARTS]


def remainder(figure: Figure, numbers: list[Figure], seen: Shown) -> bool:
    """Whether `figure` is the difference of two other backed figures of its message."""
    shown, said = _backed_others(figure, numbers, seen), abs(figure.cents)
    return any(said == abs(a - b) for a, b in combinations(shown, 2))


def summed(figure: Figure, numbers: list[Figure], seen: Shown) -> bool:
    """Whether `figure` is the sum of two or more other backed figures of its message, of its
    kind: a total the message shows the parts of without the sign (an order's three lines,
    $160.99, $209.99 and $473.98, "so the total was $844.96"). Sums are read over the first
    MAX_PARTS backed figures."""
    said = abs(figure.cents)
    one: set[int] = set()  # the figures so far, and the sums of two or more of them
    more: set[int] = set()
    for part in _backed_others(figure, numbers, seen):
        more |= {total + part for total in one | more if total + part <= said}
        one.add(part)
    return said in more


def per_unit_product(read: str, figure: Figure, numbers: list[Figure], seen: Shown) -> bool:
    """Whether the whole number `figure` is a backed figure its message says per unit ("each
    passenger gets 2 free bags") times a shown count (2 passengers)."""
    if figure.money or not figure.value.is_integer():
        return False
    units = [
        f
        for f in numbers
        if f is not figure and not f.money and per_unit(read, f) and seen.backs(f)
    ]
    return any(u.value * c == figure.value for u in units for c in seen.multipliers())


def duration_part(read: str, figure: Figure, seen: Shown) -> bool:
    """Whether `figure` is the hours or the minutes of "H hours M minutes" whose whole, in
    minutes, is shown ("165 minutes (2 hours 45 minutes)")."""
    for found in _DURATION.finditer(read):
        if found.start(1) <= figure.start < found.end(2):
            minutes = int(found[1]) * 60 + int(found[2])
            return seen.backs(replace(figure, value=float(minutes), money=False))
    return False


def complement(read: str, figure: Figure, seen: Shown) -> bool:
    """Whether the whole bound `figure` is a backed one said from the other side: "5 or fewer"
    where 6 is shown, "7 or more" where 6 is ("more than 6")."""
    if figure.money or not figure.value.is_integer():
        return False
    end = figure.start + len(figure.text)
    step = -1 if _UP.match(read, end) else 1 if _DOWN.match(read, end) else 0
    return step != 0 and seen.backs(replace(figure, value=figure.value + step))
