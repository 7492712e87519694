"""The run's worlds: one shared database per (stateful domain, run seed), stored once per run.

A domain that draws a world (`Domain.world(seed)`) gives each task the world plus the task's own
changes; rows store that state as a JSON Patch (RFC 6902, `toolscale.core.patch`) against the
world, and the `worlds` config holds the world itself. Worlds are content-addressed (their id is
the content id of the state), so a `WorldStore` can never hold two different states under one id.

There is no process-wide registry: whoever writes or reads task rows owns a `WorldStore` (a run
fills one per chunk; `validate`, `export`, `check-rewards` and the trainer open the output's with
`WorldStore.of_output`), and passes it to `Task.to_row` / `Task.from_row`.
This module does not draw worlds (domains do) and does not write files (the output does).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from toolscale.core.contract import content_id
from toolscale.core.errors import ConfigError
from toolscale.core.packing import pack, unpack
from toolscale.core.records import World


def world_id(state: dict[str, Any]) -> str:
    return content_id(state)


class WorldStore(Mapping[str, dict[str, Any]]):
    """Worlds by id, for the lifetime of one run or one opened output. Worlds must not be
    mutated once added (`Domain.world` says so)."""

    def __init__(self) -> None:
        self._worlds: dict[str, dict[str, Any]] = {}
        # Ids of the objects added, by identity (each kept alive here, so its identity cannot be
        # reused): a domain's cached world is hashed once per store, not per task.
        self._by_object: dict[int, tuple[dict[str, Any], str]] = {}

    @classmethod
    def of_output(cls, root: Path) -> WorldStore:
        """Every world of the output folder at `root` (none for an output without worlds)."""
        from toolscale.write.output import Output  # write depends on records, not on sample

        store = cls()
        store.add_rows((r for _, r in Output(root).read_rows("worlds")), str(root))
        return store

    def add(self, state: dict[str, Any]) -> str:
        """Hold `state` under its id (computed here, once per object) and return the id."""
        known = self._by_object.get(id(state))
        if known is not None and known[0] is state:
            return known[1]
        key = world_id(state)
        self._worlds.setdefault(key, state)
        self._by_object[id(state)] = (state, key)
        return key

    def add_rows(self, rows: Iterable[Mapping[str, Any]], where: str) -> int:
        """Hold the worlds of `worlds` config rows (read from `where`); returns how many."""
        count = 0
        for record in rows:
            state = json.loads(record["state"])
            if world_id(state) != record["id"]:
                raise ConfigError(
                    f"world {record['id']} in {where} does not match its content; the worlds "
                    "config was altered: regenerate the output"
                )
            self._worlds.setdefault(record["id"], state)
            count += 1
        return count

    def __getitem__(self, key: str) -> dict[str, Any]:
        return self._worlds[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._worlds)

    def __len__(self) -> int:
        return len(self._worlds)


def row(domain: str, version: str, seed: int, state: dict[str, Any]) -> dict[str, Any]:
    """The `worlds` config row of a world."""
    return World(
        id=world_id(state), domain=domain, domain_version=version, seed=seed, state=state
    ).to_row()


class WorldMemo:
    """Per-process speed-ups for the worlds domains draw, by object identity: a world's id
    computed once (not per task), and fresh, changeable copies equal to
    `json.loads(json.dumps(state))` (keys in the state's order), unpacked for a remembered world
    from a packed copy of it (`toolscale.core.packing`; bank's world: ~1 ms instead of ~9 ms for
    the JSON round trip), made for any other state by the round trip. Results are the same with or
    without it. Bounded: the last `kept` worlds (each kept alive while remembered, so its identity
    cannot be reused)."""

    def __init__(self, kept: int = 16) -> None:
        self._kept = kept
        self._known: OrderedDict[int, tuple[dict[str, Any], str, bytes | None]] = OrderedDict()

    def remember(self, world: dict[str, Any]) -> str:
        """The world's id; its later copies are unpacked."""
        known = self._known.get(id(world))
        if known is not None and known[0] is world:
            return known[1]
        key = world_id(world)
        self._known[id(world)] = (world, key, None)  # packed on its first copy
        if len(self._known) > self._kept:
            self._known.popitem(last=False)
        return key

    def copy(self, state: dict[str, Any]) -> dict[str, Any]:
        known = self._known.get(id(state))
        if known is None or known[0] is not state:
            return json.loads(json.dumps(state))
        packed = known[2]
        if packed is None:
            packed = pack(json.loads(json.dumps(state)))
            self._known[id(state)] = (state, known[1], packed)
        return unpack(packed)


# The one memo of a process: what it holds is derived from objects the domains own and can be
# dropped at any time without changing a result (bounded above), so no command depends on
# another having filled it.
MEMO = WorldMemo()
