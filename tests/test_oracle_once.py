"""The oracle's price (issue 39): the oracle plays only the routes that can be best, unless
`--detours` asks for the detours' rows; a route the pipeline plays is executed once (its outcomes
are the verifier's grounding) while a model's attempt is still replayed; and a task's patch
against its world is known from where its state was made (toolscale.oracle.played,
toolscale.judge.rubric, toolscale.sample.tasks.own_patch)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from toolscale.core import patch
from toolscale.core.registry import get_domain
from toolscale.economics.preferences import DEFAULT_SPREAD
from toolscale.economics.prices import Economics
from toolscale.judge.rewards import RewardConfig
from toolscale.judge.rubric import Rubric
from toolscale.oracle.played import candidates, with_oracle
from toolscale.play.reference import ReferenceTeacher
from toolscale.play.transcript import Transcript
from toolscale.sample.in_worker import sample_in
from toolscale.sample.tasks import SampledTask, build_task, prepare
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool


class CountingPool(SandboxPool):
    """A sandbox pool that counts the replays it serves."""

    def __init__(self, workers: int = 1) -> None:
        super().__init__(workers)
        self.replays = 0

    async def replay(
        self,
        domain: str,
        state_json: str,
        calls: Sequence[tuple[str, Any]],
        own: bool = False,
    ) -> tuple[list[CallOutcome], str]:
        self.replays += 1
        return await super().replay(domain, state_json, calls, own)


RUBRIC = Rubric(RewardConfig())


async def _item(pool: SandboxPool, domain: str, index: int) -> SampledTask:
    return prepare(await sample_in(pool, domain, 0, index), Economics(), DEFAULT_SPREAD)


@pytest.mark.parametrize("domain", ["math", "knowledge"])
def test_the_route_table_has_no_detour_unless_detours_ask_for_it(domain):
    async def run() -> list[tuple[SampledTask, SampledTask]]:
        async with SandboxPool(1) as pool:
            items = [await _item(pool, domain, i) for i in range(6)]
            return [
                (await with_oracle(i, pool, RUBRIC), await with_oracle(i, pool, RUBRIC, True))
                for i in items
            ]

    for plain, detoured in asyncio.run(run()):
        assert plain.task.route_table and not any(s.detour for s in plain.task.route_table)
        assert any(s.detour for s in detoured.task.route_table)
        # the detours' rows are the only difference: a detour is never the best route
        kept = [s for s in detoured.task.route_table if not s.detour]
        assert plain.task.route_table == kept
        assert plain.task.oracle_route == detoured.task.oracle_route
        assert plain.task.expected_route == detoured.task.expected_route
        assert plain.task.gold_actions == detoured.task.gold_actions
        assert plain.task.preference == detoured.task.preference
        # every route stays on the item (a reference teacher with detours can still play them);
        # only those played have outcomes
        assert [r.name for r in plain.routes] == [r.name for r in detoured.routes]
        assert set(plain.route_outcomes) == {s.name for s in plain.task.route_table}


def test_the_oracle_runs_each_route_once_and_the_reference_none_again():
    async def run() -> tuple[int, int, int, list[bool]]:
        async with CountingPool() as pool:
            item = await _item(pool, "math", 3)
            playable = len(candidates(item, detours=False))
            before = pool.replays
            item = await with_oracle(item, pool, RUBRIC)
            by_oracle = pool.replays - before
            drafts = await ReferenceTeacher().attempts(item, pool)
            traces = [await RUBRIC.trace(item.task, d, "reference", pool) for d in drafts]
            return (
                playable,
                by_oracle,
                pool.replays - before - by_oracle,
                [t.verified for t in traces],
            )

    playable, by_oracle, after, verified = asyncio.run(run())
    # the gold route ran when the task was built; each other route once; the verifier none
    assert by_oracle == playable - 1
    assert after == 0
    assert verified == [True]


def _tampered(draft: Transcript) -> Transcript:
    """The draft with its first tool result changed in the record and the conversation."""
    call = draft.tool_calls[0].model_copy(update={"output": "42"})
    messages = [
        m.model_copy(update={"content": "42"}) if m.role == "tool" and m.tool_call_id == call.id
        else m
        for m in draft.messages
    ]  # fmt: skip
    return dataclasses.replace(draft, tool_calls=[call, *draft.tool_calls[1:]], messages=messages)


def test_a_model_attempt_is_replayed_and_the_double_check_replays_the_rest():
    async def run() -> dict[str, tuple[int, str | None]]:
        found = {}
        async with CountingPool() as pool:
            item = await _item(pool, "math", 3)
            (gold,) = await ReferenceTeacher().attempts(item, pool)
            model = dataclasses.replace(gold, grounded=False)  # what an LLM teacher records
            checking = dataclasses.replace(RUBRIC, double_check=True)
            cases = {
                "reference": (RUBRIC, gold),
                "model": (RUBRIC, model),
                "model tampered": (RUBRIC, _tampered(model)),
                "reference double-checked": (checking, gold),
                "reference tampered, double-checked": (checking, _tampered(gold)),
            }
            for name, (rubric, draft) in cases.items():
                before = pool.replays
                verdict = await rubric.verdict(item.task, draft, pool)
                found[name] = (pool.replays - before, verdict.failure_stage)
        return found

    found = asyncio.run(run())
    assert found["reference"] == (0, None)
    assert found["model"] == (1, None)
    assert found["model tampered"] == (1, "grounding")
    assert found["reference double-checked"] == (1, None)
    assert found["reference tampered, double-checked"] == (1, "grounding")


@pytest.mark.parametrize("domain", ["bank", "railway", "math", "knowledge"])
def test_the_known_patch_is_the_full_diff_on_real_tasks(domain):
    plugin = get_domain(domain)
    world = plugin.world(0)
    for index in range(8):
        item = build_task(plugin, 0, index, 15.0)
        if world is None:
            assert item.state_patch is None
            continue
        assert item.state_patch == patch.diff(world, item.task.initial_state)
        row = item.task.to_row({item.task.world: world}, item.state_patch)
        assert row == item.task.to_row({item.task.world: world})


def test_a_changed_state_gets_its_changes_as_the_patch():
    from toolscale.sample.tasks import own_patch

    plugin = get_domain("bank")
    world = plugin.world(0)
    table = next(n for n, rows in world.items() if isinstance(rows, dict) and rows)
    record = sorted(world[table])[0]
    state = {**world, table: {k: v for k, v in world[table].items() if k != record}}
    assert own_patch(plugin, 0, state) == [{"op": "remove", "path": f"/{table}/{record}"}]
    assert own_patch(plugin, 0, world) == []
    assert own_patch(get_domain("math"), 0, {}) is None


def _rows(root) -> dict[str, list[dict]]:
    import pyarrow.parquet as pq

    return {
        config: [r for f in sorted((root / "data" / config).glob("*.parquet"))
                 for r in pq.read_table(f).to_pylist()]
        for config in ("tasks", "traces", "rejected", "worlds")
    }  # fmt: skip


@pytest.mark.slow
def test_the_double_check_replays_every_route_and_changes_no_row(tmp_path):
    from toolscale.pipeline.generate import GenerateConfig, generate

    config = GenerateConfig(
        domains=["railway", "bank", "math", "knowledge"],
        num_tasks=8,
        out=tmp_path / "once",
        detours=True,
    )
    generate(config)
    generate(dataclasses.replace(config, out=tmp_path / "twice", double_check=True))
    once, twice = _rows(tmp_path / "once"), _rows(tmp_path / "twice")
    assert all(once[c] for c in ("tasks", "traces", "rejected"))
    assert once == twice
