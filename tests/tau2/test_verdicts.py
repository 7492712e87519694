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
from toolscale.core.errors import ConfigError

pytestmark = [needs_tau2, pytest.mark.slow]


@pytest.mark.parametrize("name", ["tau2:retail", "tau2:airline"])
def test_toolscale_verdict_equals_tau2_reward(name: str) -> None:
    from toolscale.core.registry import get_domain
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


TOOLSCALE_ENVS = os.environ.get("TOOLSCALE_ENVS", "")  # ToolOrchestra's .../tau2/domains folder
TASKS = os.path.join(os.path.dirname(__file__), "../../benchmarks/tau2/toolscale_env_tasks.json")
ENVIRONMENTS = ["bank", "basketball", "ecommerce", "medicine", "movie", "railway"]
ENVIRONMENTS += ["restaurant", "travel", "weather"]


@pytest.mark.skipif(not TOOLSCALE_ENVS, reason="set TOOLSCALE_ENVS to ToolOrchestra's domains")
@pytest.mark.parametrize("environment", ENVIRONMENTS)
def test_toolscale_environments_agree_with_tau2(environment: str) -> None:
    """The hand-written tasks of benchmarks/tau2 (with facts to communicate, so the missing-fact
    attempt is judged too) on the ToolScale environments."""
    from toolscale.core.registry import get_domain
    from toolscale.sandbox.pool import SandboxPool
    from toolscale.tau2.agreement import compare, summary

    folder = os.path.join(TOOLSCALE_ENVS, environment)
    domain = get_domain(f"tau2:{folder}?tasks={os.path.abspath(TASKS)}")

    async def run():  # type: ignore[no-untyped-def]
        async with SandboxPool(1) as pool:
            return await compare(domain, pool)

    result = summary(asyncio.run(run()))
    assert result["disagreements"] == [] and result["compared"] >= 2
