"""What the agent was shown, as the figures check reads it: the numbers, counts, dates, periods
and rates of its inputs (`shown`), and whether a stated figure is among them or made from them
the obvious ways (`Shown.backs`). `toolscale.judge.figures` applies it to each message; the rules
are that module's docstring. Nothing here knows a domain.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from toolscale.core.relative_days import policy_today, relative_days
from toolscale.core.written import Written
from toolscale.judge.readings import DAYS, Readings, reading
from toolscale.judge.stated import MAX_COUNT, Figure

MAX_STEPPED = 2  # the most named weekdays a date is stepped past (closed on two days)
MONEY_INT = 100  # a whole number this large in a record may be an amount ("daily_limit": 750)


@dataclass(frozen=True)
class Shown:
    """What the agent was shown: the numbers, counts, dates and periods of its inputs."""

    numbers: tuple[Figure, ...]
    records: tuple[Figure, ...]  # the numbers of the records and the caller's words alone
    counts: frozenset[int]
    dates: tuple[dt.date, ...]
    partial: tuple[Written, ...]  # dates written without a year ("13 September")
    periods: frozenset[tuple[int, str]]  # (how many, "day" / "week" / "month" / "year")
    made: frozenset[int] = frozenset()  # cents the domain's formulas make of the records' amounts
    # what the caller's numbers make of the records' (3 snacks held and 4 asked for make 7)
    changed: frozenset[int] = frozenset()
    percents: frozenset[float] = frozenset()  # the rates the inputs state ("a 20% fee")
    derived: frozenset[int] = frozenset()  # cents of the message's own worked arithmetic
    # cents the policy prices per unit ("$68 per game", "each point worth $0.01"), and those
    # prices times a number the caller or the records give (19,000 points are $190.00)
    units: frozenset[int] = frozenset()
    scaled: frozenset[int] = frozenset()
    # the weekdays the records name (a restaurant "closed_on": "Wednesday"), Monday 0
    weekdays: frozenset[int] = frozenset()

    def by_rate(self, said: Figure) -> bool:
        """Whether the amount `said` is a stated rate of a record's amount (or of the
        message's worked result), or that amount less or plus it: 20% of 106.20 is 21.24,
        leaving 84.96; 1,360 less 10% is 1,224."""
        bases = {abs(n.cents) for n in self.records if n.money or n.value >= MONEY_INT}
        for a in bases | self.derived | self.units | self.scaled:
            for p in self.percents:
                part = round(a * p / 100)
                if any(abs(said.cents - c) <= 1 for c in (part, a - part, a + part)):
                    return True
        return False

    def backs(self, said: Figure) -> bool:
        """Whether the stated number `said` is shown, counted or made from shown amounts: money
        from amounts, any other number from any shown number or count (module docstring)."""
        if not said.money:
            if said.cents in {n.cents for n in self.numbers} or said.value in self.counts:
                return True
            if said.value.is_integer() and any(said.value == d.year for d in self.dates):
                return True
            if said.value.is_integer() and int(said.value) in self.changed:
                return True
            # a quantity times a count: 2 packs of the policy's 10,000 calls are 20,000
            large = {n.cents for n in self.numbers if not n.money and n.value >= MONEY_INT}
            return any(q * c == said.cents for q in large for c in self.multipliers())
        amounts = {n.cents for n in self.numbers if n.money or n.value >= MONEY_INT}
        if said.cents in amounts or -said.cents in amounts or said.cents in self.made:
            return True  # a negative amount is said by its size: "-76.95" is "$76.95 lower"
        if said.cents in self.scaled:
            return True
        if self.by_rate(said):
            return True
        # by their size: two purchases of -316.87 and -136.48 "add up to $453.35"
        records = sorted({abs(n.cents) for n in self.records if n.money or n.value >= MONEY_INT})
        records = [a for a in records if a > 0]
        if any(said.cents in (a + b, b - a) for a, b in combinations(records, 2)):
            return True
        return any(a * c == said.cents for a in amounts if a > 0 for c in self.multipliers())

    def multipliers(self) -> set[int]:
        """The counts a shown number may be multiplied or split by: 2 to MAX_COUNT, shown."""
        counts = {int(n.value) for n in self.numbers if not n.money and n.value.is_integer()}
        return {c for c in counts | self.counts if 1 < c <= MAX_COUNT}

    def backs_part(self, said: Figure) -> bool:
        """Whether `said`, a rate or an operand, is backed: shown or made (`backs`), or an
        amount of the records split over a count ("$4.50 x 3" of a 13.50 service fee)."""
        if self.backs(said):
            return True
        records = {n.cents for n in self.records if n.money or n.value >= MONEY_INT}
        return said.money and any(abs(said.cents) * c in records for c in self.multipliers())

    def years(self) -> set[int]:
        """The years of the shown dates (an offered yearless date is in one of them)."""
        return {d.year for d in self.dates} | {p.year for p in self.partial if p.year}

    def has_date(self, said: Written) -> bool:
        """Whether the stated date `said` is shown, or a shown date moved by a shown period."""
        if any(said.means(day) for day in self.dates):
            return True
        moved = [d for day in self.dates for d in self.moved(day, said.year is None)]
        if any(said.means(d) for d in moved):
            return True
        if any(said.means(d) for d in self.stepped_past(self.dates + tuple(moved))):
            return True
        return any(
            (p.month, p.day) == (said.month, said.day)
            and (said.year is None or p.year in (None, said.year))
            and said.weekday in (None, p.weekday)  # "Sunday 17 November" is not "17 November"
            for p in self.partial
        )

    def stepped_past(self, days: Sequence[dt.date]) -> set[dt.date]:
        """The days next to `days` past one or two days of a weekday the records name: the
        latest open day before a bound that falls on the day a restaurant is closed (a 30-day
        bound on Wednesday 13 August, closed on Wednesdays: Tuesday 12 August)."""
        found = set()
        for day in days:
            for sign in (1, -1):
                step = day
                for _ in range(MAX_STEPPED):
                    if step.weekday() not in self.weekdays:
                        break
                    step += dt.timedelta(days=sign)
                    found.add(step)
        return found

    def moved(self, day: dt.date, yearless: bool = False) -> list[dt.date]:
        """`day` moved by each shown period, both ways; for a `yearless` mention not by whole
        years, which keep the day and month and so would back any weekday ("Wednesday 11
        December" is not a Thursday's 11 December a year on)."""
        steps = [(n * sign, unit) for n, unit in self.periods for sign in (1, -1)]
        days = [d for n, unit in steps for d in _moved(day, n, unit)]
        return [d for d in days if not yearless or (d.month, d.day) != (day.month, day.day)]


def _moved(day: dt.date, n: int, unit: str) -> list[dt.date]:
    """`day` moved by n units (a month or a year keeps the day of the month where it can)."""
    if unit in DAYS:
        return [day + dt.timedelta(days=n * DAYS[unit])]
    months = day.month - 1 + n * (12 if unit == "year" else 1)
    try:
        return [day.replace(year=day.year + months // 12, month=months % 12 + 1)]
    except ValueError:  # 31 March + a month
        return []


def _placed(partial: Iterable[Written], years: set[int]) -> set[dt.date]:
    """The yearless dates (the caller's "Friday 9 May") in the shown years they fit (the
    weekday, when named, that date's), so a period moves them too: 9 May less 45 days."""
    found = set()
    for p in partial:
        for year in years:
            try:
                day = dt.date(year, p.month, p.day)
            except ValueError:
                continue
            if p.weekday in (None, day.weekday()):
                found.add(day)
    return found


def shown(
    records: Iterable[str], instructions: Iterable[str] = (), readings: Readings | None = None
) -> Shown:
    """What the agent was shown (module docstring): `records` are the tool results and the
    caller's messages, `instructions` the policy and any other text it was given (each read
    through `readings` when given). Amounts are added or subtracted only when both are the
    records' ("paid 45.00, fee 5.00, refund 40.00"); two amounts of the policy make no third."""
    read = reading if readings is None else readings.read
    records, instructions = tuple(records), tuple(instructions)
    today = next(filter(None, map(policy_today, instructions)), None)
    found: list[Figure] = []
    mine: list[Figure] = []
    counts: set[int] = set()
    full: set[dt.date] = set()
    partial: list[Written] = []
    periods: set[tuple[int, str]] = set()
    percents: set[float] = set()
    asked: set[int] = set()  # the caller's whole numbers ("four servings")
    held: set[int] = set()  # the tool results' whole numbers (not money)
    units: set[int] = set()  # the policy's prices per unit
    weekdays: set[int] = set()  # the weekdays the records name
    for text, of_records in (*((t, True) for t in records), *((t, False) for t in instructions)):
        got = read(text)
        if not of_records:
            units.update(got.units)
        if of_records:
            whole = {int(f.value) for f in got.figures if not f.money and f.value.is_integer()}
            tool = text.lstrip().startswith(("{", "["))
            if tool:  # a closing day of a record, not the caller's "Tuesday 19 August"
                weekdays.update(_WEEKDAYS.index(w.casefold()) for w in _WEEKDAY.findall(text))
            (held if tool else asked).update(whole | (set() if tool else set(got.counts)))
            if not tool and today is not None:  # the caller's "this Wednesday": 16 July
                full.update(relative_days(text, today))
        periods.update(got.periods)
        percents.update(got.percents)
        found += got.figures
        mine += got.figures if of_records else ()
        counts.update(got.counts)
        full.update(got.full)
        partial += got.partial
    counts.update(abs((b - a).days) for a, b in combinations(sorted(full), 2))
    counts.update(_whole_years(a, b) for a, b in combinations(sorted(full), 2))  # an age
    days = tuple(sorted(full | _placed(partial, {d.year for d in full})))
    changed = {a + h for a in asked for h in held} | {abs(a - h) for a in asked for h in held}
    scaled = {u * n for u in units for n in asked | held | counts if n > 1}
    return Shown(
        tuple(found),
        tuple(mine),
        frozenset(counts),
        days,
        tuple(partial),
        frozenset(periods),
        changed=frozenset(changed),
        percents=frozenset(percents),
        units=frozenset(units),
        scaled=frozenset(scaled),
        weekdays=frozenset(weekdays),
    )


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = re.compile(rf"\b({'|'.join(_WEEKDAYS)})s?\b", re.IGNORECASE)


def _whole_years(a: dt.date, b: dt.date) -> int:
    """The whole years from `a` to a later `b`: a person born 14 October 2010 is 14 on 24
    September 2025."""
    return b.year - a.year - ((b.month, b.day) < (a.month, a.day))
