"""`patch.diff`: the patch rebuilds the state exactly (random edits of a real world and of
small nested values), touches only what changed, and tells 1, 1.0 and true apart."""

from __future__ import annotations

import copy
import random

import jsonpatch
import pytest

from toolscale.core import patch as patches
from toolscale.core.contract import canonical_json
from toolscale.core.registry import get_domain
from toolscale.sample import worlds


def roundtrip(world: dict, state: dict) -> list[dict]:
    patch = patches.diff(world, state)
    rebuilt = patches.apply(world, patch)
    assert canonical_json(rebuilt) == canonical_json(state)
    return patch


def edit(rng: random.Random, value, depth: int = 0):
    """`value` with random changes: leaves replaced (also by an equal number of another type),
    keys added and removed, lists grown and shrunk."""
    if isinstance(value, dict):
        out = {}
        for name, item in value.items():
            roll = rng.random()
            if roll < 0.1:
                continue  # removed
            out[name] = edit(rng, item, depth + 1) if roll < 0.4 else item
        if rng.random() < 0.2:
            out[f"new~/{depth}"] = rng.choice([1, "x", None, [1], {"k": 1.0}])
        return out
    if isinstance(value, list):
        out = [edit(rng, v, depth + 1) if rng.random() < 0.3 else v for v in value]
        if out and rng.random() < 0.3:
            del out[rng.randrange(len(out)) :]
        if rng.random() < 0.3:
            out += [rng.randint(0, 9) for _ in range(rng.randint(1, 3))]
        return out
    if isinstance(value, bool) or value in (0, 1):
        return rng.choice([value, int(value), float(value), not value])
    return rng.choice([value, value, "changed", 7, 7.0, None])


def test_diff_of_hand_made_values():
    world = {"a": 1, "b": [1, 2], "d": {"x": True}}
    state = {"a": 2, "b": [1], "d": {"x": 1}, "c": 0}
    assert roundtrip(world, state) == [
        {"op": "replace", "path": "/a", "value": 2},
        {"op": "remove", "path": "/b/1"},
        {"op": "replace", "path": "/d/x", "value": 1},  # true -> 1: JSON tells them apart
        {"op": "add", "path": "/c", "value": 0},
    ]
    assert roundtrip(world, copy.deepcopy(world)) == []
    assert roundtrip({"a/b": {"~": 1}}, {"a/b": {"~": 1.0}}) == [
        {"op": "replace", "path": "/a~1b/~0", "value": 1.0}
    ]


@pytest.mark.parametrize("seed", range(40))
def test_random_edits_of_small_values_rebuild_exactly(seed):
    rng = random.Random(seed)
    world = {
        "n": 1,
        "f": 1.0,
        "t": True,
        "s": "x",
        "l": [0, 1, {"a": [1, 2, 3]}, [True, 0]],
        "d": {"k": {"m": [1, {"z": None}]}, "e": {}},
    }
    state = edit(rng, copy.deepcopy(world))
    patch = roundtrip(world, state)
    # jsonpatch's own diff rebuilds the same state (its patch may differ in form).
    assert canonical_json(jsonpatch.apply_patch(world, jsonpatch.make_patch(world, state))) == (
        canonical_json(state)
    )
    assert len(patch) <= len(canonical_json(state))


@pytest.mark.parametrize("domain", ["bank", "railway"])
def test_a_real_world_with_a_few_records_changed(domain):
    world = get_domain(domain).world(0)
    if world is None:
        pytest.skip(f"{domain} draws no world")
    rng = random.Random(domain)
    state = copy.deepcopy(world)
    table = rng.choice([name for name, rows in state.items() if isinstance(rows, dict) and rows])
    record = rng.choice(sorted(state[table]))
    state[table][record] = edit(rng, state[table][record])
    del state[table][rng.choice(sorted(state[table]))]
    patch = roundtrip(world, state)
    assert 1 <= len(patch) <= 20  # only the records that changed, not the world


def test_worlds_drawn_anew_for_every_task_are_not_all_kept_alive() -> None:
    import gc
    import weakref

    class World(dict):  # a dict that can be weakly referenced
        pass

    def draw() -> World:  # a domain that builds its world anew for every task
        return World(stations={"B": {"name": "Beta"}})

    memo = worlds.WorldMemo(kept=4)
    key = memo.remember(draw())
    watched = []
    for _ in range(14):
        world = draw()
        assert memo.remember(world) == key
        assert memo.copy(world) == {"stations": {"B": {"name": "Beta"}}}
        watched.append(weakref.ref(world))
    del world
    gc.collect()
    alive = sum(ref() is not None for ref in watched)
    assert alive <= 4  # not one per task
