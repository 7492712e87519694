"""canonical_state writes exactly canonical_json's text, whatever it remembers of earlier states."""

from __future__ import annotations

import copy
import random

from toolscale.core.contract import canonical_json, state_hash
from toolscale.core.registry import get_domain
from toolscale.core.state_text import canonical_state


def _world() -> dict:
    return {
        "today": "2025-06-30",
        "accounts": {
            "A1": {"balance": 100, "open": True, "tags": ["x", "y"]},
            "A2": {"balance": 0.0, "open": False, "tags": []},
        },
        "log": [{"n": 1}, {"n": 2}],
        "counts": {1: "int key", 2: "another"},
    }


def test_equal_text_for_values_that_compare_equal_but_differ_in_type() -> None:
    seen = _world()
    assert canonical_state(seen) == canonical_json(seen)  # now remembered
    # 100 == 100.0 == True and 0.0 == -0.0 in Python, but their JSON differs: never reused.
    for path_value in (100.0, True, -0.0, 1e16, "100"):
        state = copy.deepcopy(seen)
        state["accounts"]["A1"]["balance"] = path_value
        assert canonical_state(state) == canonical_json(state), path_value
    state = copy.deepcopy(seen)
    state["accounts"]["A2"]["balance"] = -0.0
    assert '"balance":-0.0' in canonical_state(state)


def test_changed_tables_records_and_keys() -> None:
    seen = _world()
    canonical_state(seen)
    state = copy.deepcopy(seen)
    state["accounts"]["A3"] = {"balance": 5, "open": True, "tags": ["ü"]}  # a new record
    del state["accounts"]["A1"]
    state["log"].append({"n": 3})
    state["counts"][3] = "new"  # int keys: encoded whole, as json.dumps converts them
    state["zeta"] = None
    assert canonical_state(state) == canonical_json(state)
    assert canonical_state(["not", "a", "dict"]) == canonical_json(["not", "a", "dict"])


def test_random_edits_of_a_real_world_keep_the_hash() -> None:
    world = get_domain("bank").world(0)
    rng = random.Random(7)
    for _ in range(30):
        state = copy.deepcopy(world)
        table = rng.choice(["accounts", "customers", "transactions"])
        key = rng.choice(sorted(state[table]))
        field = rng.choice(sorted(state[table][key]))
        state[table][key][field] = rng.choice([0, 0.0, False, None, "", [1], {"a": 1}, -0.0])
        expected = canonical_json(state)
        assert canonical_state(state) == expected
        assert canonical_state(state) == expected  # the second time from memory
    assert state_hash(world) == state_hash(copy.deepcopy(world))


def test_memory_stays_within_its_budget_over_many_changed_states(monkeypatch) -> None:
    from toolscale.core import state_text

    monkeypatch.setattr(state_text, "_BUDGET", 200_000)
    world = get_domain("railway").world(0)
    for n in range(40):  # every state changes a big table: a new entry each time
        state = copy.deepcopy(world)
        next(iter(state["bookings"].values()))["status"] = f"note {n}"
        assert canonical_state(state) == canonical_json(state)
        assert state_text._used <= 200_000 + len(canonical_json(state["bookings"])) * 3


def test_packed_bytes_tell_types_apart_and_round_trip():
    from fractions import Fraction

    from toolscale.core.packing import pack, unpack

    assert len({pack(1), pack(1.0), pack(True)}) == 3  # canonical JSON: 1, 1.0, true
    state = {"accounts": {"A1": {"balance": 10.5, "open": True, "tags": ["x", None]}}}
    copy = unpack(pack(state))
    assert copy == state and unpack(pack(copy)) == state
    assert pack(copy) == pack(unpack(pack(copy)))  # copies of a copy pack alike: the memo hits
    odd = {"rate": Fraction(1, 3)}  # marshal writes no Fraction: pickled instead
    assert pack(odd)[:1] == b"p" and unpack(pack(odd)) == odd
