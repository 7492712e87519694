"""What the proposer is shown of a domain's state: one caller with every record linked to them.

A view is built from the domain's declared world (on the kit: its `entities`, each with the
owner it belongs to), so it works for every stateful domain on the kit without a line of its
own: the central entity (the root of the most owner chains whose records are people: a
customer, a patient, a fan), one of its records, every record it owns down the chains
(customer -> accounts -> cards, transactions; customer -> payees), the records those name by id
(a booking's train, a train's stations), the domain's clock ("today is ...") and the policy's
time rules, and, within what is left of the size budget, the records of the service open to
every caller (trains, restaurants, products), those sharing most values with the caller's first.
Other callers' records are never shown. A domain without declared entities gets a plain excerpt
of its state (`excerpt`).

The intents request and every task request of its intents see the same view, so an intent
written about a record reaches a task request that shows it. Nothing here sends a request.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from toolscale.core.contract import Domain, canonical_json

Record = dict[str, Any]
_PERSON_FIELDS = ("email", "phone", "name")
_TIME_WORDS = re.compile(
    r"\b(today|now|current time|days?|hours?|minutes?|weeks?|months?|years?|depart\w*|past|"
    r"future|notice|within|deadline|expir\w*|ahead|late|earliest|latest)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class View:
    """The text shown to the proposer, whose records it centres on ("" for an excerpt), and
    the records it shows by table (the caller's first; empty for an excerpt)."""

    text: str
    entity: str = ""
    record_id: str = ""
    records: dict[str, Record] = field(default_factory=dict)


def _entities(domain: Domain) -> list[Any]:
    return list(getattr(domain, "entities", ()) or ())


def _records(state: Record, table: str) -> dict[str, Record]:
    found = state.get(table)
    return found if isinstance(found, dict) else {}


def central_entity(domain: Domain, state: Record) -> Any | None:
    """The entity a view centres on: among entities with no owner, those whose records are
    people (an email, phone or name field) first, then the one owning the most kinds of record
    down its chains; None when the domain declares no entities."""
    entities = _entities(domain)
    if not entities:
        return None

    def owned(name: str) -> int:
        children = [e for e in entities if e.owner == name]
        return len(children) + sum(owned(c.name) for c in children)

    def person(entity: Any) -> bool:
        first = next(iter(_records(state, entity.table).values()), {})
        return any(f in first for f in _PERSON_FIELDS[:2])

    roots = [e for e in entities if not e.owner and _records(state, e.table)]
    if not roots:
        return None
    return max(roots, key=lambda e: (person(e), owned(e.name), -entities.index(e)))


def owned_records(domain: Domain, state: Record, entity: Any, record_id: str) -> dict[str, Record]:
    """Every record the `entity` record `record_id` owns down the owner chains, by table:
    {"accounts": {...}, "cards": {...}} (tables in declaration order, records in table order)."""
    found: dict[str, Record] = {}
    parents = {entity.name: {record_id}}
    pending = [e for e in _entities(domain) if e.owner]
    progress = True
    while pending and progress:
        progress = False
        for child in list(pending):
            if child.owner not in parents:
                continue
            ids = parents[child.owner]
            rows = {
                k: r
                for k, r in _records(state, child.table).items()
                if r.get(child.owner_key) in ids
            }
            parents[child.name] = set(rows)
            if rows:
                found.setdefault(child.table, {}).update(rows)
            pending.remove(child)
            progress = True
    order = [e.table for e in _entities(domain)]
    return {t: found[t] for t in sorted(found, key=order.index)}


def _values(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [v for item in value.values() for v in _values(item)]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    return [value] if isinstance(value, str) and len(value) > 1 else []


def referenced(
    state: Record, shown: dict[str, Record], skip: set[str], hops: int = 2
) -> dict[str, Record]:
    """The records (of tables not in `skip`) whose id a shown record names (a booking's
    `train_number`, a train's `origin` station), and those theirs name, up to `hops` steps."""
    tables = {t: v for t, v in state.items() if t not in skip and isinstance(v, dict)}
    tables = {t: v for t, v in tables.items() if v and all(isinstance(r, dict) for r in v.values())}
    found: dict[str, Record] = {}
    frontier = [r for rows in shown.values() for r in rows.values()]
    for _ in range(hops):
        named = {v for record in frontier for v in _values(record)}
        frontier = []
        for table, rows in tables.items():
            for key in sorted(named & set(rows)):
                if key not in found.get(table, {}):
                    found.setdefault(table, {})[key] = rows[key]
                    frontier.append(rows[key])
    return {t: dict(sorted(rows.items())) for t, rows in found.items()}


def today(state: Record) -> str:
    """The domain's clock in words, from the state's top-level date or date-time values:
    "Today is Tuesday 10 June 2025, and the time is 12:00." ("" when the state has none)."""
    moments: list[datetime] = []
    for value in state.values():
        if isinstance(value, str):
            try:
                moments.append(datetime.fromisoformat(value))
            except ValueError:
                continue
    if not moments:
        return ""
    latest = max(moments)
    day = f"{latest:%A} {latest.day} {latest:%B %Y} ({latest.date().isoformat()})"
    timed = any(m.time() != datetime.min.time() for m in moments)
    return f"Today is {day}" + (f", and the time is {latest:%H:%M}." if timed else ".")


def time_rules(policy: str) -> list[str]:
    """The policy's passages about time (notice, departure, deadlines, days before or within),
    each a bullet (with its indented sub-bullets, or the list its closing ":" opens), a
    paragraph or a whole table, as written (a bullet without its dash)."""
    items: list[list[str]] = []
    open_item = False
    listing = False  # the current item ends with ":": the bullets that follow are its own
    for line in policy.splitlines():
        stripped = line.strip()
        bullet = stripped.startswith(("- ", "* "))
        if not stripped or stripped.startswith("#"):
            listing = open_item and items[-1][-1].endswith(":") and not stripped.startswith("#")
            open_item = listing
            continue
        if listing and not bullet and not line[:1].isspace():  # an indented line continues
            listing = open_item = False
        table = stripped.startswith("|")
        continues = open_item and (items[-1][0].startswith("|") == table)
        nested = (line[:1].isspace() or listing) and open_item  # sub-bullets of their parent
        if not continues or (bullet and not nested):
            items.append([])
        items[-1].append(stripped.removeprefix("- ").removeprefix("* "))
        open_item = True
    passages = []
    for item in items:
        text = ("\n" if item[0].startswith("|") else " ").join(item)
        if _TIME_WORDS.search(text):
            passages.append(text)
    return passages


def _json(tables: dict[str, Record]) -> str:
    return canonical_json(tables)


def _nearest(
    state: Record, tables: list[str], values: set[str], rng: random.Random, budget: int
) -> dict[str, Record]:
    """Records of `tables`, those sharing most values with `values` first, while they fit."""
    scored = []
    for table in tables:
        for key, record in _records(state, table).items():
            shared = len(values & set(_values(record)))
            scored.append((-shared, rng.random(), table, key, record))
    scored.sort(key=lambda s: (s[0], s[1]))
    chosen: dict[str, Record] = {}
    used = 2
    for _, _, table, key, record in scored:
        size = len(canonical_json(record)) + len(key) + 6 + (len(table) + 6) * (table not in chosen)
        if used + size > budget:
            continue
        chosen.setdefault(table, {})[key] = record
        used += size
    return {t: dict(sorted(chosen[t].items())) for t in tables if t in chosen}


def _trimmed(tables: dict[str, Record], budget: int) -> tuple[dict[str, Record], int]:
    """`tables` less the last records of the largest table until they fit `budget`: the records
    kept and how many were left out."""
    kept = {t: dict(rows) for t, rows in tables.items()}
    dropped = 0
    while len(_json(kept)) > budget:
        largest = max(kept, key=lambda t: len(kept[t]))
        if len(kept[largest]) <= 1:
            break
        kept[largest].pop(next(reversed(kept[largest])))
        dropped += 1
    return kept, dropped


def entity_view(domain: Domain, state: Record, rng: random.Random, max_chars: int) -> View:
    """The view of one caller drawn by `rng` (one who owns records, when any does), at most
    about `max_chars` characters of records; a plain excerpt for a domain without entities."""
    entity = central_entity(domain, state)
    if entity is None:
        return View(excerpt(state, rng, max_chars))
    people = _records(state, entity.table)
    owners = {
        r.get(e.owner_key)
        for e in _entities(domain)
        if e.owner == entity.name
        for r in _records(state, e.table).values()
    }
    pool = sorted(k for k in people if k in owners) or sorted(people)
    record_id = rng.choice(pool)
    mine = {entity.table: {record_id: people[record_id]}}
    mine |= owned_records(domain, state, entity, record_id)
    mine, dropped = _trimmed(mine, max_chars * 2 // 3)
    personal = personal_tables(domain, state)
    named = referenced(state, mine, personal)  # every record the caller's name, within reason
    refs, _ = _trimmed(named, max(max_chars // 2, max_chars - len(_json(mine))))
    # the ones the budget left out are named, so a proposer knows they exist (S10's and S12's
    # proposers saw reservations at restaurants the view never showed, and said so)
    unshown = [k for t, rows in named.items() for k in rows if k not in refs.get(t, {})]
    open_tables = [
        t
        for t, v in state.items()
        if t not in personal
        and isinstance(v, dict)
        and v
        and all(isinstance(r, dict) for r in v.values())
    ]
    seen = {v for rows in (*mine.values(), *refs.values()) for v in _values(rows)}
    left = max(max_chars // 4, max_chars - len(_json(mine)) - len(_json(refs)))
    others = _nearest(state, open_tables, seen, rng, left)
    for table, rows in refs.items():  # what is shown as referenced is not repeated
        if table in others:
            others[table] = {k: r for k, r in others[table].items() if k not in rows}
    others = {t: rows for t, rows in others.items() if rows}
    clock = today(state)
    day = re.search(r"\d{4}-\d{2}-\d{2}", clock)
    refs = usage(state, refs, personal, day[0] if day else "")
    others = usage(state, others, personal, day[0] if day else "")
    parts = []
    if clock:
        parts.append(f"# The domain's clock\n{clock} Every date in the records is relative to it.")
    rules = time_rules(domain.policy)
    if rules:
        listed = "\n".join(r if r.startswith("|") else f"- {r}" for r in rules)
        parts.append(f"# The policy's time rules (the whole policy is above)\n{listed}")
    words = entity.name.replace("_", " ")
    note = f" ({dropped} more of their records not shown)" if dropped else ""
    parts.append(
        f"# The caller: {words} {record_id} and every record linked to them{note}\n{_json(mine)}"
    )
    if refs:
        left_out = f" ({len(unshown)} more not shown: {', '.join(unshown[:12])})" if unshown else ""
        parts.append(f"# Records the caller's records name{left_out}\n{_json(refs)}")
    if others:
        parts.append(
            "# Other records of the service, open to every caller (a selection)\n" + _json(others)
        )
    if refs or others:
        parts.append(
            '# Counts\nA "<table> naming it" entry counts the records of every caller that '
            "name the record (bookings, enrolments: records, not the seats or places each one "
            "holds; per date, time and status where the records have them; past dates left "
            "out): what a limit on records is checked against. A record's own field (such as "
            "seats left or capacity) says how many places remain."
        )
    shown = {t: dict(rows) for t, rows in mine.items()}
    for tables in (refs, others):
        for table, rows in tables.items():
            shown.setdefault(table, {}).update(rows)
    return View("\n\n".join(parts), entity.name, record_id, shown)


_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
_HOUR = re.compile(r"^\d{1,2}:\d{2}$")


def _slot(record: Record) -> tuple[str, str, str]:
    """A record's date, time and status ("2025-07-20", "21:00", "confirmed"), each "" when it
    has none."""
    day = next((v[:10] for v in record.values() if isinstance(v, str) and _DAY.match(v)), "")
    hour = next((v for v in record.values() if isinstance(v, str) and _HOUR.match(v)), "")
    status = record.get("status")
    return day, hour, status if isinstance(status, str) else ""


def _count(slots: list[tuple[str, str, str]], day: str) -> int | dict[str, int]:
    """How many records `slots` are: by date, time and status for records at a time of day
    (a seating; past dates left out, at most 12 slots), else by status, else in all."""
    if any(hour for _, hour, _ in slots):
        kept = Counter(
            " ".join(w for w in slot if w) for slot in slots if not slot[0] or slot[0] >= day
        )
        return dict(sorted(kept.items())[:12])
    if any(status for _, _, status in slots):
        return dict(sorted(Counter(status or "(none)" for _, _, status in slots).items()))
    return len(slots)


def usage(
    state: Record, tables: dict[str, Record], personal: set[str], day: str
) -> dict[str, Record]:
    """`tables` with, on each record that personal records name (a class its enrolments, a
    restaurant its reservations), a "<table> naming it" entry: how many of every caller's
    records name it (`_count`: by date, time and status for seatings, dates before `day` left
    out). Other callers' records stay unseen: only counts."""
    index: dict[str, list[tuple[str, Record]]] = {}
    for table in sorted(personal):
        for record in _records(state, table).values():
            for value in record.values():
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, str):
                        index.setdefault(item, []).append((table, record))
    counted: dict[str, Record] = {}
    for table, rows in tables.items():
        counted[table] = {}
        for key, record in rows.items():
            extra: Record = {}
            for other in dict.fromkeys(t for t, _ in index.get(key, [])):
                slots = [_slot(r) for t, r in index[key] if t == other]
                extra[f"{other} naming it"] = _count(slots, day)
            counted[table][key] = {**record, **extra}
    return counted


def personal_tables(domain: Domain, state: Record) -> set[str]:
    """The tables of the central entity and of every entity it owns down the chains: records
    only their caller knows (other callers' are never shown); empty without entities."""
    entity = central_entity(domain, state)
    if entity is None:
        return set()
    return {e.table for e in _entities(domain) if _root(domain, e.name) == entity.name}


def _root(domain: Domain, name: str) -> str:
    owners = {e.name: e.owner for e in _entities(domain)}
    while owners.get(name):
        name = owners[name]
    return name


def _excerpt_of(value: Any, rng: random.Random, per: int) -> Any:
    if isinstance(value, dict) and len(value) > per:
        keys = sorted(rng.sample(sorted(value), per))
        return {k: value[k] for k in keys}
    if isinstance(value, list) and len(value) > per:
        return [value[i] for i in sorted(rng.sample(range(len(value)), per))]
    return value


def excerpt(state: Record, rng: random.Random, max_chars: int) -> str:
    """A JSON excerpt of `state` of at most about `max_chars` characters: every scalar, and up to
    N entries of each collection, N the largest that fits (at least 1)."""
    seed = rng.random()
    text = canonical_json(state)
    for per in (16, 12, 8, 6, 4, 3, 2, 1):
        if len(text) <= max_chars:
            break
        pick = random.Random(seed)
        text = canonical_json({k: _excerpt_of(v, pick, per) for k, v in state.items()})
    return text
