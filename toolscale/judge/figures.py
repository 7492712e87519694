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

from collections.abc import Iterable, Sequence
from dataclasses import replace

from toolscale.core.judging import Formula
from toolscale.judge.attributed import Fields, fields, misdated, record_facts
from toolscale.judge.figure_made import (
    complement,
    duration_part,
    per_unit_product,
    remainder,
    summed,
)
from toolscale.judge.figure_roles import (
    offered,
    on_the_calendar,
    per_unit,
    rate_or_bound,
    worked,
)
from toolscale.judge.readings import Readings, reading
from toolscale.judge.shown import MONEY_INT, Shown, shown
from toolscale.judge.stated import Figure, stated


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
        elif made_of_others(read, figure, numbers, seen) or summed(figure, numbers, seen):
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
