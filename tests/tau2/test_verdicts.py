"""toolscale's verdict equals tau2's evaluator's reward, task by task, on gold attempts and on
deliberately broken ones (a dropped write, a changed write argument, a repeated write, a missing
fact), over every task of tau2-bench's retail and airline domains (benchmarks/RESULTS.md has the
figures). Needs a tau2-bench checkout; airline also needs its db.json (a large file some clones
leave out)."""

from __future__ import annotations

import asyncio
import os

import pytest

from tests.tau2.conftest import needs_tau2
from toolscale.errors import ConfigError

pytestmark = [needs_tau2, pytest.mark.slow]


@pytest.mark.parametrize("name", ["tau2:retail", "tau2:airline"])
def test_toolscale_verdict_equals_tau2_reward(name: str) -> None:
    from toolscale.registry import get_domain
    from toolscale.sandbox.pool import SandboxPool
    from toolscale.tau2.agreement import compare, summary

    try:
        domain = get_domain(name)
    except ConfigError as exc:
        pytest.skip(str(exc))
    limit = int(os.environ.get("TOOLSCALE_TAU2_VERDICT_TASKS", len(domain.templates)))

    async def run():  # type: ignore[no-untyped-def]
        async with SandboxPool(2) as pool:
            return await compare(domain, pool, range(min(limit, len(domain.templates))))

    found = asyncio.run(run())
    result = summary(found)
    assert result["disagreements"] == []
    assert (
        result["by_variant"]["gold"]["toolscale_verified"]
        == result["by_variant"]["gold"]["compared"]
    )
    assert result["by_variant"]["dropped_write"]["tau2_reward_1"] == 0
