"""check-domain's one-reason check (`toolscale.check.one_reason`): a hand-written refusal whose
refused call breaks two rules is a problem naming its template's call and both rules; the kit's
own refusal of the same write, drawn for one reason, is not; a refusal template that names no
refused call is a warning. The call is replayed in a sandbox worker, where the fixture domain is
registered through TOOLSCALE_DOMAINS."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest

from tests.fixtures.tickets import TwoReasons, registered
from toolscale.check.findings import Finding
from toolscale.check.one_reason import one_reason
from toolscale.core.contract import TaskSpec
from toolscale.core.ids import template_rng
from toolscale.sandbox.pool import SandboxPool

DOMAIN = TwoReasons()


def _spec(template: str, index: int) -> TaskSpec:
    return DOMAIN.sample_named(template_rng(DOMAIN.name, 0, template, index), 0, index, template)


def _found(monkeypatch: pytest.MonkeyPatch, specs: list[TaskSpec]) -> list[list[Finding]]:
    async def run() -> list[list[Finding]]:
        pool = SandboxPool(1, 15.0)
        with monkeypatch.context() as patched:  # the worker's registry only, not this process's
            patched.setenv("TOOLSCALE_DOMAINS", registered()["TOOLSCALE_DOMAINS"])
            await pool.__aenter__()  # starts the worker
        try:
            return [
                await one_reason(pool, DOMAIN.name, s.template, s.initial_state, s.refused, k)
                for k, s in enumerate(specs)
            ]
        finally:
            await pool.__aexit__()

    return asyncio.run(run())


def test_a_refusal_that_breaks_two_rules_is_one_problem_naming_them(monkeypatch) -> None:
    two, one = _spec("two_reasons", 0), _spec("change_ticket.no.not_active", 0)
    assert two.refused is not None and one.refused is not None
    flagged, clean = _found(monkeypatch, [two, one])
    assert clean == []
    assert [(f.check, f.task, f.warning) for f in flagged] == [("one_reason", 0, False)]
    assert flagged[0].message.startswith(
        "its refused call change_ticket is refused for not_active and saver_fixed: a refusal "
        "task must break one rule only"
    )


def test_a_refusal_template_without_its_refused_call_is_a_warning() -> None:
    spec = _spec("change_ticket.no.saver_fixed", 0)

    async def run() -> list[Finding]:
        no_pool = cast(SandboxPool, None)  # no call is made
        return await one_reason(no_pool, DOMAIN.name, spec.template, spec.initial_state, None, 2)

    (found,) = asyncio.run(run())
    assert found.warning and "names no refused call" in found.message
