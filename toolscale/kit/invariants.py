"""World invariants: facts about a domain's world that every world it builds must keep.

A stateful domain lists its own (`StatefulDomain.invariants`), each an `Invariant`: a name and a
pure check of one state that returns the records breaking it, one line each ("invoice IN12 paid
on 2025-10-12, after today 2025-10-06"). check-domain runs every one on every task's initial state
(`toolscale.check.consistency`), so a world whose clock and records disagree (a bill paid after
today, a trip that left last week still booked, a standard-tier fan holding courtside seats, a
clinic slot on a day the clinic is shut) is a finding, as is a task that changed the world into
one. A task about a breach (a refusal whose reason is the breach) is made on a world that keeps
the invariant, the breach drawn into its own state: declare the invariant for the world, and let
`exempt` name the templates whose own state breaks it on purpose.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

State = dict[str, Any]


@dataclass(frozen=True)
class Invariant:
    """One fact of the world: `check(state)` lists the records that break it (empty: kept);
    `exempt` are templates whose task state breaks it on purpose (a task about the breach)."""

    name: str
    check: Callable[[State], list[str]]
    exempt: tuple[str, ...] = ()

    def broken(self, state: State, template: str = "") -> list[str]:
        if any(template.startswith(t) for t in self.exempt):
            return []
        return [f"{self.name}: {line}" for line in self.check(state)]


def records(state: State, table: str) -> Iterable[tuple[str, dict[str, Any]]]:
    """The (id, record) pairs of a table held as a dict or a list of records."""
    rows = state.get(table, {})
    if isinstance(rows, dict):
        return [(k, v) for k, v in rows.items() if isinstance(v, dict)]
    return [(str(n), r) for n, r in enumerate(rows) if isinstance(r, dict)]


def not_after(
    table: str, field: str, today: str, when: Callable[[dict[str, Any]], bool] | None = None
) -> Invariant:
    """A record's `field` (an ISO date, "" for none) is not after `today`, for the records
    `when` selects (all by default): what was done (paid, filled, posted) was done by now."""

    def check(state: State) -> list[str]:
        return [
            f"{table} {key}: {field} {row[field]} is after today {today}"
            for key, row in records(state, table)
            if (when is None or when(row))
            and isinstance(row.get(field), str)
            and row[field][:10] > today
        ]

    return Invariant(f"{table}.{field} not after today", check)


def distinct(table: str, owner_key: str, field: str) -> Invariant:
    """No two records of one owner (`owner_key`) hold one value of `field`: two children of one
    guardian are not both named Lisa, or a caller could not say which one they mean."""

    def check(state: State) -> list[str]:
        seen: dict[tuple[Any, Any], str] = {}
        found = []
        for key, row in records(state, table):
            mark = (row.get(owner_key), row.get(field))
            if mark in seen:
                found.append(
                    f"{table} {seen[mark]} and {key} of {owner_key} {mark[0]}: both {field} "
                    f"{mark[1]!r}"
                )
            seen.setdefault(mark, key)
        return found

    return Invariant(f"{table}.{field} distinct per {owner_key}", check)


def broken(invariants: Iterable[Invariant], state: State, template: str = "") -> list[str]:
    """Every invariant's broken records in `state`, one line each."""
    return [line for inv in invariants for line in inv.broken(state, template)]
