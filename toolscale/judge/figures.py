"""Stated figures must be true: every amount, count and date an agent tells the caller is backed.

A careful grader checks each figure an agent states against what it was shown: a refund of
$52.99 when the record says $45.99, or a delivery "on 16 September" when the order says the
13th, is a wrong answer however right the rest is. Here a figure is a number (an amount, a
count, a percentage) or a date in an agent's message, read as people write them
(`toolscale.judge.stated`: "$1,708.50", "1708.5", "13 September", "Sep 13, 2025"); the ids,
times and list numbering in a text are not figures, nor is a number that begins a name ("89
Tracy Fort"), nor a JSON block's field other than money (a stated confidence is no figure).

A number is *backed* when it is shown (in a tool result, the caller's words, the policy; a
count in words, "two tickets", is a number), counted (the records a result lists, the days
between two shown dates), or, for an amount (written with "$", cents or "dollars"), made the
obvious way: the sum or difference of two of the records' amounts (paid 45.00, fee 5.00,
refund 40.00), a shown amount times a count of at most MAX_COUNT (3 tickets at 45.00 are
135.00), or what one of the domain's declared formulas makes of a record's amount (a 2.50 + 1%
fee on 251.00: 2.51, 5.01), alone or with that amount added or taken off (256.01, 245.99).
An amount is backed by amounts: a record's decimal ("95.7"), a whole number of at least
MONEY_INT, a calculator's result; "7.00" is not backed by "year 7".

A figure is read in its sentence (`toolscale.judge.figure_roles`): a rate ("$7.50 per guest"),
a bound ("$100 or more") or an operand of worked arithmetic ("$4.50 x 3") is backed as above or
as a record's amount split over a count, and is said of no field; the result of worked
arithmetic is backed when its operands are and the sum holds; a number that is not money may
be a shown quantity of at least MONEY_INT times a count (2 packs of 10,000 calls: 20,000), or
a whole number the caller said added to or taken from one a tool result shows (3 snacks on the
booking and 4 more asked for "would make 7").

A date is backed when shown (on its day and month, its year and weekday when it names them),
or when it is a shown date moved by a period of a week or more that the inputs state ("valid
for a year", "within 30 days"): a date a few days off a record is the usual wrong date, so no
other date arithmetic is read in; a date offered in a sentence that offers ("for example
Tuesday 29 July") need only be on the calendar; a day the caller names by its distance from
the policy's today ("this Wednesday", "tomorrow": `toolscale.core.relative_days`) is shown as
the date it means. A bound may be what is left of a backed one ("at most 9 in total; with the
2 already on it, up to 7 more"). `unbacked_figures` lists the figures that are
none of these; the verifier rejects an attempt that states one (on the domains that ask it to,
`Domain.checks_figures`). Nothing here knows a domain.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from toolscale.core.judging import Formula
from toolscale.core.relative_days import policy_today, relative_days
from toolscale.core.written import Written
from toolscale.judge.attributed import Fields, fields, misdated, record_facts
from toolscale.judge.figure_made import (
    between,
    complement,
    duration_part,
    per_unit_product,
    remainder,
)
from toolscale.judge.figure_roles import (
    offered,
    on_the_calendar,
    per_unit,
    rate_or_bound,
    worked,
)
from toolscale.judge.readings import DAYS, Readings, reading
from toolscale.judge.stated import Figure, stated

MAX_COUNT = 20  # the largest count a shown amount is multiplied by ("3 tickets at $45.00")
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


def made(records: Iterable[Figure], formulas: Sequence[Formula]) -> frozenset[int]:
    """The cents `formulas` make of the amounts of `records`, each alone and with its amount
    added or taken off: a fee, the amount with its fee, the refund of the amount less it."""
    found: set[int] = set()
    for a in {n.cents for n in records if (n.money or n.value >= MONEY_INT) and n.value > 0}:
        for formula in formulas:
            for m in formula.amounts(a):
                found.update((m, a + m, a - m))
    return frozenset(found)


def unbacked_figures(
    said: Sequence[str],
    records: Iterable[str],
    instructions: Iterable[str] = (),
    readings: Readings | None = None,
    formulas: Sequence[Formula] = (),
) -> list[str]:
    """One reason per figure of the agent's messages `said` that what it was shown (`records`:
    tool results and the caller's messages; `instructions`: the policy) does not back:
    "stated amount not backed by any record: '$52.99'". A backed figure said of a field or a
    record must be that one's (`toolscale.judge.attributed`). `readings` keeps each input's
    reading for the next call (`Readings`); `formulas` are the domain's (`made`)."""
    records, instructions = list(records), list(instructions)
    seen = shown(records, instructions, readings)
    if formulas:
        seen = replace(seen, made=made(seen.records, formulas))
    known = fields(records, record_facts if readings is None else readings.facts)
    read_text = reading if readings is None else readings.read
    told = {day for text in instructions for day in read_text(text).full}
    problems: list[str] = []
    for text in said:
        mentions, numbers, read = stated(text)
        problems += [
            f"stated date not backed by any record: {words!r}"
            for mention, words in mentions
            if not seen.has_date(mention)
            and not (offered(read, mention) and on_the_calendar(mention, seen.years()))
        ]
        found, worked_out = _unbacked_numbers(read, numbers, seen, known)
        problems += found
        # a count worked out once ("each passenger gets 2 free bags, so 4 of your 5 bags are
        # free") is shown to the messages after it ("4 bags were free")
        seen = replace(seen, counts=seen.counts | worked_out)
        # a date the policy gives (today) is no record's: "moved ... effective today (15 Sep)"
        backed = [(m, w) for m, w in mentions if seen.has_date(m) and not any(map(m.means, told))]
        problems += misdated(known, read, backed, seen.moved)
    return list(dict.fromkeys(problems))


def _unbacked_numbers(
    read: str, numbers: list[Figure], seen: Shown, known: Fields
) -> tuple[list[str], frozenset[int]]:
    """The reasons for the numbers of one message (`read`, as `stated` reads it), each checked
    as its role asks (`toolscale.judge.figure_roles`): a claim is backed and, said of a field
    or a record, that one's; a rate, a bound, an operand or an amount in a sentence that
    speaks per unit is backed or a split amount; the
    result of worked arithmetic is backed by operands that are, when the sum holds, is the
    claim its first operand's label makes, and is a base for the stated rates after it. With
    the reasons, the whole counts the message works out of its other figures."""
    sums = worked(read, numbers)
    parts = {f.start for w in sums for f in w.operands}
    results = {w.result.start: w for w in sums if w.holds()}
    problems: list[str] = []
    worked_out: set[int] = set()
    for figure in numbers:
        said_as = results.get(figure.start)
        if said_as is not None and all(seen.backs_part(f) for f in said_as.operands):
            label_at = said_as.operands[0].start
            seen = replace(seen, derived=seen.derived | {abs(figure.cents)})  # a base for rates
        elif figure.start in parts or rate_or_bound(read, figure) or per_unit(read, figure):
            # a bound may be what is left of a backed one: "at most 9 bags in total; with the 2
            # already on it, you can add up to 7 more"
            if seen.backs_part(figure):
                continue
            if made_of_others(read, figure, numbers, seen):
                worked_out |= _count(figure)
            else:
                problems.append(f"stated amount not backed by any record: {figure.text!r}")
            continue
        elif seen.backs(figure):
            label_at = figure.start
        elif made_of_others(read, figure, numbers, seen) or between(figure, numbers, seen):
            worked_out |= _count(figure)
            continue  # "124 to 108, so the Hawks won by 16 points"
        else:
            problems.append(f"stated amount not backed by any record: {figure.text!r}")
            continue
        label = known.label_before(read, label_at) if figure.money else None
        if (
            label is not None
            and not known.amount_fits(label, figure.cents)
            and not known.named_holds(read, label_at, figure.cents)
        ):
            problems.append(f"stated {label} is not the records': {figure.text!r}")
    return problems, frozenset(worked_out)


def _count(figure: Figure) -> set[int]:
    """`figure`'s value as a count, if it is a whole number that is not money."""
    return {int(figure.value)} if not figure.money and figure.value.is_integer() else set()


def made_of_others(read: str, figure: Figure, numbers: list[Figure], seen: Shown) -> bool:
    """Whether `figure` is made from the backed figures of its message the plain ways a bound
    or a count is (`toolscale.judge.figure_made`): a remainder, a per-unit product, a part of
    a shown duration, a bound said from the other side."""
    return (
        remainder(figure, numbers, seen)
        or per_unit_product(read, figure, numbers, seen)
        or duration_part(read, figure, seen)
        or complement(read, figure, seen)
    )
